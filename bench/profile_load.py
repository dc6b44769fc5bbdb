"""Profile loading: the time to read and validate each shipped hardware profile.

Loading happens once at daemon start and on every `pentago-board profile` run; this shows what
it costs and how it grows from 6x6 to 9x9 (ratio of medians). Usage:
python bench/profile_load.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from controller.profile import load_profile, shipped_profiles


def timings_ms(name: str, rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        load_profile(name)
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    rounds = parser.parse_args().rounds
    medians = {}
    print(f"{'profile':<12} {'median ms':>10} {'p99 ms':>8}")
    for name in shipped_profiles():
        times = timings_ms(name, rounds)
        medians[name] = statistics.median(times)
        print(f"{name:<12} {medians[name]:>10.3f} {times[int(0.99 * (len(times) - 1))]:>8.3f}")
    for small, large in (("B-6x6", "B-9x9"), ("virtual-6x6", "virtual-9x9")):
        print(f"{large} / {small}: {medians[large] / medians[small]:.2f}x")


if __name__ == "__main__":
    main()
