"""A daemon in a subprocess, as systemd would run it: a notify socket, a watchdog interval, a
config file, and the web console's API as the test's hands on the virtual board."""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


# Listening ports for the tests' daemons and brokers come from below the kernel's ephemeral range
# (32768-60999 on Linux), where outgoing connections never take them, and none is handed out
# twice in a run. bind(0) picked from the ephemeral range: a port it had just handed out was
# then free to the next bind(0) or to a client's connection before the daemon listened on it
# (CI once failed with "address already in use" that way).
_PORTS = itertools.count(os.getpid() % 12_000)


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on, never the same twice in this process."""
    while True:
        port = 20_000 + next(_PORTS) % 12_000  # 20000-31999
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


class DaemonProcess:
    """``pentago-board run`` on the virtual profile with the web console on a free port."""

    def __init__(self, tmp_path: Path, *, web: str = "", storage: str = "", watchdog_usec: int = 400_000,
                 profile: str = "virtual-6x6", more: str = "", launcher: Path | None = None) -> None:
        """``launcher``: a script run instead of ``python -m controller`` with the same
        arguments (``run --config ...``), its stdin a pipe (:attr:`stdin`)."""
        self.tmp_path = tmp_path
        self.launcher = launcher
        self.port = free_port()
        self.journal = tmp_path / "state" / "journal.jsonl"
        self.config = tmp_path / "config.toml"
        self.config.write_text(
            f'profile = "{profile}"\n[lights]\nbrightness = 1.0\n'
            f'[storage]\njournal = "{self.journal}"\n{storage}'
            f'[web]\nenabled = true\nport = {self.port}\n{web}{more}')
        self.watchdog_usec = watchdog_usec
        self.token = ""
        self.proc: subprocess.Popen[bytes] | None = None
        self.notify: socket.socket | None = None

    def start(self) -> DaemonProcess:
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = str(self.tmp_path / f"notify-{time.monotonic_ns()}")
        self.notify.bind(path)
        self.notify.settimeout(0.2)
        env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": str(self.watchdog_usec),
               "PYTHONUNBUFFERED": "1"}
        env.pop("WATCHDOG_PID", None)
        self.stderr = open(self.tmp_path / "daemon.log", "ab")
        program = [str(self.launcher)] if self.launcher else ["-m", "controller"]
        self.proc = subprocess.Popen([sys.executable, *program, "run", "--config", str(self.config)],
                                     cwd=ROOT, env=env, stderr=self.stderr, stdout=subprocess.DEVNULL,
                                     stdin=subprocess.PIPE if self.launcher else None)
        return self

    def restart(self) -> DaemonProcess:
        """Start again on the same config and journal (after the last process ended)."""
        assert self.proc is not None and self.proc.poll() is not None
        self.notify.close()
        self.stderr.close()
        return self.start()

    @property
    def stdin(self) -> Any:
        """The launcher's stdin (a pipe; None without a launcher)."""
        return self.proc.stdin if self.proc is not None else None

    @property
    def log(self) -> str:
        return (self.tmp_path / "daemon.log").read_text()

    def messages(self, until: str, timeout_s: float = 20.0) -> list[str]:
        """Notify datagrams received until one contains ``until``."""
        got: list[str] = []
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            try:
                got.append(self.notify.recv(4096).decode())
            except TimeoutError:
                if self.proc.poll() is not None:
                    raise AssertionError(f"daemon exited {self.proc.returncode}:\n{self.log}") from None
                continue
            if until in got[-1]:
                return got
        raise AssertionError(f"no {until!r} from the daemon in {timeout_s}s; got {got}\n{self.log}")

    def ready(self) -> DaemonProcess:
        self.messages("READY=1")  # the token is never logged: a test that sets one sets .token
        return self

    def api(self, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data)
        if token or self.token:
            request.add_header("Authorization", f"Bearer {token if token is not None else self.token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def state(self) -> dict:
        return self.api("/api/state")[1]["state"]

    def wait_state(self, predicate, timeout_s: float = 10.0) -> dict:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            state = self.state()
            if predicate(state):
                return state
            time.sleep(0.05)
        raise AssertionError(f"state never matched; last: {state}\n{self.log}")

    def signal(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def wait(self, timeout_s: float = 15.0) -> int:
        return self.proc.wait(timeout_s)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        if self.notify is not None:
            self.notify.close()
        self.stderr.close()
