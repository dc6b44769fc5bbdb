"""Robustness: kill -9 at random points of scripted games, restart, resume; nothing acknowledged
is lost, nothing is written twice, nothing is made up, and every start succeeds.

A real daemon process (``pentago-board run`` on the virtual profile, the web console on a free
port, a notify socket for READY=1, as systemd runs it) plays random legal classic games driven
through the web console's API: a placement is ``POST /api/board/place``, a twist
``/api/board/quarter``, a new game the ``new_game`` command, and clearing the board after a game
is one lift per marble (the daemon then writes its own ``menu`` record). After each action the
script waits for its *acknowledgement*: the state the console reports, which the daemon
publishes only after the action's journal record is on disk.

Each cycle plays 0-5 actions, then issues one more and sends SIGKILL after a random 0-0.6 s
(before, during or after that action's journal write); one cycle in ten instead kills the daemon
0-0.6 s into its own start-up. One action in twelve during a game abandons it for a new game
(two journal rewrites: menu, then start), so kills also land between those and early in games. Then the journal as the killed process left it is compared with
the script: it must be the records since the last ``start``/``menu`` up to the acknowledged
one, plus at most the action in flight.

- ``lost``: acknowledged records the journal no longer holds;
- ``duplicated``: records the journal holds twice;
- ``invented``: records in the journal the script never made (a take-back, a wrong move);
- ``failed_starts``: starts that sent no READY=1 within 20 s (or exited first).

Then the daemon is restarted on the same journal; its resumed game must be the journal's; the
virtual board restarts empty, so the daemon must enter repair mode (a resume never takes the
last move back by itself); the script sets the marbles back, as repair mode asks, and goes on. A journal that is off the script is counted and the
script starts a new game.

Time: a start to READY=1 takes about 0.45 s and an acknowledged action 0.2-0.5 s (the core's
settle times), so a kill costs about 1.6 s and 1,000 kills about half an hour: a real process
per kill cannot do 1,000 in a few minutes. ``--n 300`` is the quicker run (about 8 minutes);
the pytest version (tests/robustness/test_kill_resume.py) runs a handful.

Measured (dev machine, 2 cores shared with other work, ``--n 1000 --seed 0``): 1,000 kills,
1,001 starts, 0 failed; 2,392 acknowledged records, 0 lost, 0 duplicated, 0 invented, nothing
set aside; 1,617 s (1.62 s per kill). The code before issue 9's fixes failed every start after
its first kill (a journal of only ``menu``: MachineError), and, started without that journal,
journalled 5 take-backs nobody made in 80 kills (a resume on the empty virtual board).

    .venv/bin/python bench/robustness/kill_resume.py [--n 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.journal import Journal
from controller.rules import ClassicGame, Twist, hole_name, move_name

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 20.0
ACK_TIMEOUT_S = 10.0
KILL_WINDOW_S = 0.6
MAX_ACTIONS_BEFORE_KILL = 5
START_UP_KILLS = 0.1  # the share of cycles that kill the daemon during its own start-up
ABANDON_SHARE = 0.08  # the share of actions in a game that start a new game instead
LOOK_S = 0.5  # a player's look at the lights: longer than the core's settle time (0.15 s)

Record = tuple[str, ...]  # ("start",), ("place", "a1"), ("twist", "1R"), ("menu",)
FRESH = ("start", "menu")  # a record of these kinds restarts the journal
KINDS = ("start", "menu", "next_game", "place", "twist", "skip", "take_back")  # "end" is for people


@dataclass(frozen=True)
class Expected:
    """What the console reports once a record is written."""

    state: str
    board: tuple[str, ...]
    moves: tuple[str, ...]

    def seen_in(self, snapshot: dict[str, Any]) -> bool:
        return (snapshot.get("state"), tuple(snapshot.get("board", ())), tuple(snapshot.get("moves", ()))) == \
            (self.state, self.board, self.moves)


EMPTY_BOARD = tuple(ClassicGame().position.rows())
AT_MENU = Expected("choosing", EMPTY_BOARD, ())


@dataclass
class Script:
    """Every record the session means to write, in order, and the state each one leads to."""

    records: list[Record] = field(default_factory=lambda: [("menu",)])
    expected: list[Expected] = field(default_factory=lambda: [AT_MENU])

    def add_game(self, rng: random.Random) -> None:
        """A random legal classic game: its start, every half-move, and the menu after clearing."""
        game = ClassicGame()
        self._add(("start",), game, "awaiting_placement")
        while not game.is_over():
            hole = rng.choice([h for h in range(36) if game.position.colour_at(h) is None])
            game.place(hole)
            self._add(("place", hole_name(hole, game.geometry)), game,
                      "game_over" if game.is_over() else "awaiting_twist")
            if game.is_over():
                break
            twist = Twist(rng.randint(1, 4), rng.random() < 0.5)
            game.twist(twist)
            self._add(("twist", str(twist)), game, "game_over" if game.is_over() else "awaiting_placement")
        self.records.append(("menu",))
        self.expected.append(AT_MENU)

    def _add(self, record: Record, game: ClassicGame, state: str) -> None:
        self.records.append(record)
        self.expected.append(Expected(state, tuple(game.position.rows()),
                                      tuple(move_name(m, game.geometry) for m in game.moves)))

    def fresh_before(self, k: int) -> int:
        """The index of the last start or menu among the first ``k`` records."""
        return max(i for i in range(k) if self.records[i][0] in FRESH)


class Daemon:
    """``pentago-board run`` on the virtual profile in its own process, on a fresh port per start."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.journal = workdir / "journal.jsonl"
        self.config = workdir / "config.toml"
        self.log_path = workdir / "daemon.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0

    def spawn(self) -> socket.socket:
        """Start the process; returns the notify socket it will send READY=1 on."""
        self.port = _free_port()
        self.config.write_text(self.config_text())
        notify_path = self.workdir / "notify"
        notify_path.unlink(missing_ok=True)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(str(notify_path))
        env = {**os.environ, "NOTIFY_SOCKET": str(notify_path), "PYTHONUNBUFFERED": "1"}
        for name in ("WATCHDOG_USEC", "WATCHDOG_PID"):
            env.pop(name, None)
        self.proc = self.popen([sys.executable, "-m", "controller", "run", "--config", str(self.config)], env)
        return notify

    def config_text(self) -> str:
        return (f'profile = "virtual-6x6"\n[storage]\njournal = "{self.journal}"\n'
                f'[web]\nenabled = true\nport = {self.port}\n')

    def popen(self, command: list[str], env: dict[str, str]) -> subprocess.Popen[Any]:
        with open(self.log_path, "ab") as log:
            return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)

    def ready(self, notify: socket.socket) -> bool:
        """True once READY=1 arrives; False if the process exits or stays silent too long."""
        end = time.monotonic() + READY_TIMEOUT_S
        notify.settimeout(0.1)
        try:
            while time.monotonic() < end:
                try:
                    if b"READY=1" in notify.recv(4096):
                        return True
                except TimeoutError:
                    if self.proc is not None and self.proc.poll() is not None:
                        return False
            return False
        finally:
            notify.close()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(10)

    def api(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            return {"error": error.code, "body": error.read().decode(errors="replace")}

    def state(self) -> dict[str, Any]:
        return self.api("/api/state").get("state", {})

    def log_tail(self, lines: int = 5) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Figures:
    """What a run found (see the module docstring); ``problems`` says what went wrong, and when."""

    kills: int = 0
    starts: int = 0
    failed_starts: int = 0
    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    invented: int = 0
    off_script: int = 0  # journals that did not match the script (their records are counted above)
    unacknowledged: int = 0  # actions whose state never came within ACK_TIMEOUT_S
    set_aside: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        figures = dict(self.__dict__)
        figures["seconds_per_kill"] = round(self.seconds / self.kills, 2) if self.kills else None
        figures["seconds"] = round(self.seconds, 1)
        figures["problems"] = self.problems[:10]
        return figures


class Session:
    """The script, the daemon and what has been acknowledged so far."""

    def __init__(self, daemon: Daemon, rng: random.Random, figures: Figures) -> None:
        self.daemon, self.rng, self.figures = daemon, rng, figures
        self.script = Script()
        self.acked = 1  # records[:acked] are acknowledged; the first is the menu written below
        self.inflight = 0  # records after them the action in hand may have written
        Journal(daemon.journal).clear([{"t": 0.0, "kind": "menu"}])  # issue 9 item 1: a menu-only journal

    # -- one cycle: start, set the board back, play, kill, compare -----------------------------

    def cycle(self) -> None:
        if self.acked > 0 and self.script.expected[self.acked - 1].state == "game_over":
            self.inflight = 1  # the board restarts empty: the daemon clears to the menu by itself
        notify = self.daemon.spawn()
        self.figures.starts += 1
        if self.rng.random() < START_UP_KILLS:
            time.sleep(self.rng.uniform(0, KILL_WINDOW_S))
            notify.close()
            self._kill_and_compare()
            return
        if not self.daemon.ready(notify):
            self.figures.failed_starts += 1
            self.figures.problems.append(f"start {self.figures.starts} failed:\n{self.daemon.log_tail()}")
            self._kill_and_compare()
            return
        if self._resume():
            for _ in range(self.rng.randint(0, MAX_ACTIONS_BEFORE_KILL)):
                if not self._act(wait=True):
                    break
            self._act(wait=False)
            time.sleep(self.rng.uniform(0, KILL_WINDOW_S))
        self._kill_and_compare()

    def _kill_and_compare(self) -> None:
        self.daemon.kill()
        self.figures.kills += 1
        self.figures.set_aside = len(Journal(self.daemon.journal).set_aside_files())
        if self.acked < 0:
            return  # off the script since the last kill; the restart resyncs first
        records, _ = Journal(self.daemon.journal).salvage()
        written = [_record(r) for r in records if r.get("kind") in KINDS]
        k = self._written_up_to(written)
        if k is None:
            self._count_off_script(written)
            self.acked, self.inflight = -1, 0  # resync after the restart
        else:
            self.acked, self.inflight = k, 0

    def _written_up_to(self, written: list[Record]) -> int | None:
        """k when the journal holds exactly the records since the last start or menu up to
        record k (the acknowledged ones, plus the action in flight or not); else None."""
        records = self.script.records
        for k in range(self.acked + self.inflight, self.acked - 1, -1):
            if written == records[self.script.fresh_before(k):k]:
                return k
        return None

    def _count_off_script(self, written: list[Record]) -> None:
        first = self.script.fresh_before(self.acked)
        expected = self.script.records[first:self.acked + self.inflight]
        same = next((i for i, (a, b) in enumerate(zip(written, expected)) if a != b), min(len(written), len(expected)))
        self.figures.off_script += 1
        self.figures.lost += max(0, self.acked - first - same)
        for i, record in enumerate(written[same:], start=same):
            if record in written[:i]:
                self.figures.duplicated += 1
            else:
                self.figures.invented += 1
        self.figures.problems.append(f"kill {self.figures.kills}: journal {written} but acknowledged "
                                     f"{self.script.records[first:self.acked]}")

    # -- after a start: the resumed game must be the journal's; set the board back ---------------

    def _resume(self) -> bool:
        if self.acked < 0:
            return self._resync()
        expected = self.script.expected[self.acked - 1]
        if expected.state == "game_over":  # the board came back empty: the daemon clears to the menu
            self.inflight = 1
            if not self._wait(self.script.expected[self.acked]):
                return False
            self._acknowledge()
            return True
        snapshot = self._first_snapshot()
        if (tuple(snapshot.get("board", ())), tuple(snapshot.get("moves", ()))) != (expected.board, expected.moves):
            self.figures.invented += 1
            self.figures.problems.append(f"resumed {snapshot.get('moves')} for a journal of "
                                         f"{self.script.records[self.script.fresh_before(self.acked):self.acked]}")
            return self._resync()
        if expected.board != EMPTY_BOARD and not self._asks_for_repair(expected):
            return self._resync()
        for rank, row in enumerate(expected.board):
            for column, cell in enumerate(row):
                if cell != ".":
                    self.daemon.api("/api/board/place", {"hole": f"{'abcdef'[column]}{6 - rank}"})
        return self._wait(expected)

    def _asks_for_repair(self, expected: Expected) -> bool:
        """The board restarts empty: the daemon must ask for the marbles back (repair mode),
        never take the last move back by itself (issue 9, item 4)."""
        end = time.monotonic() + ACK_TIMEOUT_S
        while time.monotonic() < end:
            snapshot = self.daemon.state()
            if (tuple(snapshot.get("board", ())), tuple(snapshot.get("moves", ()))) != (expected.board, expected.moves):
                self.figures.invented += 1
                self.figures.problems.append(f"the empty board after a resume changed the game to "
                                             f"{snapshot.get('moves')} {snapshot.get('board')}")
                return False
            if snapshot.get("state") == "repair":
                return True
            time.sleep(0.02)
        self.figures.unacknowledged += 1
        self.figures.problems.append(f"no repair mode for the empty board after a resume: {self.daemon.state()}")
        return False

    def _first_snapshot(self) -> dict[str, Any]:
        """The state once the core thread has published one (it does at once after READY)."""
        end = time.monotonic() + ACK_TIMEOUT_S
        snapshot = self.daemon.state()
        while "board" not in snapshot and time.monotonic() < end:
            time.sleep(0.01)
            snapshot = self.daemon.state()
        return snapshot

    def _resync(self) -> bool:
        """Off the script: back to the menu and on with a new game."""
        self.daemon.api("/api/command", {"name": "menu"})
        self.script.records.append(("menu",))
        self.script.expected.append(AT_MENU)
        self.acked, self.inflight = len(self.script.records) - 1, 1
        if not self._wait(AT_MENU):
            return False
        self._acknowledge()
        return True

    # -- playing the script ----------------------------------------------------------------------

    def _act(self, *, wait: bool) -> bool:
        """Do the next record's action; with ``wait``, until it is acknowledged."""
        if self.acked >= len(self.script.records):
            self.script.add_game(self.rng)
        if self._in_game() and self.rng.random() < ABANDON_SHARE:
            return self._abandon(wait=wait)
        record = self.script.records[self.acked]
        self.inflight = 1
        {"start": self._new_game, "place": self._place, "twist": self._twist, "menu": self._clear}[record[0]](record)
        if not wait:
            return True
        if not self._wait(self.script.expected[self.acked]):
            return False
        self._acknowledge()
        return True

    def _in_game(self) -> bool:
        return self.script.expected[self.acked - 1].state in ("awaiting_placement", "awaiting_twist")

    def _abandon(self, *, wait: bool) -> bool:
        """A new game in the middle of one: the daemon rewrites the journal twice (menu, then
        start; a kill between them leaves a journal of only the menu), then the old marbles
        come off the board."""
        board = self.script.expected[self.acked - 1].board
        del self.script.records[self.acked:], self.script.expected[self.acked:]
        self.script.records.append(("menu",))
        self.script.expected.append(AT_MENU)
        self.script.add_game(self.rng)
        self.inflight = 2
        self._new_game(("start",))
        self._lift_all(board)
        if not wait:
            return True
        if not self._wait(self.script.expected[self.acked + 1]):
            return False
        self._acknowledge(2)
        time.sleep(LOOK_S)  # the new game accepts no move until it has seen the board cleared
        return True

    def _acknowledge(self, records: int = 1) -> None:
        self.acked += records
        self.inflight = 0
        self.figures.acknowledged += records

    def _new_game(self, record: Record) -> None:
        self.daemon.api("/api/command", {"name": "new_game", "args": {"game": "classic"}})

    def _place(self, record: Record) -> None:
        self.daemon.api("/api/board/place", {"hole": record[1]})

    def _twist(self, record: Record) -> None:
        block, direction = int(record[1][:-1]), record[1][-1]
        self.daemon.api("/api/board/quarter", {"block": block, "clockwise": direction == "R"})

    def _clear(self, record: Record) -> None:
        self._lift_all(self.script.expected[self.acked - 1].board)

    def _lift_all(self, board: tuple[str, ...]) -> None:
        for rank, row in enumerate(board):
            for column, cell in enumerate(row):
                if cell != ".":
                    self.daemon.api("/api/board/lift", {"hole": f"{'abcdef'[column]}{6 - rank}"})

    def _wait(self, expected: Expected) -> bool:
        end = time.monotonic() + ACK_TIMEOUT_S
        while time.monotonic() < end:
            snapshot = self.daemon.state()
            if expected.seen_in(snapshot) and not snapshot.get("repair"):
                return True
            time.sleep(0.02)
        self.figures.unacknowledged += 1
        self.figures.problems.append(f"no acknowledgement of {expected} within {ACK_TIMEOUT_S} s; "
                                     f"state {self.daemon.state()}")
        return False


def _record(record: dict[str, Any]) -> Record:
    detail = record.get("hole") if record.get("kind") == "place" else record.get("twist")
    return (record["kind"],) + ((str(detail),) if detail is not None else ())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(n: int, seed: int, workdir: Path | None = None,
        progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """``n`` kills of a daemon playing scripted games from ``seed``; the figures as a dict.
    ``progress`` gets the figures so far every 50 kills."""
    figures = Figures()
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kill-resume-") as tmp:
        directory = Path(workdir or tmp)
        directory.mkdir(parents=True, exist_ok=True)
        session = Session(Daemon(directory), random.Random(seed), figures)
        try:
            while figures.kills < n:
                session.cycle()
                if progress is not None and figures.kills % 50 == 0:
                    figures.seconds = time.monotonic() - began
                    progress(figures.as_dict())
            # the last start, on what the last kill left: it must succeed too
            figures.starts += 1
            if not session.daemon.ready(session.daemon.spawn()):
                figures.failed_starts += 1
                figures.problems.append(f"final start failed:\n{session.daemon.log_tail()}")
        finally:
            session.daemon.kill()
    figures.seconds = time.monotonic() - began
    return figures.as_dict()


def _print_progress(figures: dict[str, Any]) -> None:
    shown = ("kills", "failed_starts", "lost", "duplicated", "invented", "seconds")
    print(" ".join(f"{name}={figures[name]}" for name in shown), file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="how many times to kill -9 the daemon (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the scripted games and kill times (default 0)")
    parser.add_argument("--workdir", type=Path, help="keep the journal and the daemon's log here")
    args = parser.parse_args()
    figures = run(args.n, args.seed, args.workdir, progress=_print_progress)
    problems = figures.pop("problems")
    for name, value in figures.items():
        print(f"{name:>16}: {value}")
    for problem in problems:
        print(f"problem: {problem}")


if __name__ == "__main__":
    main()
