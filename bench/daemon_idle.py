"""Idle cost of the daemon on the virtual profile, as systemd would run it.

- start-up: seconds from exec to READY=1 on a notify socket (median and worst of --starts runs);
- idle CPU: user+system CPU seconds the process spends over --idle-s seconds with nothing
  happening (a fresh game at the menu, watchdog on at WatchdogSec=20, web console on), scaled to
  seconds per minute and percent of one core (target: under 1 %);
- memory: resident set size after start-up (target: under 60 MB).

Prints figures only; nothing is asserted. Usage: python bench/daemon_idle.py [--idle-s 25]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(tmp: Path, web: bool) -> tuple[subprocess.Popen[bytes], float, socket.socket]:
    """Start the daemon; return it, the seconds it took to send READY=1, and its notify socket."""
    config = tmp / f"config-{time.monotonic_ns()}.toml"
    config.write_text(f'profile = "virtual-6x6"\n[storage]\njournal = "{tmp}/journal-{config.stem}.jsonl"\n'
                      f'[web]\nenabled = {"true" if web else "false"}\nport = {free_port()}\n')
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp / f"notify-{config.stem}")
    notify.bind(path)
    notify.settimeout(30)
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000000"}
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "controller", "run", "--config", str(config)],
                            cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    while b"READY=1" not in notify.recv(4096):
        pass
    return proc, time.perf_counter() - began, notify


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def stop(proc: subprocess.Popen[bytes], notify: socket.socket) -> None:
    proc.terminate()
    proc.wait(15)
    notify.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-s", type=float, default=25.0)
    parser.add_argument("--starts", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for web in (False, True):
            times = []
            for _ in range(args.starts):
                proc, took, notify = start(tmp, web)
                times.append(took)
                stop(proc, notify)
            print(f"start-up to READY (web {'on' if web else 'off'}): median {statistics.median(times):.3f} s, "
                  f"worst {max(times):.3f} s over {args.starts} starts")
        for web in (False, True):
            proc, _, notify = start(tmp, web)
            time.sleep(2.0)  # let imports and first frames settle
            rss, before = rss_mb(proc.pid), cpu_s(proc.pid)
            time.sleep(args.idle_s)
            used = cpu_s(proc.pid) - before
            stop(proc, notify)
            print(f"idle (web {'on' if web else 'off'}): {used * 60 / args.idle_s:.3f} CPU s per minute "
                  f"= {100 * used / args.idle_s:.2f} % of one core over {args.idle_s:.0f} s; RSS {rss:.1f} MB")


if __name__ == "__main__":
    main()
