"""Robustness: random legal classic games, played with a real board's noise, through the core.

Each game is a random legal classic game (:class:`controller.rules.ClassicGame`), played move by
move on the simulated board of the tests (``tests/core/tapebuilder.py``) the way people play it,
with the noise a real board makes, kept within what the board tracker is designed to settle:

- a dropped marble bounces out of its hole and back (each bounce well under ``settle_s``);
- a marble rolls onto an empty neighbouring hole and back before it comes to rest;
- a twist is quick or slow (a detent every 0.20-0.26 s, under ``turn_settle_s`` = 0.4 s), may
  start with a wobble (one detent back, then forth), and its encoder may count one detent too
  few or too many (``STEP_TOLERANCE``), or stop half-way for a new grip (0.5-1.2 s, then the
  rest of the turn, all under ``grace_s``); the turning block's sensors read garbage meanwhile
  (but for the centre's, which turns in place), nothing while it stops;
- a resting sensor misreads for 20-100 ms (under ``settle_s`` = 0.15 s);
- people pause 0.5-1.2 s between gestures, think for up to 8 s, place and twist in one go, or
  place the next marble right after the opponent's twist (before the core's ``turn_settle_s``).

Bounds (what the tracker is designed for, and physics): at most a whole move, or a twist and the
next placement, settle together, so after a move placed and twisted in one go the next marble
waits for the board to settle; before a turning block's first detent counts its marbles may
leave their sensors but cannot reach another one (a detent is 15 degrees), so the first
detent's garbage only empties holes (``TapeBuilder.turn``); a stop for a new grip is at least
two detents from either end: a block with no marble off its centre, stopped a detent short of
a quarter with a detent counted too many, looks exactly like a finished twist and then a stray
detent (the tracker forgives one either way, not two).

The events go through a fresh :class:`controller.core.Core` on a fake clock exactly as
``pentago-board replay`` runs a tape, half the games on a presence board (reed switches) and half
on a polarity board (linear Hall sensors that tell the colours apart). A *false* move is one the
core accepted that was not played; a *missed* move one that was played and not accepted (both
counted from the first place where the two move lists differ). ``repairs`` counts how often the
core asked for a repair: a legal game within these bounds should never need one.

    .venv/bin/python bench/robustness/noisy_games.py [--games N] [--seed S] [--tapes DIR]

A game that goes wrong is named by its seed and number; ``--tapes DIR`` writes its tape for
``pentago-board replay``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # for the simulated board of the tests

from controller.commands.replay import replay  # noqa: E402
from controller.rules import ClassicGame, Move, parse_hole  # noqa: E402
from controller.tape import read_tape  # noqa: E402
from tests.core.tapebuilder import QUICK, TapeBuilder  # noqa: E402

SENSINGS = ("presence", "polarity")
DETENTS = 6  # per quarter turn, as on both hardware builds (hardware/profiles)
GLITCH_S = (0.02, 0.1)  # a sensor misreading: always shorter than the core's settle_s (0.15 s)
THINK_S = (2.0, 8.0)
GRIP_S = (0.5, 1.2)  # a twist stopped half-way: longer than turn_settle_s (0.4 s); with the rest of
# the turn and its settling (under 0.8 s) it stays under grace_s (2 s), after which the core rightly
# asks to finish the turn


@dataclass
class Figures:
    """What a run found; ``failures`` names each game that went wrong."""

    games: int = 0
    moves: int = 0
    false_moves: int = 0
    missed_moves: int = 0
    repairs: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [f"games         {self.games}", f"moves         {self.moves}",
                f"false moves   {self.false_moves}", f"missed moves  {self.missed_moves}",
                f"repairs       {self.repairs}", f"time          {self.seconds:.1f} s"] + \
            [f"FAILED {failure}" for failure in self.failures]


def random_game(rng: random.Random) -> list[str]:
    """The moves of a random legal classic game, played to its end."""
    game = ClassicGame()
    moves = []
    while not game.is_over():
        move = _pick(rng, game.legal_moves())
        moves.append(game.move_name(move))
        game.push(move)
    return moves


def _pick(rng: random.Random, legal: list[Move]) -> Move:
    """A random legal move; people skip an optional twist more often than one move in nine."""
    skips = [m for m in legal if m.twist is None]
    return rng.choice(skips) if skips and rng.random() < 0.25 else rng.choice(legal)


def noisy_tape(moves: list[str], rng: random.Random, sensing: str) -> TapeBuilder:
    """The physical events of ``moves`` played with noise on a board that senses ``sensing``."""
    b = TapeBuilder(sensing=sensing, detents=DETENTS, seed=rng.randrange(2**32))
    b.pause()
    hurry = False  # the next marble follows the twist before the board settles
    for number, move in enumerate(moves):
        b.seat = 1 + number % 2
        if not hurry:
            _rest(b, rng)
        _place(b, rng, parse_hole(move.split()[0], b.g))
        quick = not hurry and rng.random() < 0.25  # never three half-moves in one settle
        if " " in move:
            _twist(b, rng, move.split()[1], quick)
        hurry = " " in move and not quick and rng.random() < 0.2
        b.pause(rng.uniform(0.05, 0.3) if hurry else rng.uniform(*QUICK))
    return b


def _place(b: TapeBuilder, rng: random.Random, hole: int) -> None:
    kind = rng.random()
    free = [h for h in _neighbours(b, hole) if h not in b.marbles]
    if kind < 0.2 and free:
        b.roll([hole, rng.choice(free), hole])  # rolls next door and back
    elif kind < 0.5:
        b.put(hole, bounce=rng.randint(1, 2))
    else:
        b.put(hole)


def _twist(b: TapeBuilder, rng: random.Random, twist: str, quick: bool) -> None:
    block, sign = int(twist[0]), 1 if twist[1] == "R" else -1
    b.pause(rng.uniform(*QUICK) if quick else None)  # placed and twisted in one go, or not
    if rng.random() < 0.15:
        b.nudge(block, -sign).nudge(block, sign)  # a wobble as the hand takes hold
    miss = rng.choices((0, -1, 1), weights=(8, 1, 1))[0]
    done = 0
    if rng.random() < 0.1:  # a new grip half-way: the marbles wait between the sensors
        done = rng.randint(2, DETENTS - 2)
        b.half_turn_off(block, sign * done).pause(rng.uniform(*GRIP_S))
    b.turn(block, sign, steps=sign * (DETENTS + miss - done), slow=not done and rng.random() < 0.3)


def _rest(b: TapeBuilder, rng: random.Random) -> None:
    """Hands off the board, a sensor misreading now and then."""
    if rng.random() < 0.3:
        b.pause(rng.uniform(0.2, 0.6))
        b.glitch(rng.randrange(b.g.hole_count), rng.uniform(*GLITCH_S))
    b.pause(rng.uniform(*THINK_S) if rng.random() < 0.1 else None)


def _neighbours(b: TapeBuilder, hole: int) -> list[int]:
    size = b.g.size
    row, column = divmod(hole, size)
    steps = ((0, 1), (0, -1), (1, 0), (-1, 0))
    return [(row + dr) * size + column + dc for dr, dc in steps if 0 <= row + dr < size and 0 <= column + dc < size]


def play_one(seed: int, number: int) -> tuple[list[str], list[str], int, TapeBuilder]:
    """Game ``number`` of a run with ``seed``: (moves played, moves accepted, repairs, tape)."""
    rng = random.Random(f"{seed}/{number}")
    moves = random_game(rng)
    b = noisy_tape(moves, rng, SENSINGS[number % 2])
    result = replay(read_tape(b.lines()))
    return moves, result["moves"], result["repairs"], b


def difference(played: list[str], accepted: list[str]) -> tuple[int, int]:
    """(false, missed) moves, counted from the first index where the lists differ."""
    same = 0
    while same < min(len(played), len(accepted)) and played[same] == accepted[same]:
        same += 1
    return len(accepted) - same, len(played) - same


def run(n: int, seed: int = 1, tapes: Path | None = None) -> Figures:
    """Play ``n`` noisy games through the core; the figures."""
    figures = Figures()
    began = time.perf_counter()
    for number in range(n):
        played, accepted, repairs, b = play_one(seed, number)
        false, missed = difference(played, accepted)
        figures.games += 1
        figures.moves += len(played)
        figures.false_moves += false
        figures.missed_moves += missed
        figures.repairs += repairs
        if false or missed or repairs:
            figures.failures.append(f"seed {seed} game {number} ({b.sensing}): played {len(played)}, "
                                    f"accepted {len(accepted)}, first difference at move {len(played) - missed + 1}, "
                                    f"{repairs} repairs")
            if tapes is not None:
                tapes.mkdir(parents=True, exist_ok=True)
                b.write(tapes / f"noisy-{seed}-{number}.jsonl")
    figures.seconds = time.perf_counter() - began
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="how many games (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--tapes", type=Path, help="write the tape of every game that went wrong here")
    args = parser.parse_args(argv)
    figures = run(args.games, args.seed, args.tapes)
    print("\n".join(figures.lines()))
    return 1 if figures.failures else 0


if __name__ == "__main__":
    sys.exit(main())
