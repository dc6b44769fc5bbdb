"""Robustness: the journal's and the tape's writes fail under a real daemon; no move shown is
lost, none is shown before it is durable, and the board carries on by itself once the disk
takes writes again (issue 19, items 7 and 9).

A real daemon process (``pentago-board run`` on the virtual profile, its web console on a free
port, recording a tape beside the journal) plays random legal classic games driven through the
console's API, as kill_resume.py does. Its writes are made to fail in one of three ways:

- ``fsize``: a file-size limit (``RLIMIT_FSIZE``, soft, set for the daemon's process only) of a
  random 400-1500 bytes: the tape and then the journal of a game hit it (EFBIG; each new game
  starts the journal again); lifting the limit (``prlimit`` on the running process) is the disk
  taking writes again. Needs no privilege.
- ``full``: the journal and the tape on a small tmpfs (64 KiB) filled up to a random 0-3 pages
  (4 KiB each: a tmpfs gives whole pages); removing the filler frees it (ENOSPC). At no page left
  the tape cannot even take its header at the start: the board must start unrecorded. Needs root
  (mount).
- ``readonly``: the journal's directory and the journal made read-only in the middle of a game
  (chmod; the daemon runs as root without the capabilities that pass file permissions, through
  util-linux's setpriv), then the players start a new game: the journal's open file took every
  move, the new game cannot be written (EACCES); chmod back is the fix. Needs root.

Each cycle starts a fresh journal and a new game and plays until the board says it is paused
(its state's ``health``), or a few games end. After every acknowledged action (the state the
console reports) the journal is read from the disk: every move the console has shown must be in
it (``shown_not_durable``). While paused: either the writes come back after a random 0-2 s and
the action that could not be saved must be shown by itself within 10 s (``carried_on``, its
time from the writes coming back), or (one cycle in three) the daemon is killed while paused.
Every cycle ends with ``kill -9`` and a restart on the same journal (writes working): the
resumed game must hold every move ever shown (``lost``) and nothing never played (``invented``).
The tape must have been switched off with one log line when its writes failed, without the
referee missing a move (``tape_off_lines`` counts the lines; moves after it are still shown).

Measured (dev machine, 2 cores shared with other work, load 6-12, ``--cycles 15 --mode all
--seed 0``): 45 cycles, 730 actions shown, 45 pauses, 0 shown before durable, 0 lost, 0 invented;
33 carried on by themselves (median 1.38 s, p99 2.1 s after the writes came back), 12 killed
while paused; 23 tapes off in 23 log lines; 637 s. Before this change the board said nothing
and showed nothing more after the first failed write (4 of 4 cycles under a file-size limit).

    .venv/bin/python -m bench.robustness.write_failures [--cycles 60] [--mode fsize|full|readonly|all]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.robustness.kill_resume import ROOT, Daemon as KillDaemon
from controller.core import Core
from controller.journal import Journal
from controller.profile import load_profile
from controller.rules import ClassicGame, Twist, hole_name

PROFILE = load_profile("virtual-6x6")
ACK_TIMEOUT_S = 10.0  # an action is shown within this, or the board says why not
CARRY_ON_TIMEOUT_S = 10.0  # the pending action is shown this long after the writes come back
TMPFS_BYTES = 64 * 1024
PAGE = 4096
MODES = ("fsize", "full", "readonly")
TAPE_OFF = ("tape recording stopped", "tape not recording")  # the log's line: at a write, at the start


@dataclass
class Figures:
    cycles: int = 0
    failures: dict[str, int] = field(default_factory=dict)  # cycles by mode whose writes failed
    actions_shown: int = 0
    pauses: int = 0  # cycles in which the board said "cannot save: the board is paused"
    shown_not_durable: int = 0  # a move on the console that the journal on disk did not hold
    lost: int = 0  # moves shown, then missing after kill -9 and a restart
    invented: int = 0  # moves resumed that were never played
    carried_on: list[float] = field(default_factory=list)  # s from writes back to the pending move shown
    never_carried_on: int = 0
    killed_while_paused: int = 0
    tape_off_lines: int = 0
    tape_failures: int = 0  # cycles in which the tape's writes failed
    failed_starts: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k not in ("carried_on", "problems")}
        times = sorted(self.carried_on)
        out["carried_on"] = len(times)
        out["carried_on_median_s"] = round(statistics.median(times), 2) if times else None
        out["carried_on_p99_s"] = round(times[min(len(times) - 1, int(len(times) * 0.99))], 2) if times else None
        out["seconds"] = round(self.seconds, 1)
        out["problems"] = self.problems[:10]
        return out


class Disk:
    """Where the journal and the tape go, and how their writes are made to fail and come back."""

    def __init__(self, mode: str, root: Path, rng: random.Random) -> None:
        self.mode, self.root, self.rng = mode, root, rng
        self.dir = root / "state"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.limit = 0
        if mode == "full":
            subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_BYTES}", "tmpfs", str(self.dir)], check=True)

    def command(self) -> list[str]:
        """What the daemon's command line starts with: readonly drops the capabilities that let
        root write where the file permissions say no."""
        return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"] if self.mode == "readonly" else []

    def preexec(self) -> None:
        """In the daemon's child process, before exec: its file-size limit (fsize mode)."""
        if self.mode == "fsize" and self.limit:
            resource.setrlimit(resource.RLIMIT_FSIZE, (self.limit, resource.RLIM_INFINITY))

    def arm(self) -> None:
        """Set up this cycle's failure (before the daemon starts, or for readonly: later)."""
        if self.mode == "fsize":
            self.limit = self.rng.randint(400, 1500)
        elif self.mode == "full":
            self._fill(self.rng.randint(0, 3) * PAGE)

    def fail_now(self) -> None:
        """readonly: the journal's directory and the journal turn read-only under the daemon."""
        if self.mode == "readonly":
            for path in self.dir.iterdir():
                path.chmod(0o444)
            self.dir.chmod(0o555)

    def restore(self, pid: int | None) -> None:
        """The disk takes writes again (the running daemon's limit lifted, the space freed)."""
        if self.mode == "fsize":
            self.limit = 0
            if pid is not None:
                try:
                    resource.prlimit(pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
                except ProcessLookupError:
                    pass
        elif self.mode == "full":
            (self.dir / "filler").unlink(missing_ok=True)
        else:
            self.dir.chmod(0o755)
            for path in self.dir.iterdir():
                path.chmod(0o644)

    def reset(self) -> None:
        self.restore(None)
        for path in self.dir.iterdir():
            path.unlink()

    def close(self) -> None:
        if self.mode == "full":
            subprocess.run(["umount", str(self.dir)], check=False)

    def _fill(self, leave: int) -> None:
        found = os.statvfs(self.dir)
        free = found.f_bavail * found.f_frsize
        with open(self.dir / "filler", "wb") as filler, contextlib.suppress(OSError):
            filler.write(b"\0" * max(0, free - leave))
            filler.flush()


class Daemon(KillDaemon):
    """kill_resume's daemon, recording a tape, its log read from a pipe (a file-size limit must
    not cut its log), and started under the disk's limit."""

    def __init__(self, disk: Disk) -> None:
        super().__init__(disk.root)
        self.disk = disk
        self.journal = disk.dir / "journal.jsonl"
        self.tape = disk.dir / "input.tape"
        self.lines: list[str] = []

    def config_text(self) -> str:
        return super().config_text().replace("[web]", f'tape = "{self.tape}"\n[web]')

    def popen(self, command: list[str], env: dict[str, str]) -> subprocess.Popen[Any]:
        proc = subprocess.Popen([*self.disk.command(), *command], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, preexec_fn=self.disk.preexec, text=True, errors="replace")
        threading.Thread(target=self._read_log, args=(proc,), daemon=True).start()
        return proc

    def _read_log(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            self.lines.append(line)

    def log_tail(self, lines: int = 5) -> str:
        return "".join(self.lines[-lines:])

    def health(self) -> str:
        return _status(self.api("/api/state"))


class Cycle:
    """One cycle: a fresh journal, games until the board pauses, the writes back or a kill."""

    def __init__(self, daemon: Daemon, disk: Disk, rng: random.Random, figures: Figures) -> None:
        self.daemon, self.disk, self.rng, self.figures = daemon, disk, rng, figures
        self.shown: list[str] = []  # the moves of the game in play the console has shown
        self.durable: set[tuple[str, ...]] = set()  # the move lists seen on the disk this cycle
        self.game = ClassicGame()

    def run(self) -> None:
        self.disk.reset()
        self.disk.arm()
        self.daemon.lines.clear()
        if not self.daemon.ready(self.daemon.spawn()):
            self.figures.failed_starts += 1
            self.figures.problems.append(f"start failed: {self.daemon.log_tail()}")
            return
        paused = self._play_until_paused()
        if paused:
            self.figures.pauses += 1
            self.figures.failures[self.disk.mode] = self.figures.failures.get(self.disk.mode, 0) + 1
            if self.rng.random() < 1 / 3:
                self.figures.killed_while_paused += 1
            else:
                self._carry_on(paused)
        tape_off = sum(any(said in line for said in TAPE_OFF) for line in self.daemon.lines)
        self.figures.tape_off_lines += tape_off
        self.figures.tape_failures += tape_off > 0
        self._kill_and_resume()

    # -- playing -----------------------------------------------------------------------------

    def _play_until_paused(self) -> str | None:
        """The action the board could not save (its expected moves), or None after 3 games."""
        armed_at = self.rng.randint(2, 10) if self.disk.mode == "readonly" else None
        for _ in range(3):
            self.game, self.shown = ClassicGame(), []
            self.daemon.api("/api/command", {"name": "new_game", "args": {"game": "classic"}})
            if not self._acknowledged(lambda s: s.get("state") == "awaiting_placement" and not s.get("moves")):
                return "start" if self.daemon.health() == "paused" else None
            while not self.game.is_over():
                if armed_at is not None and len(self.game.moves) * 2 >= armed_at:
                    return self._new_game_read_only()
                if not self._half_move():
                    return "move" if self.daemon.health() == "paused" else None
            self._lift_all()
            if not self._acknowledged(lambda s: s.get("state") == "choosing"):
                return "menu" if self.daemon.health() == "paused" else None
        return None

    def _new_game_read_only(self) -> str | None:
        """readonly: the directory turns read-only in the middle of a game, and the players start
        a new one (the journal's open file took every move; a new game cannot be written)."""
        self.disk.fail_now()
        self.daemon.api("/api/command", {"name": "new_game", "args": {"game": "classic"}})
        self._lift_all()
        self.game = ClassicGame()
        if self._acknowledged(lambda s: s.get("state") == "awaiting_placement" and not s.get("moves")):
            return None
        return "start" if self.daemon.health() == "paused" else None

    def _half_move(self) -> bool:
        game = self.game
        if game.phase.value == "place":
            hole = self.rng.choice([h for h in range(36) if game.position.colour_at(h) is None])
            game.place(hole)
            self.daemon.api("/api/board/place", {"hole": hole_name(hole, game.geometry)})
        else:
            twist = Twist(self.rng.randint(1, 4), self.rng.random() < 0.5)
            game.twist(twist)
            self.daemon.api("/api/board/quarter", {"block": twist.block, "clockwise": twist.clockwise})
        rows = tuple(game.position.rows())
        return self._acknowledged(lambda s: tuple(s.get("board", ())) == rows)

    def _lift_all(self) -> None:
        for hole in range(36):
            if self.game.position.colour_at(hole) is not None:
                self.daemon.api("/api/board/lift", {"hole": hole_name(hole, self.game.geometry)})

    def _acknowledged(self, seen: Any) -> bool:
        """Wait until the console shows ``seen`` (True) or says it is paused (False); check that
        what it shows is on the disk."""
        end = time.monotonic() + ACK_TIMEOUT_S
        while time.monotonic() < end:
            message, state = self._look()
            if seen(state) and _status(message) == "live":
                self.figures.actions_shown += 1
                return True
            if _status(message) == "paused":
                return False
            time.sleep(0.02)
        self.figures.problems.append(f"neither shown nor paused within {ACK_TIMEOUT_S} s: {self.daemon.log_tail()}")
        return False

    def _look(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The console's message and state, checked against the journal on the disk, read just
        before and just after: the moves it shows must have been on the disk (in one of these
        reads or an earlier one: the console may still show a game the journal has moved on
        from, a menu or a new game saved since)."""
        self._saw_on_disk()
        message = self.daemon.api("/api/state")
        state = message.get("state") or {}
        after = self._saw_on_disk()
        moves = list(state.get("moves") or [])
        if state.get("state") != "choosing" and tuple(moves) not in self.durable:
            self.figures.shown_not_durable += 1
            self.figures.problems.append(f"shown {moves}, never on the disk (now {after['moves']})")
        self.shown = [] if state.get("state") == "choosing" or (after["moves"] == [] and moves == []) \
            else max(self.shown, moves, key=len)
        return message, state

    def _saw_on_disk(self) -> dict[str, Any]:
        """The state a restart would resume now; its moves (and their beginnings) were durable."""
        disk = _replayed(self.daemon.journal)
        moves = tuple(disk["moves"])
        self.durable.update(moves[:n] for n in range(len(moves) + 1))
        return disk

    # -- while paused ------------------------------------------------------------------------

    def _carry_on(self, pending: str) -> None:
        time.sleep(self.rng.uniform(0, 2))
        before = len(self.shown)
        back = time.monotonic()
        self.disk.restore(self.daemon.proc.pid if self.daemon.proc else None)
        rows = tuple(self.game.position.rows())
        end = back + CARRY_ON_TIMEOUT_S
        while time.monotonic() < end:
            message, state = self._look()
            live = _status(message) == "live"
            done = {"start": state.get("state") == "awaiting_placement",
                    "menu": state.get("state") == "choosing",
                    "move": tuple(state.get("board", ())) == rows and len(self.shown) >= before}[pending]
            if live and done:
                self.figures.carried_on.append(time.monotonic() - back)
                return
            time.sleep(0.02)
        self.figures.never_carried_on += 1
        self.figures.problems.append(f"the {pending} was not shown {CARRY_ON_TIMEOUT_S} s after the writes came "
                                     f"back: {self.daemon.log_tail()}")

    # -- the end: kill -9, restart with writes working, compare --------------------------------

    def _kill_and_resume(self) -> None:
        self.daemon.kill()
        self.disk.restore(None)
        if not self.daemon.ready(self.daemon.spawn()):
            self.figures.failed_starts += 1
            self.figures.problems.append(f"restart failed: {self.daemon.log_tail()}")
            return
        state = self.daemon.state()
        resumed = list(state.get("moves") or [])
        cleared = state.get("state") == "choosing" and self.game.is_over()  # the menu saved, not yet seen
        if resumed[:len(self.shown)] != self.shown and not cleared:
            self.figures.lost += sum(1 for i, m in enumerate(self.shown) if i >= len(resumed) or resumed[i] != m)
            self.figures.problems.append(f"shown {self.shown}, resumed {resumed}")
        played = [m for m in resumed if m not in self.shown]
        self.figures.invented += max(0, len(played) - 1)  # the one in flight may be saved and not yet shown
        self.daemon.kill()


def _status(message: dict[str, Any]) -> str:
    """The board's health in a console message (a daemon from before health was reported: live)."""
    return str((message.get("health") or {}).get("status", "live"))


def _replayed(journal: Path) -> dict[str, Any]:
    """The state a restart would resume from the journal on the disk now."""
    try:
        records, _ = Journal(journal).salvage()
    except OSError:
        records = []
    return Core(PROFILE, journal_records=records).state()


def run(cycles: int, seed: int, modes: tuple[str, ...] = ("fsize",), workdir: Path | None = None) -> dict[str, Any]:
    """``cycles`` cycles for each of ``modes``; the figures as a dict."""
    figures = Figures()
    began = time.monotonic()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="write-failures-") as tmp:
        for mode in modes:
            root = Path(workdir or tmp) / mode
            disk = Disk(mode, root, rng)
            daemon = Daemon(disk)
            try:
                for _ in range(cycles):
                    Cycle(daemon, disk, rng, figures).run()
                    figures.cycles += 1
            finally:
                daemon.kill()
                disk.restore(None)
                disk.close()
                if workdir is None:
                    shutil.rmtree(root, ignore_errors=True)
    figures.seconds = time.monotonic() - began
    return figures.as_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=60, help="cycles per mode (default 60)")
    parser.add_argument("--mode", choices=(*MODES, "all"), default="all",
                        help="how writes fail (default all; full and readonly need root)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, help="keep the journals, tapes and configs here")
    args = parser.parse_args()
    modes = MODES if args.mode == "all" else (args.mode,)
    figures = run(args.cycles, args.seed, modes, args.workdir)
    problems = figures.pop("problems")
    for name, value in figures.items():
        print(f"{name:>22}: {value}")
    for problem in problems:
        print(f"problem: {problem}")


if __name__ == "__main__":
    main()
