"""The daemon under real systemd in seconds: this machine's own Debian booted as a container.

``Container(payload, workdir)`` lays an overlay over this machine's root (``/`` read-only below,
a tmpfs of the run's above: nothing it writes reaches the host) and boots it with
``systemd-nspawn -b``: systemd is PID 1, with its journal, its cgroups and every sandboxing
option of the unit, as on a Pi, only without a kernel of its own (no udev, no modules, no GPIO
chip: those are the VM's, vm.py). It answers what vm.Vm answers (``boot``, ``sh``,
``power_cut``, ``shutdown``), so run.py's checks run on either:

- ``sh`` runs a command in the container with nsenter into every namespace of its PID 1;
- ``power_cut`` SIGKILLs the container's PID 1, which kills every process in it at once (the
  daemon gets no chance to write anything more); the overlay's upper layer is on the host's
  tmpfs, so the next ``boot`` finds the disk as it was left, as a reboot after a crash would;
- the payload (the checkout's bundle, the wheelhouse, the guest scripts) is bound read-only at
  /media/payload, as the VM's payload disk is mounted, and pip reads the wheelhouse (the
  container has a private network with only its loopback: the daemon's web console cannot clash
  with anything on the host).

Why not ``--volatile=``: its tmpfs dies with the container, so nothing could be checked after a
kill. The boot goes to multi-user.target, as a Pi's does (so the installed service starts by
itself after a power cut), with the services this machine has enabled whited out in the overlay
(HOST_ONLY): the container starts Debian's own units and what the installer enables, never the
host's databases or brokers. Needs root and Debian's systemd-container.

Nothing outlives a run: run.py makes its mounts in a mount namespace of its own (``unshare
--mount``: they go with its last process), and nspawn runs as PID 1 of a PID namespace that
dies with the bench (``_die_with_parent``), taking the container's systemd with it.
"""

from __future__ import annotations

import ctypes
import os
import secrets
import shlex
import signal
import subprocess
import time
from pathlib import Path

from vm import GuestError, Result

PIP_CONF = """\
# The container has no network: pip installs from the wheelhouse on the payload (constraints.txt).
[global]
no-index = true
find-links = /media/payload/wheels
"""

# This machine's own settings, which a fresh Pi has not: its pip settings (package mirrors,
# constraints) and the services its admin enabled (the installer's own links are made afresh).
HOST_ONLY = ["etc/xdg/pip", "root/.config/pip", "root/.pip", *(
    f"etc/systemd/system/{target}.target.wants" for target in ("multi-user", "sockets", "timers", "getty"))]
PR_SET_PDEATHSIG = 1  # prctl(2)
ENVIRONMENT = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "LANG=C.UTF-8"]


