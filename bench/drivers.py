"""Driver costs: LED frame processing and output, a GPIO matrix scan, virtual board verbs.

- frames: FrameProcessor.process for the A-6x6 and B-9x9 chains (median, p99 in microseconds,
  ratio 9x9 / 6x6), and NeoPixelOutput.show of a changed frame against an unchanged one
  (what change detection saves), on a PixelBuf whose wire is a list;
- gpio: one full matrix scan with debounce of the A-6x6 pins on gpiozero's MockFactory (the
  path without the Pi's chip; on a Pi the scan is KernelMatrix's twelve ioctls, measured in
  bench/pi_vm/build_a.py);
- virtual: a place + lift, and a quarter turn with 9 marbles, on the virtual 6x6 board.

Prints figures only; nothing is asserted. Usage: python bench/drivers.py [--rounds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from adafruit_pixelbuf import PixelBuf
from gpiozero.pins.mock import MockFactory

from controller.drivers.gpio import GpioInputs
from controller.drivers.neopixel import NeoPixelOutput
from controller.drivers.pixels import FrameProcessor
from controller.drivers.virtual import VirtualBoard
from controller.profile import load_profile


class ListStrip(PixelBuf):
    def __init__(self, n: int) -> None:
        super().__init__(n, byteorder="GRB", brightness=1.0, auto_write=False)
        self.sent = 0

    def _transmit(self, buffer: bytearray) -> None:
        self.sent += 1


def timings_us(action: Callable[[int], object], rounds: int) -> list[float]:
    out = []
    for i in range(rounds):
        start = time.perf_counter()
        action(i)
        out.append((time.perf_counter() - start) * 1e6)
    return sorted(out)


def report(name: str, times: list[float]) -> float:
    median = statistics.median(times)
    print(f"{name:<40} {median:>10.1f} {times[int(0.99 * (len(times) - 1))]:>10.1f}")
    return median


def random_frames(n: int, count: int) -> list[list[tuple[int, int, int]]]:
    rng = random.Random(1)
    return [[tuple(rng.randrange(256) for _ in range(3)) for _ in range(n)] for _ in range(count)]


def bench_frames(rounds: int) -> None:
    medians = {}
    for name in ("A-6x6", "B-9x9"):
        leds = load_profile(name).leds
        processor = FrameProcessor.from_chain(leds)
        frames = random_frames(leds.length, 64)
        medians[name] = report(f"process {name} ({leds.length} px)",
                               timings_us(lambda i: processor.process(frames[i % 64]), rounds))
        output = NeoPixelOutput(ListStrip(leds.length), processor)
        changed = report(f"show changed {name}", timings_us(lambda i: output.show(frames[i % 64]), rounds))
        same = report(f"show unchanged {name}", timings_us(lambda i: output.show(frames[0]), rounds))
        print(f"  changed / unchanged show: {changed / same:.1f}x")
    print(f"  process 9x9 / 6x6: {medians['B-9x9'] / medians['A-6x6']:.2f}x")


def bench_gpio(rounds: int) -> None:
    profile, factory = load_profile("A-6x6"), MockFactory()
    driver = GpioInputs(6, profile.gpio, profile.buttons, scan_interval_ms=None, pin_factory=factory)
    driver.start(lambda event: None)
    report("gpio scan A-6x6 on MockFactory", timings_us(lambda i: driver.scan(), rounds))
    driver.stop()


def bench_virtual(rounds: int) -> None:
    board = VirtualBoard(6, detents_per_quarter=6)
    board.start(lambda event: None)
    report("virtual place + lift", timings_us(lambda i: (board.place(i % 36), board.lift(i % 36)), rounds))
    for hole in (0, 1, 2, 6, 7, 8, 12, 13, 14):
        board.place(hole)
    report("virtual quarter turn, 9 marbles", timings_us(lambda i: board.quarter(3, True), rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    rounds = parser.parse_args().rounds
    print(f"{'':<40} {'median us':>10} {'p99 us':>10}")
    bench_frames(rounds)
    bench_gpio(rounds)
    bench_virtual(rounds)


if __name__ == "__main__":
    main()
