"""Each level of the computer opponent against a 1-ply greedy player: win, draw and loss shares.

The greedy player stands in for a young child who has learnt the rules: it takes a five when it
can, otherwise plays the move whose position scores best by the static evaluation right after
it (one ply; ties broken by its seeded random number generator), without looking at the reply.
Each game starts with two uniformly random plies (seeded), then the level and greedy alternate;
the level plays x (moves first) in even-numbered games and o in odd ones. Levels 2 and 3 search
to their default node budgets (the daemon gives them a deadline instead), so runs repeat exactly.
Shares are from the level's view; seconds are CPU seconds per move of the level (median, p90).

Usage: python bench/ai_levels.py [--games N] [--levels 0 1 2]

Measured on one core of the shared 2-core development machine (40 games per level, 12 for
level 3, which takes about 5 minutes alone):

    level   games   win%  draw%  loss%  median s   p90 s  moves
    0          40   27.5    0.0   72.5    0.0063  0.0087    167
    1          40   57.5    0.0   42.5    0.0064  0.0089    155
    2          40   97.5    0.0    2.5    0.3927  0.5003    243
    3          12   91.7    0.0    8.3    1.5799  2.2339     57

The beginner (level 0) loses almost three games in four to the greedy player; level 1 about
even; levels 2 and 3 win nearly all (at the Pi's deadline they search about as deep as here at
their node budgets).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from controller.ai import choose_move
from controller.ai.evaluate import evaluate
from controller.ai.moves import DRAW, LOSS, WIN, expand
from controller.ai.player import to_move
from controller.ai.tables import search_tables
from controller.rules import ClassicGame, Move

OPENING_PLIES = 2


def greedy_move(game: ClassicGame, rng: random.Random) -> Move:
    """A five now if there is one, else the best static evaluation one ply ahead."""
    stones = game.position.stones
    me, opp = stones[game.colour], stones[1 - game.colour]
    tables = search_tables(game.geometry.size)
    best, picks = None, []
    for hole, t, after_me, after_opp, result in expand(me, opp, tables):
        if result == WIN:
            return to_move(game, hole, t)
        score = -(10**9) if result == LOSS else 0 if result == DRAW else -evaluate(after_opp, after_me, tables)
        if best is None or score > best:
            best, picks = score, [(hole, t)]
        elif score == best:
            picks.append((hole, t))
    return to_move(game, *rng.choice(picks))


def play(level: int, seed: int) -> tuple[int, list[float]]:
    """One game; +1 if the level won, 0 for a draw, -1 if greedy won; the level's CPU seconds."""
    rng = random.Random(seed)
    game = ClassicGame()
    level_seat = 1 if seed % 2 == 0 else 2
    seconds: list[float] = []
    for _ in range(OPENING_PLIES):
        game.push(rng.choice(game.legal_moves()))
    while not game.is_over():
        if game.to_move == level_seat:
            start = time.process_time()
            move = choose_move(game, level=level, seed=rng.randrange(10**9))
            seconds.append(time.process_time() - start)
        else:
            move = greedy_move(game, rng)
        game.push(move)
    outcome = game.outcome
    assert outcome is not None
    if not outcome.winners:
        return 0, seconds
    return (1 if outcome.winners == (level_seat,) else -1), seconds


def tally(results: list[int], seconds: list[float]) -> str:
    """The games, win/draw/loss shares (results 1/0/-1) and the median and p90 seconds per move
    of one row, as the level and family benches print it."""
    n = len(results)
    shares = [100 * results.count(r) / n for r in (1, 0, -1)]
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"{n:>6}{shares[0]:>7.1f}{shares[1]:>7.1f}{shares[2]:>7.1f}"
            f"{statistics.median(seconds):>10.4f}{p90:>8.4f}{len(seconds):>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded games per level (default 40)")
    parser.add_argument("--levels", type=int, nargs="*", default=[0, 1, 2], help="levels to play (default 0 1 2)")
    args = parser.parse_args()
    print(f"{'level':<7}{'games':>6}{'win%':>7}{'draw%':>7}{'loss%':>7}{'median s':>10}{'p90 s':>8}{'moves':>7}")
    for level in args.levels:
        results, seconds = [], []
        for seed in range(args.games):
            result, times = play(level, seed)
            results.append(result)
            seconds.extend(times)
        print(f"{level:<7}{tally(results, seconds)}", flush=True)


if __name__ == "__main__":
    main()
