"""Picture-Puzzle referee: a whole round (k removals and twists, k place-twist pairs, the judge)
on every picture of the library, against a plain 2-D list referee doing the same steps.

The plain referee is the property test's (tests/rules/puzzle/test_properties.py: a 2-D board
turned cell by cell, compared hole by hole). Prints the median microseconds per round of each
at k = 1 and k = 4, and their ratio. Usage: python bench/puzzle_referee.py [--rounds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.rules.notation import Twist  # noqa: E402
from controller.rules.puzzle.pictures import Picture, library_names, library_picture  # noqa: E402
from controller.rules.puzzle import PuzzleGame, PuzzleOptions  # noqa: E402
from controller.rules.puzzle.notation import Step  # noqa: E402
from tests.rules.puzzle.test_properties import plain_board, undoing  # noqa: E402


def round_steps(picture: Picture, k: int, rng: random.Random) -> list[Step]:
    """A dismantle of k random removals and twists, and the restore that undoes it."""
    g, position = picture.position.geometry, picture.position
    dismantle = []
    for kind in rng.sample(["remove"] * k + ["twist"] * k, 2 * k):
        if kind == "remove":
            hole = rng.choice([h for h in range(g.hole_count) if position.colour_at(h) is not None])
            dismantle.append(Step.remove(hole))
            position = position.lift(hole)
        else:
            twist = Twist(rng.randrange(1, g.block_count + 1), rng.random() < 0.5)
            dismantle.append(Step.turn(twist))
            position = position.rotate(twist.block, twist.clockwise)
    return dismantle + undoing(picture, dismantle)


def ours(picture: Picture, k: int, steps: list[Step]) -> None:
    game = PuzzleGame(picture, PuzzleOptions(players=2, start_k=k))
    for step in steps:
        game.push(step)
    assert game.rounds[-1].passed


def plain(picture: Picture, k: int, steps: list[Step]) -> None:
    n = picture.size
    board = plain_board(picture, steps)
    assert all(board[r][c] == picture.position.colour_at(r * n + c) for r in range(n) for c in range(n))


def median_us(referee, rounds: list[tuple[Picture, int, list[Step]]], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for picture, k, steps in rounds:
            referee(picture, k, steps)
        times.append((time.perf_counter() - start) / len(rounds) * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed repeats (median of them)")
    args = parser.parse_args()
    rng = random.Random(12)
    pictures = [library_picture(name, size) for size in (9, 6) for name in library_names(size)]
    for k in (1, 4):
        rounds = [(p, k, round_steps(p, k, rng)) for p in pictures for _ in range(10)]
        a, b = median_us(ours, rounds, args.rounds), median_us(plain, rounds, args.rounds)
        print(f"k={k}: referee {a:8.1f} us/round, plain 2-D board {b:8.1f} us/round, ratio {b / a:4.2f}x "
              f"({len(rounds)} rounds on {len(pictures)} pictures)")


if __name__ == "__main__":
    main()
