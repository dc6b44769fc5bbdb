"""Robustness: a real daemon behind a flooding, lying or unservable board MCU, and its stop time.

``pentago-board run`` on build B's profile (its port a pty, its LEDs virtual, its buttons on
gpiozero's mock pins) talks to the fake MCU of the tests (tests/drivers/fake_mcu.py), which
keeps a board behind it and answers ``connect`` and ``request_snapshot`` from it. Then:

1. hole floods: ``--toggles`` hole events as fast as the pty takes them (marbles flickering on
   every hole), twice: once to time how long until the page shows the board as it ends
   (``drain_s``), once followed at once by SIGTERM (``stop_s``: the queue left behind must not
   hold the stop, the unit gives it 10 s);
2. impossible counts: a classic game, a marble placed on a6 (block 1), then on the empty block
   2 (whose readings fit any turn) one encoder event of 32767, 3006, 2406 or -1206 detents, or
   a snapshot whose count jumps by 2^31-1; or block 2 turned a quarter for real, the next
   marble placed, and that turn's old frame replayed while the snapshot answer comes 0.6 s
   late; counts the twists the referee accepted that nobody made (must be 0);
3. bad hellos (empty, 1 byte, 7 bytes, protocol 2, a 9x9 size, a firmware name that is not
   UTF-8): how long until the page says what is wrong (``said_s``), how often the daemon
   reopened the port and asked again in ``--watch-s`` seconds, how many log lines said it, and
   the SIGTERM stop time.

    .venv/bin/python bench/robustness/link_floods.py [--toggles 20000] [--watch-s 5]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pentago_firmware import wire  # noqa: E402
from tests.daemon.daemon_proc import DaemonProcess  # noqa: E402
from tests.drivers.fake_mcu import FakeMcu  # noqa: E402

HOLES, BLOCKS = 36, 4
CAPS = wire.CAP_POLARITY | wire.CAP_ENCODERS
GOOD_HELLO = wire.pack_hello(6, CAPS, wire.RESET_POWER_ON, 0x1234ABCD, "0.1.0-flood")
BAD_HELLOS = {
    "empty": b"", "1 byte": b"\x01", "7 bytes": GOOD_HELLO[:7],
    "protocol 2": wire.pack_hello(6, CAPS, wire.RESET_POWER_ON, 7, "9.0", protocol=2),
    "9x9 on 6x6": wire.pack_hello(9, CAPS, wire.RESET_POWER_ON, 7, "0.1.0"),
    "firmware not UTF-8": GOOD_HELLO[:8] + b"\xff\xfe",
}
IMPOSSIBLE = (32767, 3006, 2406, -1206)
A6, F1 = 30, 5  # holes a6 (row 6, column a: block 1, top left) and f1 (block 4, bottom right)


class Board:
    """What the fake MCU believes: every hole's class and every block's count."""

    def __init__(self, mcu: FakeMcu, hello: bytes = GOOD_HELLO) -> None:
        self.mcu, self.hello = mcu, hello
        self.classes, self.counts = [wire.EMPTY] * HOLES, [0] * BLOCKS
        self.next_snapshot_late_s = 0.0  # how late the next snapshot asked for is answered
        mcu.answer(wire.CONNECT, lambda seq, fields: [
            wire.encode_frame(wire.HELLO, self._seq(), self.hello), *self.snapshot()])
        mcu.answer(wire.REQUEST_SNAPSHOT, lambda seq, fields: self._late_snapshot())

    def _seq(self) -> int:
        seq, self.mcu.seq = self.mcu.seq, (self.mcu.seq + 1) & 0xFF
        return seq

    def snapshot(self) -> list[bytes]:
        return [self.mcu.snapshot(list(self.classes), list(self.counts))]

    def _late_snapshot(self) -> list[bytes]:
        late_s, self.next_snapshot_late_s = self.next_snapshot_late_s, 0.0
        time.sleep(late_s)  # the answer comes late (the fake's thread waits)
        return self.snapshot()

    def hole(self, hole: int, cls: int) -> bytes:
        self.classes[hole] = cls
        return self.mcu.hole(hole, cls)

    def encoder(self, block: int, steps: int, counted: bool = True) -> bytes:
        if counted:
            self.counts[block - 1] = wire.wrap_count(self.counts[block - 1] + steps)
        return self.mcu.encoder(block, steps)


def profile_file(directory: Path, port: str) -> Path:
    """Build B's profile with the fake's port, virtual LEDs (no SPI here) and mock button pins."""
    text = (ROOT / "hardware" / "profiles" / "B-6x6.toml").read_text()
    text = text.replace('port = "/dev/pentago-mcu"', f"port = {json.dumps(port)}")
    text = text.replace('driver = "spi"\npin = 10\n', 'driver = "virtual"\n').replace('name = "B-6x6"', 'name = "B-6x6-bench"')
    path = directory / "bench-B-6x6.toml"
    path.write_text(text)
    return path


class Rig:
    """A daemon on build B's profile and the fake MCU behind its port."""

    def __init__(self, directory: Path, hello: bytes = GOOD_HELLO) -> None:
        directory.mkdir()
        self.mcu = FakeMcu(directory)
        self.board = Board(self.mcu, hello)
        os.environ["GPIOZERO_PIN_FACTORY"] = "mock"  # the buttons' pins (the child inherits it)
        self.daemon = DaemonProcess(directory, profile=str(profile_file(directory, self.mcu.port)), watchdog_usec=0)
        self.started = time.monotonic()
        self.daemon.start().ready()

    def state(self) -> dict[str, Any]:
        return self.daemon.state()

    def wait(self, predicate: Callable[[dict[str, Any]], bool], timeout_s: float = 30.0) -> float | None:
        """Seconds until the page's state matches, or None."""
        began = time.monotonic()
        while time.monotonic() - began < timeout_s:
            if predicate(self.state()):
                return time.monotonic() - began
            time.sleep(0.02)
        return None

    def stop(self) -> float:
        began = time.monotonic()
        self.daemon.signal(signal.SIGTERM)
        assert self.daemon.wait(60) == 0, self.daemon.log
        return time.monotonic() - began

    def close(self) -> None:
        self.daemon.close()
        self.mcu.close()


