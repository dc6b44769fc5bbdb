"""The computer opponent in whole games: level 2 at a fixed time per move against another engine.

Opponents: ``compiled`` or ``python`` (this project's own search, in this process), or any
Pentago engine that speaks GTP in the morat dialect (``gtp:COMMAND``, e.g. morat's ``pentagod``,
a C++ MCTS engine; see below). Each side gets the same time per move: ours in CPU seconds (the
deadline reads process time, as the daemon's reads its clock), a GTP engine by its own time
control (``time -m S``, wall seconds, one search thread, no pondering). Colours alternate: ours
moves first in even-numbered games. The first ``--random-plies`` plies of each game are drawn
uniformly at random (seeded by the game's number) so that games differ. Games are refereed by
this project's rules (:class:`~controller.rules.ClassicGame`): a placement that makes five wins
at once, without a twist. The score is ours: a win 1, a draw 1/2.

Usage: python bench/ai_match.py --opponent gtp:"/path/to/pentagod -n" [--engine python]
       [--games 40] [--seconds 1] [--random-plies 2]

The morat dialect: a move is ``<row><column><twist>``: row ``a`` is rank 6 down to ``f`` rank
1, column ``1``-``6`` is file a-f; the twist letter is ``s``/``t`` block 1 L/R, ``u``/``v`` block
2, ``w``/``x`` block 4, ``y``/``z`` block 3. The first player is ``w``. Morat knows no win on
placement: it always names a twist, which is dropped here when its placement alone makes five.
Morat is on no registry this project reaches: build its ``pentagod`` from its public sources
(github.com/tewalds/morat). The copy measured here was rebuilt from stored sources, with four
local fixes noted beside it: the sources' commits mixed, a store that newer g++ optimises away
(-fno-lifetime-dse), one of its 32 lines of five that it never checked (b1-f1), and a time
formula that divided by zero on move 19. Our moves are checked against our rules whatever it
answers; a move it gives that our rules refuse stops the match with its text.

Figures (the 2-core development machine, one match per core; 2026-12-07): see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.ai import choose_move
from controller.ai.compiled import warm_up
from controller.rules import ClassicGame, Move, Twist

BLOCK_LETTERS = {(1, False): "s", (1, True): "t", (2, False): "u", (2, True): "v",
                 (4, False): "w", (4, True): "x", (3, False): "y", (3, True): "z"}
LETTER_TWISTS = {letter: Twist(block, clockwise) for (block, clockwise), letter in BLOCK_LETTERS.items()}
SIDES = ("w", "b")  # the dialect's first and second player


def to_dialect(move: Move) -> str:
    """Our move in the morat dialect (a twist is always named)."""
    column, row = move.hole % 6, move.hole // 6
    twist = move.twist or Twist(1, True)  # a placement that wins at once: the game ends, so any twist
    return f"{chr(ord('a') + 5 - row)}{column + 1}{BLOCK_LETTERS[twist.block, twist.clockwise]}"


def from_dialect(text: str, game: ClassicGame) -> Move:
    """A dialect move as ours: bare when its placement alone makes five (ValueError if malformed)."""
    if len(text) != 3 or text[0] not in "abcdef" or text[1] not in "123456" or text[2] not in LETTER_TWISTS:
        raise ValueError(f"not a move in the morat dialect: {text!r}")
    hole = (5 - (ord(text[0]) - ord("a"))) * 6 + int(text[1]) - 1
    if game.geometry.has_five(game.position.stones[game.colour] | 1 << hole):
        return Move(hole)  # five on placement: the game ends before the twist
    return Move(hole, LETTER_TWISTS[text[2]])


class GtpEngine:
    """An engine behind GTP on a pipe; its stderr (a search log) is thrown away."""

    def __init__(self, command: str, seconds: float) -> None:
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.seconds = seconds
        self.ask("params -t 1 -o 0")  # one search thread, no thinking on the opponent's time
        self.ask(f"time -m {seconds:g} -g 0 -f 0")

    def ask(self, command: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the GTP engine ended while answering {command!r}")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"the GTP engine refused {command!r}: {answer}")
        return answer[1:].strip()

    def new_game(self) -> None:
        self.ask("clear_board")

    def tell(self, game: ClassicGame, move: Move) -> None:
        self.ask(f"play {SIDES[game.colour]} {to_dialect(move)}")

    def move(self, game: ClassicGame) -> Move:
        return from_dialect(self.ask(f"genmove {SIDES[game.colour]}"), game)

    def close(self) -> None:
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError, OSError):
            pass
        self.process.wait(timeout=10)


class OwnEngine:
    """This project's level 2 at a CPU-time deadline."""

    def __init__(self, engine: str, seconds: float, seed: int = 0) -> None:
        self.engine, self.seconds, self.seed = engine, seconds, seed
        if engine == "compiled":
            warm_up()  # compiling is not thinking time

    def new_game(self) -> None:
        pass

    def tell(self, game: ClassicGame, move: Move) -> None:
        pass

    def move(self, game: ClassicGame) -> Move:
        start = time.process_time()
        return choose_move(game, level=2, seed=self.seed, engine=self.engine,  # type: ignore[return-value]
                           deadline=lambda: time.process_time() - start > self.seconds)

    def close(self) -> None:
        pass


