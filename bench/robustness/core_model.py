"""Robustness: the model of everything a user can do, run long.

The state machine of ``tests/core/user_model.py`` (every game and option of the registry, legal
and illegal moves, lifts, half-made twists, take-backs, the menu, hints and the computer's
answers, practice, restores that pass and fail, timers run out, save picture, the link,
buttons, and a restart from the journal at any step, on virtual boards of both sizes and every
sensing kind) runs here for at least ``--steps`` steps: hypothesis runs of ``--examples``
examples of up to ``--per-example`` steps each, the first seeded ``--seed``, the next ``--seed``
+ 1, and so on. CI runs the same machine derandomised for about a minute
(``tests/core/test_core_model.py``).

A failure does not stop the run: hypothesis prints the steps of the failing example (with
``--shrink``, the smallest it finds), the run goes on from the next seed, and the summary
names each failure by its seed and error. The summary then counts the steps that ended in each
game and flow state, and the journal records written by game and kind (a Picture-Puzzle
round's with how it ended), to show what the run covered.

    .venv/bin/python bench/robustness/core_model.py [--steps N] [--seed S] [--examples E]
        [--per-example K] [--shrink]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # for the model of the tests

from hypothesis import HealthCheck, Phase, seed, settings  # noqa: E402
from hypothesis.stateful import get_state_machine_test  # noqa: E402

from tests.core.user_model import TALLY, BoardModel  # noqa: E402


@dataclass
class Figures:
    """What a run did: examples and seeds tried, seconds, and each failure's seed and error."""

    examples: int = 0
    seeds: int = 0
    seconds: float = 0.0
    failures: list[tuple[int, str]] = field(default_factory=list)


def run(steps: int, first_seed: int = 0, examples: int = 100, per_example: int = 100, shrink: bool = False) -> Figures:
    """Run the model for at least ``steps`` steps (see the module doc); :data:`TALLY` holds the
    steps and what they reached."""
    TALLY.clear()
    figures = Figures()
    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    chosen = settings(database=None, deadline=None, max_examples=examples, stateful_step_count=per_example,
                      suppress_health_check=list(HealthCheck), phases=phases)
    started = time.perf_counter()
    while TALLY.steps < steps:
        number = first_seed + figures.seeds
        figures.seeds += 1
        try:
            seed(number)(get_state_machine_test(BoardModel, settings=chosen))()
        except Exception as error:  # the model found something: say so and go on
            traceback.print_exc()
            figures.failures.append((number, f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"))
        figures.examples += examples
    figures.seconds = time.perf_counter() - started
    return figures


def report(figures: Figures) -> list[str]:
    """The summary: the figures, then the states reached and the records written."""
    lines = [f"steps         {TALLY.steps}", f"examples      {figures.examples} (seeds {figures.seeds})",
             f"restarts      {TALLY.restarts}", f"failures      {len(figures.failures)}",
             f"time          {figures.seconds:.0f} s"]
    lines += [f"  seed {number}: {error}" for number, error in figures.failures]
    lines += ["", "steps ended in (game, state):"]
    lines += [f"  {game:<12} {state:<20} {n:>7}" for (game, state), n in sorted(TALLY.reached.items())]
    lines += ["", "records written (game, kind):"]
    lines += [f"  {game:<12} {kind:<32} {n:>7}" for (game, kind), n in sorted(TALLY.records.items())]
    return lines


def main(argv: list[str] | None = None) -> int:
    logging.getLogger().setLevel(logging.ERROR)  # the rules' refusals are the model's daily bread, not news
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="steps to run at least (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="the first run's seed (default 0)")
    parser.add_argument("--examples", type=int, default=100, help="examples per seed (default 100)")
    parser.add_argument("--per-example", type=int, default=100, help="steps per example at most (default 100)")
    parser.add_argument("--shrink", action="store_true", help="shrink a failing example to the smallest found")
    args = parser.parse_args(argv)
    figures = run(args.steps, args.seed, args.examples, args.per_example, args.shrink)
    print("\n".join(report(figures)))
    return 1 if figures.failures else 0


if __name__ == "__main__":
    sys.exit(main())
