"""The computer as Picture-Puzzle's dismantler (practice mode): k removals and k twists.

:func:`dismantle` plans the whole dismantle of the round in hand at once (the dismantle has no
opponent to answer, so there is nothing to search). Every step is legal when played in order:
a removal takes a stone that stands at that moment, and there are exactly ``k`` of each kind.
The ``seed`` makes the plan repeatable. The level sets how hard the restore is:

- level 0: the removals first, then twists that change as little as can be: a block twisted
  one way and back (pairs cancel), an odd twist on a block that looks the same turned (an empty
  one if there is one), so the holes stay where the stones were taken from;
- level 1: the removals first, then each twist on a block holding a hole just made, so the
  holes move and the restorer must turn them back;
- level 2: removals and twists shuffled together, twists on blocks with stones or holes,
  so a later removal is named where an earlier twist put the stone;
- level 3: shuffled as level 2, but each twist is the one that moves the most stones and holes
  (ties by the seed), never the twist before undone, so the picture is scrambled as far as k
  twists can.

Practice plays :data:`DEFAULT_LEVEL` unless the game's ``level`` option names another.

>>> from controller.rules.puzzle.pictures import library_picture
>>> from controller.rules.puzzle import PuzzleGame, PuzzleOptions
>>> game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=2, start_k=2))
>>> steps = dismantle(game, seed=1, level=0)
>>> sorted(step.kind.value for step in steps)
['removal', 'removal', 'twist', 'twist']
>>> for step in steps:
...     _ = game.push(step)
>>> game.phase.value
'place'
"""

from __future__ import annotations

import random

from ..rules.geometry import bits
from ..rules.notation import Twist
from ..rules.position import Position
from ..rules.puzzle import Phase, PuzzleGame
from ..rules.puzzle.notation import Kind, Step

LEVELS = (0, 1, 2, 3)
DEFAULT_LEVEL = 1  # the dismantle practice played before its level could be chosen


def dismantle(game: PuzzleGame, *, seed: int = 0, level: int = DEFAULT_LEVEL) -> tuple[Step, ...]:
    """The steps still due in ``game``'s dismantle (all of them at its start), in the order to
    play them. ValueError when the game is not dismantling or ``level`` is not one of LEVELS."""
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {LEVELS}")
    if game.phase is not Phase.DISMANTLE:
        raise ValueError(f"the computer dismantles only in the dismantle, not in phase {game.phase.value!r}")
    removals, twists = game.to_do()
    rng = random.Random(seed)
    order = [Kind.REMOVE] * removals + [Kind.TWIST] * twists
    if level >= 2:
        rng.shuffle(order)
    position, steps = game.position, list[Step]()
    removed = 0  # the holes made so far, as they stand after the twists since
    for index, kind in enumerate(order):
        if kind is Kind.REMOVE:
            hole = rng.choice(bits(position.occupied))
            step = Step.remove(hole)
            removed |= 1 << hole
            position = position.lift(hole)
        else:
            twist = _twist(position, removed, level, rng, order[index:].count(Kind.TWIST), steps)
            step = Step.turn(twist)
            position = position.rotate(twist.block, twist.clockwise)
            removed = position.geometry.rotate(removed, twist.block, twist.clockwise)
        steps.append(step)
    return tuple(steps)


def _twist(position: Position, removed: int, level: int, rng: random.Random, left: int,
           done: list[Step]) -> Twist:
    """The next twist at ``level`` (``left`` twists still due, this one among them)."""
    g = position.geometry
    if level == 0:
        total = left + sum(step.kind is Kind.TWIST for step in done)
        number = total - left  # this twist's place among the dismantle's, from 0
        if number % 2 and (last := done[-1].twist) is not None:
            return Twist(last.block, not last.clockwise)  # undo the twist before: the board is as it was
        if number == total - 1:  # the odd one out: a block that looks the same turned
            return Twist(min(range(1, g.block_count + 1), key=lambda b: (_changed(position, b), b)), rng.random() < 0.5)
        return Twist(rng.randint(1, g.block_count), rng.random() < 0.5)
    if level == 3:
        return _scrambling(position, rng, done)
    blocks = [b for b in range(1, g.block_count + 1) if (removed if level == 1 else removed | position.occupied)
              & g.block_masks[b - 1]]
    return Twist(rng.choice(blocks or list(range(1, g.block_count + 1))), rng.random() < 0.5)


def _scrambling(position: Position, rng: random.Random, done: list[Step]) -> Twist:
    """The twist that changes the most holes (ties by ``rng``), never the one before undone.
    Turning a block one way or the other changes the same holes, so the way is the seed's,
    except on the block just twisted: the same way again (a half turn), never back."""
    g = position.geometry
    last = next((step.twist for step in reversed(done) if step.twist is not None), None)
    twists = [Twist(block, last.clockwise if last is not None and block == last.block else rng.random() < 0.5)
              for block in range(1, g.block_count + 1)]
    rng.shuffle(twists)
    return max(twists, key=lambda twist: _changed(position, twist.block))


def _changed(position: Position, block: int) -> int:
    """How many holes of ``block`` a quarter turn changes (0: it looks the same turned)."""
    turned = position.rotate(block, True)
    return sum((a ^ b).bit_count() for a, b in zip(position.stones, turned.stones))

