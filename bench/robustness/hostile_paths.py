"""Robustness: every file setting pointed at something that is not a regular file.

Each path the product reads or writes by name (the config itself, its ``profile``,
``storage.journal``, ``storage.tape``, ``mqtt.ca_file``, and the files given to ``profile``,
``replay`` and ``doctor``) is pointed in turn at each hostile kind of path: a NUL in the
name, ``/dev/zero``, ``/dev/urandom``, a FIFO, a symlink loop, a directory, a socket and a
3 GiB sparse file. Every case runs the real command in a child process (its address space
capped, so an endless read ends in MemoryError rather than in swap) and must end in a clear
message and exit status 2 (``doctor``: a FAIL line and status 1, or 2 for a config it cannot
read) within the time limit: never a traceback, a MemoryError, a hang or a start. Then a running
daemon's config is replaced by each kind and reloaded with SIGHUP: the reload must be refused
in one log line and a SIGTERM must still stop the daemon (the stop time is printed).

    .venv/bin/python bench/robustness/hostile_paths.py [--timeout 20]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import socket
import stat
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADDRESS_SPACE = 2 * 1024**3  # the child's limit: an endless read fails instead of swapping
HUGE = 3 * 1024**3  # the sparse file's size: costs no disk, fills any memory that reads it

KINDS = ("nul", "zero", "urandom", "fifo", "loop", "directory", "socket", "huge")
ONLY_IN_CONFIG = {"nul"}  # a command line cannot carry a NUL


def hostile(kind: str, directory: Path, stack: ExitStack) -> str:
    """A path of ``kind`` made in ``directory`` (kept until ``stack`` closes)."""
    target = directory / f"hostile-{kind}"
    if kind == "nul":
        return str(directory / "journal\0.jsonl")
    if kind in ("zero", "urandom"):
        return _device(kind, target)
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "loop":
        os.symlink(directory / "hostile-loop-b", target)
        os.symlink(target, directory / "hostile-loop-b")
    elif kind == "directory":
        target.mkdir()
    elif kind == "socket":
        sock = stack.enter_context(socket.socket(socket.AF_UNIX))
        sock.bind(str(target))
    elif kind == "huge":
        with open(target, "wb") as file:
            file.truncate(HUGE)
    return str(target)


def _device(kind: str, target: Path) -> str:
    """A node of the device ``kind`` of our own, never the system's: a daemon that renames or
    replaces what it is given (a tape path once did, as root) must not take /dev/zero away from
    the machine. Without root (no mknod) /dev's own node is safe: /dev is not ours to write."""
    system = Path("/dev") / kind
    if os.geteuid() != 0:
        return str(system)
    os.mknod(target, 0o666 | stat.S_IFCHR, os.stat(system).st_rdev)
    return str(target)


def base_config(directory: Path, *, profile: str = "virtual-6x6", journal: str = "", tape: str = "",
                mqtt: str = "") -> str:
    """A daemon config in ``directory`` (web console off); the given settings as they are."""
    storage = {"journal": journal or str(directory / "state" / "journal.jsonl"), **({"tape": tape} if tape else {})}
    lines = [f"profile = {json.dumps(profile)}", "[storage]",
             *(f"{key} = {json.dumps(value)}" for key, value in storage.items()), "[web]", "enabled = false"]
    return "\n".join(lines + ([f"[mqtt]\n{mqtt}"] if mqtt else []) + [""])


def _config_file(directory: Path, text: str) -> str:
    path = directory / "config.toml"
    path.write_text(text)
    return str(path)


MQTT = 'enabled = true\nhost = "127.0.0.1"\nport = 9\ntls = true\nca_file = '
SETTINGS: dict[str, Callable[[Path, str], str]] = {  # a config whose setting is the hostile path
    "profile": lambda d, p: base_config(d, profile=p),
    "storage.journal": lambda d, p: base_config(d, journal=p),
    "storage.tape": lambda d, p: base_config(d, tape=p),
    "mqtt.ca_file": lambda d, p: base_config(d, mqtt=MQTT + json.dumps(p)),
}


@dataclass(frozen=True)
class Case:
    target: str  # what is hostile: "run --config", "storage.journal (run)", ...
    kind: str
    argv: tuple[str, ...]


def cases(directory: Path, stack: ExitStack, kinds: tuple[str, ...] = KINDS) -> list[Case]:
    """Every target with every kind, each in a folder of its own under ``directory``."""
    made: list[Case] = []
    for kind in kinds:
        for target, argv in _targets(kind):
            folder = directory / f"{len(made):03d}"
            folder.mkdir()
            path = hostile(kind, folder, stack)
            made.append(Case(target, kind, argv(folder, path)))
    return made


def _targets(kind: str) -> list[tuple[str, Callable[[Path, str], tuple[str, ...]]]]:
    found: list[tuple[str, Callable[[Path, str], tuple[str, ...]]]] = []
    if kind not in ONLY_IN_CONFIG:
        found += [("run --config", lambda d, p: ("run", "--config", p)),
                  ("doctor --config", lambda d, p: ("doctor", "--config", p)),
                  ("profile PATH", lambda d, p: ("profile", p)),
                  ("replay PATH", lambda d, p: ("replay", p)),
                  ("game --picture PATH.txt", lambda d, p: ("game", "--variant", "puzzle", "--picture", _as_txt(d, p)))]
    for setting, make in SETTINGS.items():
        for command in ("run", "doctor"):
            if setting == "mqtt.ca_file" and command == "doctor":
                continue  # doctor does not look at MQTT
            found.append((f"{setting} ({command})",
                          lambda d, p, make=make, command=command: (
                              command, "--config", _config_file(d, make(d, p)))))
    return found