class Container:
    accel = "container"

    def __init__(self, payload: Path, workdir: Path) -> None:
        self.payload, self.workdir = payload, workdir
        self.name = f"pentago-bench-{secrets.token_hex(4)}"  # two runs at once: two names
        self.state, self.root = workdir / "state", workdir / "root"
        self.console = workdir / "console.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.leader = 0
        self._mount()

    def _mount(self) -> None:
        for where in (self.state, self.root):
            where.mkdir(parents=True, exist_ok=True)
        _run(["mount", "-t", "tmpfs", "-o", "size=4G,mode=0755", "tmpfs", str(self.state)])
        upper, work = self.state / "upper", self.state / "work"
        upper.mkdir()
        work.mkdir()
        _run(["mount", "-t", "overlay", "overlay", "-o",
              f"lowerdir=/,upperdir={upper},workdir={work}", str(self.root)])
        for host_only in HOST_ONLY:  # whiteouts in the overlay: the host keeps them
            subprocess.run(["rm", "-rf", str(self.root / host_only)], check=True)
        (self.root / "etc/pip.conf").write_text(PIP_CONF)
        (self.root / "media/payload").mkdir(parents=True, exist_ok=True)

    def boot(self, timeout_s: float = 120) -> float:
        """Start the container; the seconds until its systemd says the boot is done."""
        started = time.monotonic()
        # nspawn as PID 1 of a PID namespace of its own (unshare), which dies with the bench:
        # the kernel then kills everything below it, the container's systemd too, however the
        # bench ended (a container's PID 1 outlives a killed nspawn otherwise)
        self.process = subprocess.Popen(
            ["unshare", "--pid", "--fork", "--kill-child=SIGKILL", "systemd-nspawn", "--quiet", "--directory", str(self.root), "--machine", self.name,
             "--register=no", "--keep-unit", "--private-network", f"--bind-ro={self.payload}:/media/payload",
             "--boot", "systemd.unit=multi-user.target", "systemd.firstboot=off"],
            stdin=subprocess.DEVNULL, stdout=open(self.console, "ab"), stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=_die_with_parent)
        self.leader = self._find_leader(started + timeout_s)
        while True:
            state = self.sh("systemctl is-system-running", check=False, timeout_s=30).out.strip()
            if state in ("running", "degraded"):
                return time.monotonic() - started
            if time.monotonic() - started > timeout_s:
                raise GuestError(f"the container's systemd is still {state!r} after {timeout_s} s")
            time.sleep(0.1)

    def _find_leader(self, deadline: float) -> int:
        """The container's PID 1: the first systemd below unshare and nspawn."""
        while time.monotonic() < deadline:
            self._check_alive()
            below = [self.process.pid]
            while below:
                pid = below.pop()
                if pid != self.process.pid and _read(f"/proc/{pid}/comm") == "systemd":
                    return pid
                below += [int(child) for task in Path(f"/proc/{pid}/task").glob("*/children")
                          for child in _read(task).split()]
            time.sleep(0.05)
        raise GuestError(f"systemd-nspawn started no systemd (console: {self.console})")

    def sh(self, command: str, *, timeout_s: float = 1200, check: bool = True) -> Result:
        """Run ``command`` with bash in the container, as its root."""
        self._check_alive()
        started = time.monotonic()
        try:
            done = subprocess.run([*self._enter(), "/bin/bash", "-c", f"cd / && {command}"],
                                  capture_output=True, timeout=timeout_s, stdin=subprocess.DEVNULL)
            rc, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as expired:
            rc, out, err = 124, expired.stdout or b"", (expired.stderr or b"") + b"\ntimed out"
        result = Result(rc, out.decode(errors="replace"), err.decode(errors="replace"),
                        time.monotonic() - started)
        if check and rc != 0:
            raise GuestError(f"container: {command!r} exited {rc}\n{result.out[-2000:]}{result.err[-2000:]}")
        return result

    def _enter(self) -> list[str]:
        """nsenter into every namespace of the container's PID 1, with a login's environment
        (not the host's: its PIP_* variables would send pip elsewhere)."""
        return ["nsenter", "--target", str(self.leader), "--all", "--", "env", "-i", *ENVIRONMENT]

    def _check_alive(self) -> None:
        if self.process is None or self.process.poll() is not None:
            code = None if self.process is None else self.process.returncode
            raise GuestError(f"the container is not running (nspawn exit {code}; console: {self.console})")

    def power_cut(self) -> None:
        """Kill the whole container at once: SIGKILL to its PID 1 ends its PID namespace."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.leader, signal.SIGKILL)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None

    def shutdown(self, timeout_s: float = 60) -> None:
        """systemctl poweroff in the container, or a kill when it takes too long."""
        if self.process is None or self.process.poll() is not None:
            self.process = None
            return
        subprocess.run([*self._enter(), "systemctl", "poweroff"],
                       capture_output=True, timeout=30, check=False)
        try:
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.power_cut()
        self.process = None

    def close(self) -> None:
        """Kill the container if it still runs, and take the overlay and its tmpfs away."""
        self.power_cut()
        for where in (self.root, self.state):
            if os.path.ismount(where):
                subprocess.run(["umount", "--lazy", str(where)], check=False)

    def __enter__(self) -> Container:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read(path: str | Path) -> str:
    """A /proc file's text, or "" once its process is gone."""
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def _die_with_parent() -> None:
    """In the child, before unshare runs: SIGKILL when the bench dies, however it dies."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _run(argv: list[str]) -> None:
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        raise GuestError(f"{shlex.join(argv)} failed: {result.stderr.strip()}")
