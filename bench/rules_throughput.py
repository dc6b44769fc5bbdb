"""Rules throughput: legal moves generated and the resulting positions checked for five.

Runs the bitboard engine and the plain 2-D list reference (tests/rules/naive.py) on the same
random mid-game positions in the same process, and prints the median rate of each and their
ratio. Usage: python bench/rules_throughput.py [--rounds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "rules"))

import naive  # noqa: E402

from controller.rules import ClassicGame, MultiplayerGame, PlaceTwistGame  # noqa: E402

BOARDS = (  # label, a new game, positions, stones on each
    ("6x6", lambda: ClassicGame(size=6), 20, 14),
    ("9x9", lambda: ClassicGame(size=9), 6, 30),
    ("9x9 mp3", lambda: MultiplayerGame(players=3), 6, 30),  # multiplayer, 3 colours, clockwise only
)


def random_games(new: Callable[[], PlaceTwistGame], count: int, stones: int, seed: int = 7) -> list[PlaceTwistGame]:
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        game = new()
        for _ in range(stones):
            moves = [m for m in game.legal_moves() if m.twist]
            game.push(rng.choice(moves))
            if game.is_over():
                break
        if not game.is_over():
            games.append(game)
    return games


def fast_children(game: PlaceTwistGame) -> int:
    """Every legal move, applied, with every colour checked for five. Returns the move count."""
    g, position = game.geometry, game.position
    checked = 0
    for move in game.legal_moves():
        stones = list(position.stones)
        stones[game.colour] |= 1 << move.hole
        if move.twist:
            stones = [g.rotate(s, move.twist.block, move.twist.clockwise) for s in stones]
        for s in stones:
            g.has_five(s)
        checked += 1
    return checked


def naive_children(game: PlaceTwistGame) -> int:
    board = naive.board_of(game.position)
    return len(naive.children(board, game.colour, game.colours))


def rate(work, games, rounds: int) -> float:
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        done = sum(work(game) for game in games)
        rates.append(done / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{'board':8} {'engine moves/s':>15} {'naive moves/s':>14} {'ratio':>7}")
    for label, new, count, stones in BOARDS:
        games = random_games(new, count, stones)
        fast = rate(fast_children, games, args.rounds)
        slow = rate(naive_children, games, max(1, args.rounds // 2))
        print(f"{label:8} {fast:15,.0f} {slow:14,.0f} {fast / slow:6.1f}x")


if __name__ == "__main__":
    main()
