"""Render, journal and tape costs: the pieces the core's event-to-frame path leans on.

- render: one frame per scene on the virtual 6x6 and 9x9 chains (median and p99 in microseconds);
- journal: one durable append (write + fsync), median and p99 in milliseconds, and the ratio of a
  durable append to a plain buffered write of the same line (what durability costs);
- tape: events per second read and validated from a long noisy tape, and recorded.

Prints figures only; nothing is asserted. Usage: python bench/render_journal_tape.py [--rounds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from controller.board import Step
from controller.events import EncoderSteps, HoleReading
from controller.journal import Journal, encode_record
from controller.lights.render import render
from controller.lights.scenes import (
    draw_scene, menu_scene, overlay, prompt_scene, repair_scene, score_scene, turn_scene, win_scene,
)
from controller.profile import load_profile
from controller.rules import Twist
from controller.tape import TapeHeader, TapeRecorder, read_tape


def timings(action: Callable[[int], object], rounds: int) -> list[float]:
    """Seconds per call of ``action(i)``, one sample per round."""
    samples = []
    for i in range(rounds):
        start = time.perf_counter()
        action(i)
        samples.append(time.perf_counter() - start)
    return samples


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def scenes(size: int) -> dict[str, object]:
    last = size * size - 1
    return {
        "turn": turn_scene("white"),
        "prompt": overlay(turn_scene("black"), prompt_scene(14, Twist(1, True))),
        "repair": repair_scene([Step("remove", 3), Step("put", 9, colour="black"),
                                Step("turn", block=2, clockwise=False)]),
        "win": overlay(win_scene([tuple(range(5)), tuple(range(0, 5 * size, size))], "black"),
                       score_scene(["white", "black"])),
        "draw": draw_scene(),
        "menu": menu_scene(range(last - 5, last + 1), selected=[last]),
    }


def bench_render(rounds: int) -> None:
    print("render: one frame (microseconds)")
    for name in ("virtual-6x6", "virtual-9x9"):
        profile = load_profile(name)
        chain = profile.leds
        for scene, view in scenes(profile.size).items():
            samples = timings(lambda i: render(view, chain, i * 0.013), rounds)  # noqa: B023
            print(f"  {name:12} {scene:7} median {statistics.median(samples) * 1e6:7.1f}"
                  f"  p99 {p99(samples) * 1e6:7.1f}  ({chain.length} pixels)")


def bench_journal(rounds: int, directory: Path) -> None:
    record = {"kind": "twist", "block": 4, "clockwise": True, "t": 12.5, "seat": 1}
    with Journal(directory / "bench.journal") as journal:
        durable = timings(lambda i: journal.append(record), rounds)
    with open(directory / "plain.jsonl", "ab") as plain:
        buffered = timings(lambda i: plain.write(encode_record(record)), rounds)
    print(f"journal: durable append median {statistics.median(durable) * 1e3:.3f} ms"
          f"  p99 {p99(durable) * 1e3:.3f} ms"
          f"  ({statistics.median(durable) / statistics.median(buffered):.0f}x a buffered write)")


def noisy_events(count: int, seed: int = 3) -> list[object]:
    rng, t, events = random.Random(seed), 0.0, []
    for _ in range(count):
        t += rng.expovariate(50.0)
        if rng.random() < 0.8:
            events.append(HoleReading(t, rng.randrange(36), rng.choice(("empty", "marble"))))
        else:
            events.append(EncoderSteps(t, rng.randrange(1, 5), rng.choice((-1, 1))))
    return events


def bench_tape(count: int, directory: Path) -> None:
    path, events = directory / "noisy.tape", noisy_events(count)
    start = time.perf_counter()
    with TapeRecorder(path, TapeHeader(6, "presence", 6)) as recorder:
        for event in events:
            recorder.record(event)  # type: ignore[arg-type]
    recorded = time.perf_counter() - start
    start = time.perf_counter()
    tape = read_tape(path)
    read = time.perf_counter() - start
    assert len(tape.events) == count  # a sanity check of the run, not a timing assertion
    print(f"tape: {count} events recorded at {count / recorded:,.0f}/s (flushed per line),"
          f" read and validated at {count / read:,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    bench_render(args.rounds)
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as directory:  # the disk, not a tmpfs
        bench_journal(min(args.rounds, 500), Path(directory))
        bench_tape(args.rounds * 25, Path(directory))


if __name__ == "__main__":
    main()