def _as_txt(directory: Path, path: str) -> str:
    """``path`` under a name a picture file has (a name ending .txt is read as a file)."""
    link = directory / "picture.txt"
    link.symlink_to(path)
    return str(link)


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def attack(case: Case, timeout_s: float) -> dict[str, object]:
    """Run the case's command; its verdict ("refused" is the only pass), status and seconds."""
    began = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "controller", *case.argv], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_limit,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        out, err = proc.communicate(timeout=timeout_s)
        hung = False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        hung = True
    text = (out + err).decode(errors="replace")
    return {"target": case.target, "kind": case.kind, "status": proc.returncode,
            "seconds": round(time.monotonic() - began, 2), "verdict": verdict(case, text, proc.returncode, hung),
            "said": _last_line(text)}


def verdict(case: Case, text: str, status: int, hung: bool) -> str:
    if "board live" in text:
        return "started"
    if hung:
        return "hung"
    if "MemoryError" in text:
        return "memory"
    if "Traceback" in text:
        return "traceback"
    doctor = case.argv[0] == "doctor"
    if status == 2 or (doctor and status == 1 and "FAIL" in text):
        return "refused"
    return f"exit {status}"


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    failed = [line for line in lines if "FAIL" in line or "error" in line or "cannot" in line]
    return (failed or lines or [""])[-1][:200]


# -- SIGHUP after the config was replaced ------------------------------------------------------

def reload_attack(kind: str, directory: Path, stack: ExitStack, timeout_s: float) -> dict[str, object]:
    """Start a daemon, put a hostile ``kind`` where its config was, SIGHUP, then SIGTERM."""
    config = Path(_config_file(directory, base_config(directory)))
    log = directory / "daemon.log"
    with open(log, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "controller", "run", "--config", str(config)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=err, preexec_fn=_limit)
    try:
        if not _wait_for(lambda: "board live" in log.read_text(errors="replace"), timeout_s):
            return {"kind": kind, "verdict": "never started", "stop_s": None, "said": _last_line(log.read_text())}
        config.unlink()
        if kind == "loop":
            os.symlink(config.name, config)
        else:
            source = hostile(kind, directory, stack)  # ours to move; the system's only linked to
            (os.replace if Path(source).parent == directory else os.symlink)(source, config)
        proc.send_signal(signal.SIGHUP)
        refused = _wait_for(lambda: "reload refused" in log.read_text(errors="replace"), 5.0)
        stopped_at = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            status = proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return {"kind": kind, "verdict": "never stopped", "stop_s": None, "said": _last_line(log.read_text())}
        stop_s = round(time.monotonic() - stopped_at, 2)
        text = log.read_text(errors="replace")
        ok = refused and status == 0 and "Traceback" not in text
        return {"kind": kind, "verdict": "refused" if ok else f"exit {status}", "stop_s": stop_s,
                "said": next((line for line in text.splitlines() if "reload refused" in line), "")[:200]}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _wait_for(predicate: Callable[[], bool], timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


RELOAD_KINDS = ("zero", "urandom", "fifo", "loop", "directory", "socket", "huge")


def run(timeout_s: float = 20.0, kinds: tuple[str, ...] = KINDS,
        reload_kinds: tuple[str, ...] = RELOAD_KINDS) -> dict[str, object]:
    """Every case and every reload; the figures :func:`main` prints."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp, ExitStack() as stack:
        results = [attack(case, timeout_s) for case in cases(Path(tmp), stack, kinds)]
        reloads = []
        for n, kind in enumerate(reload_kinds):
            folder = Path(tmp) / f"reload-{n}"
            folder.mkdir()
            reloads.append(reload_attack(kind, folder, stack, timeout_s))
    failures = [r for r in results if r["verdict"] != "refused"] + [r for r in reloads if r["verdict"] != "refused"]
    seconds = [float(r["seconds"]) for r in results]  # type: ignore[arg-type]
    stops = [float(r["stop_s"]) for r in reloads if r["stop_s"] is not None]  # type: ignore[arg-type]
    return {"cases": len(results), "refused": sum(r["verdict"] == "refused" for r in results),
            "median_s": round(statistics.median(seconds), 2) if seconds else None,
            "max_s": max(seconds, default=None), "reloads": len(reloads),
            "reload_stop_max_s": max(stops, default=None), "failures": failures, "results": results,
            "reload_results": reloads}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a case may take (default 20)")
    args = parser.parse_args()
    figures = run(args.timeout)
    for result in figures["results"] + figures["reload_results"]:  # type: ignore[operator]
        print(f"{result['verdict']:10} {result.get('target', 'SIGHUP reload'):26} {result['kind']:9} "
              f"{result.get('seconds', result.get('stop_s'))!s:>6} s  {result['said']}")
    print(f"\n{figures['cases']} cases: {figures['refused']} refused with a message "
          f"(median {figures['median_s']} s, max {figures['max_s']} s); {figures['reloads']} reloads, "
          f"the slowest stop after one {figures['reload_stop_max_s']} s; "
          f"{len(figures['failures'])} failures")  # type: ignore[arg-type]
    return 1 if figures["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
