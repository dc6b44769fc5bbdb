"""Benchmark: how soon build B answers a hand, end to end on the emulated Pico (issue 23).

Run: .venv/bin/python bench/firmware_feedback.py [--moves N] [--seed S] [--detent-ms MS]
(needs the UF2 in firmware/micropython/ (or PENTAGO_PICO_UF2) and `npm ci --prefix tests/firmware/pico`)

The firmware as `firmware flash` lays it out boots on MicroPython's own RP2040 build in the
emulated Pico (tests/firmware/pico, batch mode: every time is emulated and repeats run to run),
on a simulated board of Hall sensors (their noise included). A random legal classic game is
played on it: each marble put down at a known instant, each twist a block turned detent by
detent (``--detent-ms`` apart, four encoder edges a detent) with its marbles landing at the last
edge. Every frame the Pico sends goes, at its emulated time, through the Pi's own mirror of the
MCU (controller/drivers/link/mirror.py) into a :class:`controller.core.Core` of the B-6x6
profile, ticked at its deadlines as the runtime ticks it. Per placement and per twist:

- *firmware*: from the marble landing (the twist's last edge) to the last frame reporting it
  (for a twist, the last of its block's holes);
- *end to end*: from the same instant to the core's acceptance of the half-move (what the LEDs
  answer once the journal has it; USB and the Pi's serial code add about a millisecond).

Median, p99 and max in emulated ms; the goal is 100 ms end to end. What the firmware's share was
before issue 23 and what set the host's: firmware/README.md and bench/feedback.py.

Figures (``--moves 24``; ``--detent-ms 35``, and 70 in brackets where it differs)::

    placement firmware     n= 24  median   26.8 ms  p99   31.4 ms (31.0)  max   31.4 ms (31.0)
    placement end to end   n= 24  median   76.8 ms  p99   81.4 ms (81.0)  max   81.4 ms (81.0)
    twist firmware         n= 17  median   39.4 ms (39.2)  p99   43.8 ms (44.0)  max   43.8 ms (44.0)
    twist end to end       n= 19  median   89.3 ms (88.5)  p99   93.8 ms (94.0)  max   93.8 ms (94.0)

(twists of an empty block move no marble: no frame for the firmware's row, a twist all the
same for the core's). Before issue 23 the firmware alone took 31-40 ms to a marble and 113-122
ms to a twist's marbles, and the core waited 150 ms and 400 ms on top.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "firmware" / "pico"))

from pico import Pico, missing  # noqa: E402  (puts firmware/ on the path)
import wire  # noqa: E402, I001

from bench.robustness.noisy_games import random_game  # noqa: E402
from controller.commands.replay import tick_until  # noqa: E402
from controller.core import Core  # noqa: E402
from controller.drivers.link.mirror import BoardMirror  # noqa: E402
from controller.events import Command  # noqa: E402
from controller.profile import load_profile  # noqa: E402
from controller.rules import geometry, parse_move  # noqa: E402

EDGES_PER_DETENT = 4  # board.json's counts_per_detent
POLES = (wire.NORTH, wire.SOUTH)  # seat 1's white marbles north up, seat 2's black south up


class Rig:
    """The emulated Pico, the Pi's mirror of it and a core, fed in emulated time."""

    def __init__(self, pico: Pico) -> None:
        self.pico = pico
        self.profile = load_profile("B-6x6")
        self.mirror = BoardMirror(6, self.profile.colours)
        self.read = len(pico.messages())
        self.core = Core(self.profile, start_time=self.now())
        self.records: list[dict[str, Any]] = list(self.core.handle(Command(self.now(), "new_game", {"game": "classic"})).records)

    def now(self) -> float:
        return self.pico.stats()["ns"] / 1e9

    def run(self, ms: float) -> list[Any]:
        """Run the chip ``ms``; feed the core what it said meanwhile; the new frames."""
        self.pico.run(ms)
        frames = self.pico.messages()[self.read:]
        self.read += len(frames)
        for frame in frames:
            t = frame.ns / 1e9
            if frame.name == "hole":
                self._feed(self.mirror.apply_hole(t, frame.fields["hole"], frame.fields["cls"]))
            elif frame.name == "encoder":
                self._feed(self.mirror.apply_encoder(t, frame.fields["block"], frame.fields["steps"]))
        self._feed([])
        return frames

    def _feed(self, events: list[Any]) -> None:
        for event in events:
            self.records += [r for e in tick_until(self.core, event.t, False) for r in e.records]
            self.records += self.core.handle(event).records
        if not events:
            self.records += [r for e in tick_until(self.core, self.now(), False) for r in e.records]

    def accepted(self, kind: str, since: float) -> float | None:
        return next((r["t"] for r in self.records if r["kind"] == kind and r["t"] >= since), None)


def play(moves: list[str], detent_ms: float, rng: random.Random) -> dict[str, list[float]]:
    """Play ``moves`` on the emulated board, each gesture at a random moment of the scan; the
    latencies (ms) by kind."""
    g = geometry(6)
    out: dict[str, list[float]] = {"placement firmware": [], "placement end to end": [],
                                   "twist firmware": [], "twist end to end": []}
    with Pico(6) as pico:
        pico.wait_for("hello", limit_ms=5000, run_ms=5)
        rig = Rig(pico)
        rig.run(500)
        for number, text in enumerate(moves):
            move = parse_move(text, g)
            rig.run(rng.uniform(0, 10))  # anywhere in the scan's 10 ms
            landed = rig.now()
            pico.place(move.hole, POLES[number % 2])
            frames = rig.run(120)
            _note(out, "placement", landed, [f for f in frames if f.name == "hole" and f.fields["hole"] == move.hole],
                  rig.accepted("place", landed))
            if move.twist is None:
                continue
            rig.run(rng.uniform(0, 10))
            began = rig.now()
            way = 1 if move.twist.clockwise else -1
            last = began + pico.turn(move.twist.block, way * 6, way, edge_ms=detent_ms / EDGES_PER_DETENT) / 1000
            frames = rig.run((last - began) * 1000 + 300)
            holes = set(g.block_holes[move.twist.block - 1])
            _note(out, "twist", last, [f for f in frames if f.name == "hole" and f.fields["hole"] in holes],
                  rig.accepted("twist", last))
            rig.run(200)
        if rig.core.flow.move_texts() != moves[:len(rig.core.flow.move_texts())] or len(rig.core.flow.move_texts()) != len(moves):
            print(f"the core read {rig.core.flow.move_texts()} for {moves}", file=sys.stderr)
    return out


def _note(out: dict[str, list[float]], kind: str, at: float, frames: list[Any], accepted: float | None) -> None:
    if frames:
        out[f"{kind} firmware"].append(max(f.ns for f in frames) / 1e6 - at * 1000)
    if accepted is not None:
        out[f"{kind} end to end"].append((accepted - at) * 1000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=16, help="moves of the game played (default 16)")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    parser.add_argument("--detent-ms", type=float, default=50.0, help="ms between two detents of a twist (default 50)")
    args = parser.parse_args(argv)
    reason = missing()
    if reason:
        print(f"skipped: {reason}")
        return 0
    rng = random.Random(args.seed)
    moves = random_game(rng)[:args.moves]
    for name, values in play(moves, args.detent_ms, rng).items():
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")
        median = statistics.median(ordered) if ordered else float("nan")
        print(f"{name:<22} n={len(ordered):>3}  median {median:6.1f} ms  p99 {p99:6.1f} ms  "
              f"max {max(ordered, default=float('nan')):6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