@dataclass
class Tally:
    results: list[float] = field(default_factory=list)  # ours: 1, 1/2, 0
    first: list[float] = field(default_factory=list)  # ours when ours moved first
    ours_s: list[float] = field(default_factory=list)
    theirs_s: list[float] = field(default_factory=list)

    def line(self) -> str:
        n = len(self.results)
        wins, draws = self.results.count(1.0), self.results.count(0.5)
        second = n - len(self.first)
        return (f"{n} games: score {100 * sum(self.results) / n:.1f}% (won {wins}, drawn {draws}, lost "
                f"{n - wins - draws}); moving first {100 * sum(self.first) / max(1, len(self.first)):.1f}%, "
                f"second {100 * (sum(self.results) - sum(self.first)) / max(1, second):.1f}%; "
                f"seconds a move, median/p99: ours {_median_p99(self.ours_s)}, theirs {_median_p99(self.theirs_s)}")


def _median_p99(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):.3f}/{ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]:.3f}"


def play(ours: OwnEngine, theirs: OwnEngine | GtpEngine, number: int, random_plies: int, tally: Tally) -> float:
    """One game; ours moves first when ``number`` is even. Returns ours' result."""
    game = ClassicGame()
    rng = random.Random(number)
    seats = (ours, theirs) if number % 2 == 0 else (theirs, ours)
    for engine in seats:
        engine.new_game()
    ply = 0
    while not game.is_over():
        mover = seats[game.colour]
        drawn = ply < random_plies
        start = time.perf_counter()
        move = rng.choice([m for m in game.legal_moves() if m.twist]) if drawn else mover.move(game)
        if not drawn:
            (tally.ours_s if mover is ours else tally.theirs_s).append(time.perf_counter() - start)
        for engine in seats:
            if engine is not mover or drawn:  # an engine that chose the move has played it
                engine.tell(game, move)
        game.push(move)
        ply += 1
    assert game.outcome is not None
    winners = game.outcome.winners
    ours_seat = 1 if number % 2 == 0 else 2
    result = 0.5 if not winners else 1.0 if ours_seat in winners else 0.0
    tally.results.append(result)
    if number % 2 == 0:
        tally.first.append(result)
    return result


def opponent(spec: str, seconds: float) -> Callable[[], OwnEngine | GtpEngine]:
    if spec.startswith("gtp:"):
        return lambda: GtpEngine(spec[4:], seconds)
    if spec in ("python", "compiled"):
        return lambda: OwnEngine(spec, seconds, seed=1)
    raise SystemExit(f"--opponent is gtp:COMMAND, python or compiled, not {spec!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", required=True, help="gtp:COMMAND, python or compiled")
    parser.add_argument("--engine", choices=("python", "compiled"), default="python", help="ours")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-game", type=int, default=0, help="number of the first game (its seed)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per move, each side")
    parser.add_argument("--random-plies", type=int, default=2, help="random plies that open each game")
    args = parser.parse_args()
    ours = OwnEngine(args.engine, args.seconds)
    theirs = opponent(args.opponent, args.seconds)()
    tally = Tally()
    try:
        for number in range(args.first_game, args.first_game + args.games):
            result = play(ours, theirs, number, args.random_plies, tally)
            print(f"game {number}: ours {'first' if number % 2 == 0 else 'second'}, {result:g}", flush=True)
    finally:
        theirs.close()
    print(f"ours ({args.engine}) against {args.opponent} at {args.seconds:g} s a move: {tally.line()}")


if __name__ == "__main__":
    main()
