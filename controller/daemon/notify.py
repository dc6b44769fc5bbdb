"""The systemd notify protocol: READY=1 (with a STATUS=), WATCHDOG=1 and STOPPING=1 over NOTIFY_SOCKET.

Written here rather than taken from the ``sdnotify`` package: the protocol is one datagram on a
unix socket named by the environment, a dozen lines with the standard library, and doing it
ourselves lets us handle the abstract-namespace addresses (``@...``) systemd uses and the
watchdog interval (``WATCHDOG_USEC``/``WATCHDOG_PID``) in the same place. Outside systemd
(no NOTIFY_SOCKET) every call is a no-op, so the daemon runs the same from a terminal.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """Sends state lines to the service manager named by ``NOTIFY_SOCKET``, if any."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = _socket_address(env.get("NOTIFY_SOCKET", ""))
        self.watchdog_s = _watchdog_interval_s(env)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *lines: str) -> None:
        """Send ``lines`` (e.g. ``"READY=1"``) as one datagram; errors are dropped because a
        lost notification must never stop the board."""
        if self.address is None:
            return
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.setblocking(False)  # a manager that stopped reading must never freeze the core thread
                sock.sendto("\n".join(lines).encode(), self.address)
        except OSError:
            pass

    def ready(self, status: str = "") -> None:
        self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> None:
        self.notify("WATCHDOG=1")

    def stopping(self) -> None:
        self.notify("STOPPING=1")


def _socket_address(name: str) -> str | bytes | None:
    """A path, or the abstract name (leading NUL) for ``@name``; None when not under systemd."""
    if not name:
        return None
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def _watchdog_interval_s(env: Mapping[str, str]) -> float | None:
    """Seconds between pings: half of WatchdogSec, so one late ping is not yet fatal.

    None when systemd set no watchdog, or set it for another process (WATCHDOG_PID).
    """
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 1e6 / 2
