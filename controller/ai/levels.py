"""The computer opponent's levels: what each one does, and how long it thinks on a Raspberry Pi.

======  ==========  ==============================================================  ========
level   name        what it does                                                    think s
======  ==========  ==============================================================  ========
0       beginner    takes a five now, blocks a five in one, otherwise mostly plays   0
                    about at random (a young child can beat it)
1       easy        one move ahead: takes a five, avoids handing one over, picks     0
                    by the static evaluation with some seeded randomness
2       normal      iterative-deepening alpha-beta search                            1.5
3       strong      the same search with more time                                   6
======  ==========  ==============================================================  ========

In the rest of the family the levels keep their meaning: the same tactics at every level (take
a five or complete a pattern; never hand the next seat one), level 0 then plays at random half
the time (in Triple it also sets no traps), level 1 looks one move ahead, levels 2 and 3 look
further (:mod:`controller.ai.family`, :mod:`controller.ai.triple`: a round ahead; in Triple a
forcing move, and level 3 also defends against one), each with its own node budget. The classic
search runs compiled where the fast extra is installed (:mod:`controller.ai.compiled`).

Thinking times are for a Raspberry Pi 4-class CPU (about four times slower than the desktop core
bench/ai_oracle.py was measured on); the caller owns the clock, the search only calls a
deadline. Without a deadline a searching level stops after its node budget, so a call without
one is exactly repeatable. bench/ai_levels.py measures each level against a greedy player.

>>> [level.number for level in LEVEL_TABLE], DEFAULT_LEVEL
([0, 1, 2, 3], 2)
>>> level_named(0).name
'beginner'
>>> level_named(7)
Traceback (most recent call last):
...
ValueError: level 7 is not one of (0, 1, 2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One level of the computer opponent."""

    number: int
    name: str
    words: str  # what it does, for people
    think_s: float  # thinking time per move on a Pi-class CPU
    nodes: int | None  # the node budget without a deadline (None: no search)


LEVEL_TABLE: tuple[Level, ...] = (
    Level(0, "beginner", "beginner: takes a five and blocks one, otherwise plays almost at random", 0.0, None),
    Level(1, "easy", "easy: looks one move ahead", 0.0, None),
    Level(2, "normal", "normal: searches a few moves ahead (about 1.5 s a move)", 1.5, 10_000),
    Level(3, "strong", "strong: searches deeper (about 6 s a move)", 6.0, 60_000),
)
LEVELS = tuple(level.number for level in LEVEL_TABLE)
DEFAULT_LEVEL = 2
THINK_SECONDS = {level.number: level.think_s for level in LEVEL_TABLE}
DEFAULT_NODES = {level.number: level.nodes for level in LEVEL_TABLE if level.nodes is not None}


def level_named(number: object) -> Level:
    """The level numbered ``number``; ValueError naming the levels otherwise."""
    for level in LEVEL_TABLE:
        if number == level.number and not isinstance(number, bool):
            return level
    raise ValueError(f"level {number!r} is not one of {LEVELS}")
