"""Does every engine keep the thinking time it is given? Overruns per engine and budget.

Each engine is given a deadline and the bench measures the time it takes to answer, as a ratio
to the budget. The clock is the wall clock (``time.monotonic``, as the daemon and ``analyse``
give it), or with ``--clock cpu`` this process's CPU time, which leaves out the time the machine
gives to other processes (what the engine itself keeps). Engines: the classic search in Python
and compiled (the fast extra; compiled before the first move, as the daemon does, since
compiling is not thinking time) on oracle positions (19-26 marbles, where many searches prove
the result early) and on positions of 2-17 marbles after seeded random moves (where no search
sees the end), and the family's choosers at levels 2 and 3 (multiplayer, teams, Triple) on
positions spread over greedy games (bench/ai_family.py's greedy players at every seat).

Each row gives the moves; how many took more than 10% longer than the budget (*over*; a search
that uses its time always ends a little past it) and longer than the tolerance (*late*); the
median, p99 and maximum of time used / budget; the tolerance (*limit*: 10% of the budget plus
one chunk, the median time between two looks at the deadline, *gap50*) and whether the p99 is
within it (*kept*); the share of a core the bench had (*cpu%*); the nodes per second (classic);
the p99 time between two looks at the deadline (*gap99*, ms; the last one until the answer);
and the looks at the deadline per 100,000 nodes (classic). A family chooser looks at every node.

``--only startup`` times whole ``pentago-board analyse --time S`` calls on the empty board (a
new process each, as a shell user runs it) and prints the median and the largest wall seconds
beyond S: the start-up and, for the compiled engine, loading numba's cached build, which come
before the deadline is set.

``--load quiet loaded`` (the default) runs everything twice: as it is, then with a busy process
spinning on the other core (it is ended when the run ends).

Usage: python bench/ai_deadline.py [--budgets 0.25 1] [--clock wall|cpu] [--oracle N] [--openings N]
       [--positions N] [--calls N] [--load quiet loaded] [--only classic family startup]

Searches that prove a win or see the end of the game stop early, so the median may be below 1.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ai_family import GAMES, greedy_nine, greedy_triple  # the benches run as scripts from bench/
from ai_oracle import game_of, load
from controller.ai import analyse, choose_move
from controller.ai.compiled import available, warm_up
from controller.rules import ClassicGame, TripleGame

TOLERANCE = 0.10  # of the budget, on top of one chunk
CLASSIC = ("python", "compiled")
CLOCKS = {"wall": time.monotonic, "cpu": time.process_time}


@dataclass
class Row:
    name: str
    budget_s: float
    clock: Callable[[], float]
    ratios: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)  # seconds between two looks at the clock
    cpu_s: float = 0.0  # this process's CPU time over the row
    nodes: int = 0  # classic rows only

    def measure(self, games: list, think: Callable[[Any, Callable[[], bool]], object]) -> Row:
        """Time ``think(game, deadline)`` on each of ``games`` (a classic answer's nodes count)."""
        cpu = time.process_time()
        for game in games:
            ratio, gaps, answer = timed(self.budget_s, lambda deadline: think(game, deadline), self.clock)
            self.ratios.append(ratio)
            self.gaps.extend(gaps)
            self.nodes += getattr(answer, "nodes", 0)
        self.cpu_s = time.process_time() - cpu
        return self

    def line(self) -> str:
        ratios, gaps = sorted(self.ratios), sorted(self.gaps) or [0.0]
        chunk = statistics.median(gaps)
        limit = 1 + TOLERANCE + chunk / self.budget_s
        p99 = _p99(ratios)
        used_s = sum(ratios) * self.budget_s
        rate = self.nodes / used_s
        asks = 100_000 * len(self.gaps) / self.nodes if self.nodes else 0
        return (f"{self.name:<20}{self.budget_s:>6g}{len(ratios):>6}{sum(r > 1 + TOLERANCE for r in ratios):>6}"
                f"{sum(r > limit for r in ratios):>6}{statistics.median(ratios):>7.2f}{p99:>7.2f}{ratios[-1]:>7.2f}"
                f"{limit:>7.2f}{'yes' if p99 <= limit else 'NO':>5}{100 * self.cpu_s / used_s:>5.0f}{rate:>9.0f}"
                f"{1000 * chunk:>7.1f}{1000 * _p99(gaps):>7.1f}{asks:>7.1f}")


HEADER = (f"{'engine':<20}{'budget':>6}{'moves':>6}{'over':>6}{'late':>6}{'p50':>7}{'p99':>7}{'max':>7}"
          f"{'limit':>7}{'kept':>5}{'cpu%':>5}{'nodes/s':>9}{'gap50':>7}{'gap99':>7}{'asks':>7}")


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def timed(budget_s: float, think: Callable[[Callable[[], bool]], object],
          clock: Callable[[], float]) -> tuple[float, list[float], object]:
    """Time used / budget by ``think`` given a deadline on ``clock``, the times between its looks
    at the deadline (the last one until it answered), its answer."""
    start = clock()
    looks = [start]

    def deadline() -> bool:
        looks.append(clock())
        return looks[-1] - start >= budget_s

    answer = think(deadline)
    looks.append(clock())
    return (looks[-1] - start) / budget_s, [b - a for a, b in zip(looks[1:], looks[2:])], answer


def classic_positions(oracle: int, openings: int) -> list[ClassicGame]:
    """``oracle`` oracle positions spread over their marble counts, and ``openings`` positions
    after seeded random moves, 2 to 17 marbles."""
    games = [game_of(record) for record in load(oracle)] if oracle else []
    for seed in range(openings):
        rng, game = random.Random(seed), ClassicGame()
        for _ in range(2 + seed * 16 // openings):
            game.push(rng.choice(game.legal_moves()))
            if game.is_over():
                game.pop()
                break
        games.append(game)
    return games


def classic_row(engine: str, budget_s: float, games: list[ClassicGame], clock: Callable[[], float]) -> Row:
    return Row(f"classic {engine}", budget_s, clock).measure(games, lambda game, deadline: analyse(game, level=2, deadline=deadline, engine=engine))


def family_positions(name: str, count: int) -> list:
    """``count`` positions of the game ``name``, spread over greedy games (seeded)."""
    positions = []
    make, _ = GAMES[name]
    for seed in range(count):
        rng = random.Random(seed)
        game, played = make(seed), []
        while not game.is_over() and len(played) < 400:
            move = greedy_triple(game, rng) if isinstance(game, TripleGame) else greedy_nine(game, rng)
            game.push(move)
            played.append(move)
        game = make(seed)
        for move in played[: int((seed + 0.5) / count * len(played))]:  # the seed's share of the game
            game.push(move)
        if not game.is_over():
            positions.append(game)
    return positions


def family_row(name: str, level: int, budget_s: float, games: list, clock: Callable[[], float]) -> Row:
    return Row(f"{name} L{level}", budget_s, clock).measure(games, lambda game, deadline: choose_move(game, level=level, deadline=deadline))


def startup_line(engine: str, budget_s: float, calls: int) -> str:
    """The wall seconds of whole ``analyse`` calls beyond their ``--time``."""
    command = [sys.executable, "-m", "controller.cli", "analyse", "--board", "." * 36, "--to-move", "x",
               "--time", f"{budget_s:g}", "--engine", engine]
    beyond = []
    for _ in range(calls):
        start = time.monotonic()
        subprocess.run(command, check=True, capture_output=True)
        beyond.append(time.monotonic() - start - budget_s)
    return (f"analyse --engine {engine} --time {budget_s:g}: {calls} calls, {statistics.median(beyond):.2f} s median "
            f"and {max(beyond):.2f} s at most beyond --time")


@contextlib.contextmanager
def loaded(load: str) -> Iterator[None]:
    """A busy process on the other core while a ``loaded`` run lasts."""
    if load != "loaded":
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def run(args: argparse.Namespace, load_name: str) -> None:
    print(f"\n{load_name}, {args.clock} clock\n{HEADER}", flush=True)
    clock = CLOCKS[args.clock]
    with loaded(load_name):
        if "classic" in args.only:
            games = classic_positions(args.oracle, args.openings)
            for engine in [e for e in CLASSIC if e == "python" or available()]:
                for budget_s in args.budgets:
                    print(classic_row(engine, budget_s, games, clock).line(), flush=True)
        if "family" in args.only:
            for name in GAMES:
                games = family_positions(name, args.positions)
                for level in (2, 3):
                    for budget_s in args.budgets:
                        print(family_row(name, level, budget_s, games, clock).line(), flush=True)
        if "startup" in args.only:
            for engine in [e for e in CLASSIC if e == "python" or available()]:
                print(startup_line(engine, args.budgets[0], args.calls), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=float, nargs="*", default=[0.25, 1.0], help="seconds per move")
    parser.add_argument("--oracle", type=int, default=60, help="classic: N oracle positions, spread over marble counts")
    parser.add_argument("--openings", type=int, default=60, help="classic: N positions after random moves")
    parser.add_argument("--positions", type=int, default=6, help="family: N positions per game")
    parser.add_argument("--clock", choices=list(CLOCKS), default="wall",
                        help="what the deadline and the time used read (cpu: this process's CPU time)")
    parser.add_argument("--calls", type=int, default=5, help="startup: analyse calls per engine")
    parser.add_argument("--load", nargs="*", default=["quiet", "loaded"], choices=("quiet", "loaded"))
    parser.add_argument("--only", nargs="*", default=["classic", "family", "startup"], choices=("classic", "family", "startup"))
    args = parser.parse_args()
    if available():
        warm_up()  # compiling, or loading the cached build, is not thinking time
    for load_name in args.load:
        run(args, load_name)


if __name__ == "__main__":
    main()