def physical_is(board: Board) -> Callable[[dict[str, Any]], bool]:
    """The page's physical rows (top first) show ``board``'s marbles."""
    def check(state: dict[str, Any]) -> bool:
        rows = state.get("physical") or []
        cells = [c for row in reversed(rows) for c in row]
        return state.get("link") is True and len(cells) == HOLES and all(
            (cell != ".") == (cls != wire.EMPTY) for cell, cls in zip(cells, board.classes))
    return check


def flood(rig: Rig, toggles: int) -> float:
    """``toggles`` hole events over every hole; seconds the pty took them."""
    began = time.monotonic()
    with rig.mcu.lock:
        frames = [rig.board.hole(n % HOLES, wire.NORTH if (n // HOLES) % 2 == 0 else wire.EMPTY)
                  for n in range(toggles)]
        for start in range(0, len(frames), 512):
            rig.mcu.send(*frames[start:start + 512])
    return time.monotonic() - began


def hole_floods(directory: Path, toggles: int) -> dict[str, Any]:
    rig = Rig(directory / "floods")
    try:
        assert rig.wait(physical_is(rig.board)) is not None, "the link never came up"
        began = time.monotonic()
        sent_s = flood(rig, toggles)
        drained = rig.wait(physical_is(rig.board), 120.0) is not None
        drain_s = time.monotonic() - began
        flood(rig, toggles)
        stop_s = rig.stop()
    finally:
        rig.close()
    return {"toggles": toggles, "sent_s": round(sent_s, 2), "drained": drained, "drain_s": round(drain_s, 2),
            "stop_s": round(stop_s, 2)}


def impossible_counts(directory: Path, only: tuple[str, ...] = ()) -> dict[str, Any]:
    """Each lie (``only`` those named, when given) after a marble is placed on a6; the twists the
    referee accepted that nobody made."""
    rig = Rig(directory / "impossible")
    twists: dict[str, int] = {}
    try:
        assert rig.wait(physical_is(rig.board)) is not None, "the link never came up"
        cases: list[tuple[str, Callable[[], int]]] = [
            (f"event {steps:+d}", lambda s=steps: _send(rig, lambda: [rig.board.encoder(2, s, counted=False)]))
            for steps in IMPOSSIBLE]
        cases.append(("snapshot jump 2^31-1", lambda: _snapshot_jump(rig)))
        cases.append(("replayed frame, snapshot 0.6 s late", lambda: _replay(rig)))
        for name, lie in [(name, lie) for name, lie in cases if not only or name in only]:
            rig.daemon.api("/api/command", {"name": "new_game", "args": {"game": "classic"}})
            rig.wait(lambda s: s["state"] == "awaiting_placement" and not s["moves"])
            _send(rig, lambda: [rig.board.hole(A6, wire.NORTH)])
            rig.wait(lambda s: s["state"] == "awaiting_twist")
            made = lie()  # the twists really made on the way
            time.sleep(2.5)  # settle, twist settle and a late snapshot, twice over
            twists[name] = sum(" " in move for move in rig.state()["moves"]) - made
            _send(rig, lambda: [rig.board.hole(A6, wire.EMPTY), rig.board.hole(F1, wire.EMPTY),
                                *rig.board.snapshot()])  # the board cleared for the next case
            rig.wait(physical_is(rig.board))
        stop_s = rig.stop()
    finally:
        rig.close()
    return {"cases": len(twists), "twists_accepted": sum(twists.values()), "by_case": twists, "stop_s": round(stop_s, 2)}


def _send(rig: Rig, frames: Callable[[], list[bytes]]) -> int:
    """Build and send frames as one (the fake's own answers wait); no twist made."""
    with rig.mcu.lock:
        rig.mcu.send(*frames())
    return 0


def _snapshot_jump(rig: Rig) -> int:
    rig.board.counts[1] = wire.wrap_count(rig.board.counts[1] + 2**31 - 1)
    return _send(rig, rig.board.snapshot)


def _replay(rig: Rig) -> int:
    """A real quarter turn of block 2 ends the first move; once the next marble is down, that
    turn's frame comes again (its old seq) and the snapshot asked for comes 0.6 s late."""
    with rig.mcu.lock:
        turn = rig.board.encoder(2, 6)
        rig.mcu.send(turn)
    rig.wait(lambda s: len(s["moves"]) == 1 and s["state"] == "awaiting_placement")
    _send(rig, lambda: [rig.board.hole(F1, wire.SOUTH)])
    rig.wait(lambda s: s["state"] == "awaiting_twist")
    rig.board.next_snapshot_late_s = 0.6
    _send(rig, lambda: [turn])
    return 1


def bad_hello(directory: Path, name: str, watch_s: float) -> dict[str, Any]:
    rig = Rig(directory / f"hello-{len(name)}-{abs(hash(name)) % 1000}", BAD_HELLOS[name])
    try:
        said_s = rig.wait(lambda s: bool(s.get("link_problem")), 30.0)
        problem = rig.state().get("link_problem")
        time.sleep(watch_s)
        connects = sum(mtype == wire.CONNECT for mtype, _, _ in rig.mcu.received)
        lines = sum(1 for line in rig.daemon.log.splitlines() if problem and problem[:40] in line and "board MCU link down" in line)
        stop_s = rig.stop()
    finally:
        rig.close()
    return {"hello": name, "said_s": None if said_s is None else round(said_s, 2), "connects": connects,
            "log_lines": lines, "stop_s": round(stop_s, 2), "problem": problem}


def run(toggles: int = 20000, watch_s: float = 5.0, hellos: tuple[str, ...] = tuple(BAD_HELLOS),
        lies: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every attack (``lies``: only the impossible counts named, when given)."""
    with tempfile.TemporaryDirectory(prefix="link-floods-") as tmp:
        directory = Path(tmp)
        figures: dict[str, Any] = {"floods": hole_floods(directory, toggles),
                                   "impossible": impossible_counts(directory, lies)}
        figures["bad_hellos"] = [bad_hello(directory, name, watch_s) for name in hellos]
    stops = [figures["floods"]["stop_s"], *(h["stop_s"] for h in figures["bad_hellos"])]
    figures["stop_s"] = {"median": round(statistics.median(stops), 2), "max": max(stops)}
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--toggles", type=int, default=20000, help="hole events per flood (default 20000)")
    parser.add_argument("--watch-s", type=float, default=5.0, help="seconds to watch each bad hello (default 5)")
    args = parser.parse_args()
    figures = run(args.toggles, args.watch_s)
    print(json.dumps(figures, indent=2))
    failed = figures["impossible"]["twists_accepted"] or any(
        h["said_s"] is None or h["connects"] < 2 for h in figures["bad_hellos"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
