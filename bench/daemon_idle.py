"""Idle cost of the daemon on the virtual profile, as systemd would run it.

- start-up: seconds from exec to READY=1 on a notify socket (median and worst of --starts runs);
- idle CPU: user+system CPU seconds the process spends over --idle-s seconds with nothing
  happening (a fresh game at the menu, watchdog on at WatchdogSec=20, web console on), scaled to
  seconds per minute and percent of one core (target: under 1 %);
- memory: resident set size after start-up (target: under 60 MB);
- for comparison, the same CPU figure while a game waits for a placement, and while a won game's
  winning line animates (the core then asks for frames at LED edges).

Prints figures only; nothing is asserted. Usage: python bench/daemon_idle.py [--idle-s 25]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(tmp: Path, web: bool, port: int = 0) -> tuple[subprocess.Popen[bytes], float, socket.socket]:
    """Start the daemon; return it, the seconds it took to send READY=1, and its notify socket."""
    config = tmp / f"config-{time.monotonic_ns()}.toml"
    config.write_text(f'profile = "virtual-6x6"\n[storage]\njournal = "{tmp}/journal-{config.stem}.jsonl"\n'
                      f'[web]\nenabled = {"true" if web else "false"}\nport = {port or free_port()}\n')
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


def post(port: int, path: str, body: dict) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode())
    urllib.request.urlopen(request, timeout=10).close()


def win(port: int) -> None:
    """Seat 1 wins on placement in column a while seat 2 plays in block 4 (block 2 stays
    neutral, so every twist may be skipped)."""
    post(port, "/api/command", {"name": "new_game", "args": {"game": "classic"}})
    for hole in ("a1", "d1", "a2", "e1", "a3", "f1", "a4", "d2", "a5"):
        time.sleep(0.4)  # past the core's settle time, so each placement is judged on its own
        post(port, "/api/board/place", {"hole": hole})
    time.sleep(0.5)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as response:
        outcome = json.loads(response.read())["state"]["outcome"]
    assert outcome and outcome["winners"] == [1], f"the scripted game did not end as planned: {outcome}"


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
            rss = rss_mb(proc.pid)
            used = measure(proc, args.idle_s)
            stop(proc, notify)
            print(f"idle (web {'on' if web else 'off'}): {per_minute(used, args.idle_s)}; RSS {rss:.1f} MB")
        port = free_port()
        proc, _, notify = start(tmp, True, port)
        post(port, "/api/command", {"name": "new_game", "args": {"game": "classic"}})
        time.sleep(1.0)
        print(f"a game waiting for a placement: {per_minute(measure(proc, args.idle_s), args.idle_s)}")
        win(port)
        print(f"a won game's line animating: {per_minute(measure(proc, args.idle_s), args.idle_s)}")
        stop(proc, notify)


def measure(proc: subprocess.Popen[bytes], seconds: float) -> float:
    before = cpu_s(proc.pid)
    time.sleep(seconds)
    return cpu_s(proc.pid) - before


def per_minute(used: float, seconds: float) -> str:
    return (f"{used * 60 / seconds:.3f} CPU s per minute = {100 * used / seconds:.2f} % of one core "
            f"over {seconds:.0f} s")

if __name__ == "__main__":
    main()
