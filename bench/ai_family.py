"""The computer at multiplayer, team and Triple seats against greedy players: win shares and time.

A greedy player stands in for a child who knows the rules: it takes a five (9x9) or completes a
pattern it may claim (Triple) when it can, otherwise plays the move whose position scores best
for itself right after it by the computer's own one-ply score (open lines of five; built
patterns), ties broken by its seeded random number generator, without looking at the replies.

Each game starts with two uniformly random plies (seeded), then the computer plays one seat (one
pair in teams), the seat moving in turn from game to game, and greedy players every other seat.
The computer searches to its level's default node budget (the daemon gives it a deadline
instead), so runs repeat exactly. A win is a first place (shared or not); in Triple's standard
game, being the last player left. Seconds are CPU seconds per move of the computer (median, p90).

Usage: python bench/ai_family.py [--games N] [--levels 0 1 2 3] [--only NAME ...] [--versus LEVEL]

The default run (levels 1 and 2, 40 games per game and level) takes about a minute of CPU on one
core. Measured on one core of the shared 2-core development machine with ``--levels 0 1 2 3``
(40 games each, about two and a half minutes of CPU; the Triple rows again once its levels were
graded, about four minutes):

    game                  level  chance% games   win%  draw%  loss%  median s   p90 s  moves
    multiplayer 3             0     33.3    40    7.5    0.0   92.5    0.0026  0.0032    343
    multiplayer 3             1     33.3    40   32.5    0.0   67.5    0.0027  0.0040    342
    multiplayer 3             2     33.3    40   97.5    0.0    2.5    0.0312  0.0366    235
    multiplayer 3             3     33.3    40   92.5    0.0    7.5    0.0901  0.1097    213
    multiplayer 4             0     25.0    40    7.5    0.0   92.5    0.0031  0.0040    445
    multiplayer 4             1     25.0    40   35.0    0.0   65.0    0.0032  0.0042    355
    multiplayer 4             2     25.0    40   80.0    0.0   20.0    0.0678  0.0834    314
    multiplayer 4             3     25.0    40   87.5    0.0   12.5    0.1649  0.2191    232
    teams                     0     50.0    40   17.5    0.0   82.5    0.0026  0.0040    230
    teams                     1     50.0    40   57.5    0.0   42.5    0.0021  0.0025    237
    teams                     2     50.0    40   95.0    0.0    5.0    0.0584  0.0846    197
    teams                     3     50.0    40   95.0    0.0    5.0    0.1227  0.1425    176
    triple 2                  0     50.0    40   60.0   17.5   22.5    0.0145  0.1005    998
    triple 2                  1     50.0    40   97.5    0.0    2.5    0.0020  0.0033    260
    triple 2                  2     50.0    40   97.5    0.0    2.5    0.0344  0.0710    260
    triple 2                  3     50.0    40  100.0    0.0    0.0    0.0468  0.1243    261
    triple 3                  0     33.3    40   82.5    2.5   15.0    0.0250  0.1185   1374
    triple 3                  1     33.3    40   95.0    0.0    5.0    0.0030  0.0078    284
    triple 3                  2     33.3    40   95.0    0.0    5.0    0.0049  0.0395    284
    triple 3                  3     33.3    40   95.0    0.0    5.0    0.0048  0.0661    284

Head-to-head, Triple with two players against level 1 at the other seat
(``--versus 1 --levels 1 2 3 --only "triple 2"``, 40 games each, about 12 minutes of CPU):

    game                  level  chance% games   win%  draw%  loss%  median s   p90 s  moves
    triple 2 vs L1            1     50.0    40   37.5   35.0   27.5    0.0051  0.0133    942
    triple 2 vs L1            2     50.0    40   45.0   27.5   27.5    0.0830  0.2196    832
    triple 2 vs L1            3     50.0    40   45.0   35.0   20.0    0.1741  0.4102    881

(``chance%`` is a fair share: one seat, or one pair, of the game's.) On 9x9 the beginner wins
far less than its fair share, level 1 about its fair share (teams: a little more), and levels 2
and 3, which look a whole round ahead, win 80-98% of the games. The greedy players play the very
one-ply score the look-ahead expects of the other seats, so these shares flatter it: against
people who look further it will win less often. In Triple the greedy players hand patterns
over, which the tactics of levels 1-3 punish: they win 95-100%. The beginner keeps those tactics
(it takes every pattern handed to it and hands none on when a move avoids it) but sets no traps,
so the greedy player hands it less: it wins 60% with two players (it lost 22.5%, drew 17.5%:
long games), where it won 97.5% before it was made kind; with three players, where the greedy
seats knock each other out and a careful seat is eliminated only when no safe move is left, it
still wins 82.5%. A beginner that loses a fair share to a greedy player would have to hand
patterns over, which every level promises not to do. Between careful players (the head-to-head
rows) the game is lost by the seat left without a safe move at the board's last placements, or
drawn: levels 2 and 3 win 45% against level 1 (level 1 against itself: 37.5%), and level 3,
which also keeps level 1 from forcing it, loses 20% (level 1 against itself: 27.5%); 40 games
a row, so a difference of one game is 2.5 points. The slowest level (3, two players against
level 1) takes a median 0.17 s a move here (p90 0.41 s), about 0.7 s on a Raspberry Pi
4-class CPU (about four times slower), inside its 6 s; on 9x9 level 3 with four players takes
a median 0.16 s.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from ai_levels import tally  # the benches run as scripts from bench/
from controller.ai import choose_move
from controller.ai.family.board import Seating, occupied
from controller.ai.family.scoring import scored_moves
from controller.ai.triple import Table
from controller.ai.triple.board import BARE, completions, tables
from controller.ai.triple.scoring import scored_moves as triple_scored
from controller.rules import Move, MultiplayerGame, TeamGame, TripleGame, TripleMove, TripleOptions

OPENING_PLIES = 2
TRIPLE_TURNS = 400  # a bound on a Triple game's length (the repetition rule ends most before)
Game = MultiplayerGame | TeamGame | TripleGame

GAMES: dict[str, tuple[Callable[[int], Game], int]] = {  # name -> (new game by seed, seats)
    "multiplayer 3": (lambda seed: MultiplayerGame(3), 3),
    "multiplayer 4": (lambda seed: MultiplayerGame(4), 4),
    "teams": (lambda seed: TeamGame(), 2),
    "triple 2": (lambda seed: TripleGame(TripleOptions(players=2, seed=seed)), 2),
    "triple 3": (lambda seed: TripleGame(TripleOptions(players=3, seed=seed)), 3),
}


def greedy_nine(game: MultiplayerGame | TeamGame, rng: random.Random) -> Move:
    """A five now if there is one, else the best one-ply score for itself."""
    seating = Seating.of(game)
    planes, me = game.position.stones, game.colour
    tb = seating.tables
    fives = tb.completions(planes[me], tb.full & ~occupied(planes))
    if fives:
        return Move(fives.bit_length() - 1)
    moves = scored_moves(planes, me, seating)
    best = max(score for score, _, _ in moves)
    _, hole, t = rng.choice([m for m in moves if m[0] == best])
    return seating.move(hole, t, occupied(planes))


def greedy_triple(game: TripleGame, rng: random.Random) -> TripleMove:
    """A pattern it may claim if it can complete one, else the best one-ply score for itself."""
    table = Table(game)
    turn = table.turn(game.to_move, game.position.stones, tuple(game.in_box(c) for c in range(3)), game.last_played)
    won = completions(turn)
    if won:
        colour, origin, hole, t = rng.choice(won)
    else:
        moves = triple_scored(turn, table.weights(game.to_move))
        best = max(m[0] for m in moves)
        _, colour, origin, hole, t = rng.choice([m for m in moves if m[0] == best])
    twist = None if t == BARE else tables().twists[t]
    return TripleMove(hole, None if origin is not None else colour, origin, twist)


def play(name: str, level: int, seed: int, versus: int | None = None) -> tuple[int, list[float]]:
    """One game; +1 if the computer took first place, 0 for a draw (every seat first, or no
    end within the bound), -1 else. ``versus``: the other seats are the computer at that level
    (a head-to-head row) instead of greedy players."""
    make, seats = GAMES[name]
    rng = random.Random(seed)
    game = make(seed)
    ours = seed % seats + 1  # the computer's seat (in teams: its pair's first seat)
    mine = (ours, ours + 2) if isinstance(game, TeamGame) else (ours,)
    seconds: list[float] = []
    for _ in range(OPENING_PLIES):
        game.push(rng.choice(game.legal_moves()))
    while not game.is_over() and len(game.moves) < TRIPLE_TURNS:
        if game.to_move in mine:
            start = time.process_time()
            move = choose_move(game, level=level, seed=rng.randrange(10**9))
            seconds.append(time.process_time() - start)
        elif versus is not None:
            move = choose_move(game, level=versus, seed=rng.randrange(10**9))
        elif isinstance(game, TripleGame):
            move = greedy_triple(game, rng)
        else:
            move = greedy_nine(game, rng)
        game.push(move)
    first = game.standings[0] if game.standings else ()
    if not game.is_over() or len(first) == game.players:
        return 0, seconds
    return (1 if set(mine) & set(first) else -1), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded games per game and level (default 40)")
    parser.add_argument("--levels", type=int, nargs="*", default=[1, 2], help="levels to play (default 1 2)")
    parser.add_argument("--only", nargs="*", default=list(GAMES), choices=list(GAMES), metavar="NAME",
                        help=f"games to play (default all: {', '.join(GAMES)})")
    parser.add_argument("--versus", type=int, default=None, metavar="LEVEL",
                        help="the other seats are the computer at this level, not greedy players (head-to-head)")
    args = parser.parse_args()
    print(f"{'game':<22}{'level':>5}{'chance%':>9}{'games':>6}{'win%':>7}{'draw%':>7}{'loss%':>7}"
          f"{'median s':>10}{'p90 s':>8}{'moves':>7}")
    for name in args.only:
        for level in args.levels:
            results, seconds = [], []
            for seed in range(args.games):
                result, times = play(name, level, seed, args.versus)
                results.append(result)
                seconds.extend(times)
            row = name if args.versus is None else f"{name} vs L{args.versus}"
            print(f"{row:<22}{level:>5}{100 / GAMES[name][1]:>9.1f}{tally(results, seconds)}", flush=True)


if __name__ == "__main__":
    main()
