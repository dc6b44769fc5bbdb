"""Benchmark: event to LED frame through the real core, and the core's events per second.

Runs every recorded tape in tests/data/tapes through a fresh :class:`controller.core.Core`
(the same way ``pentago-board replay`` does: events at their times, Ticks at the deadlines the
core asks for) and times each ``Core.handle`` call, which is the whole path from an event taken
off the queue to the frame handed to the LED driver. Prints medians, p99 and the rate; asserts
nothing (timings belong here, not in tests).

    .venv/bin/python bench/core_latency.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from controller.commands.replay import core_for, start
from controller.events import Tick
from controller.tape import read_tape

TAPES = Path(__file__).resolve().parents[1] / "tests" / "data" / "tapes"


def run(tape) -> tuple[list[float], list[float], list[float], int]:
    """Per-call seconds for all handles, for those that judged the board, and those that made a frame."""
    core = core_for(tape.header)
    start(core, tape.header)
    every, judging, framing = [], [], []
    clock = time.perf_counter

    def timed(event) -> None:
        pending = core.physical.changed_t is not None
        began = clock()
        effects = core.handle(event)
        spent = clock() - began
        every.append(spent)
        if pending and core.physical.changed_t is None:
            judging.append(spent)
        if effects.frame is not None:
            framing.append(spent)

    for event in tape.events:
        while (deadline := core.next_deadline()) is not None and deadline < event.t:
            timed(Tick(deadline))
        timed(event)
    return every, judging, framing, len(tape.events)


def describe(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"{name:28} n={len(ordered):6}  median {statistics.median(ordered) * 1e6:7.1f} us  "
            f"p99 {p99 * 1e6:7.1f} us  max {ordered[-1] * 1e6:7.1f} us")


def p99(seconds: list[float]) -> float:
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="times each tape is replayed")
    rounds = parser.parse_args().rounds
    tapes = [read_tape(path) for path in sorted(TAPES.glob("*.jsonl"))]
    every, judging, framing, inputs, round_p99 = [], [], [], 0, []
    for _ in range(rounds):
        frames_this_round = []
        for tape in tapes:
            e, j, f, n = run(tape)
            every += e
            judging += j
            framing += f
            frames_this_round += f
            inputs += n
        round_p99.append(p99(frames_this_round))
    print(f"{len(tapes)} tapes x {rounds} rounds: {inputs} tape events, {len(every)} core calls (events + ticks)")
    print(describe("every event or tick", every))
    print(describe("events that made a frame", framing))
    print(describe("settled-board judgements", judging))
    busy = sum(every)
    print(f"core throughput: {len(every) / busy:,.0f} calls/s, {inputs / busy:,.0f} tape events/s (busy time)")
    best, typical = min(round_p99), statistics.median(round_p99)
    target = 1e-3
    print(f"p99 event->frame per round: best {best * 1e3:.3f} ms, median {typical * 1e3:.3f} ms; "
          f"target {target * 1e3:.1f} ms, ratio {typical / target:.2f} (other load on the machine shows as spread)")


if __name__ == "__main__":
    main()
