"""Scoring 9x9-family positions for one colour: open lines of five, and every move one ply ahead.

A line of five holding stones of one playing colour only is open for it; its worth grows steeply
with the stones it holds (the weights of the classic evaluation, whose reasons hold here too:
the opponents move after our reply, so their lines weigh a little more). Lines holding two
colours, or the stones of a seat that already has its place, are dead. The score of a colour is
its open lines' worth less every other colour's.

Scoring every move is the inner loop of the 9x9 computer, so it is done frame by frame: for each
twist, the lines of the turned board are read once, and a placement's worth is the change in the
lines through its hole (a stone placed before a twist lands where the twist carries it, so the
child's board is the turned board plus that one stone: :func:`scored_moves` is exact).

>>> from controller.rules import Position
>>> from .board import Seating
>>> from controller.rules import MultiplayerGame
>>> game = MultiplayerGame(3, position=Position.parse("xxx......" + "/........." * 7 + "/oo.......", colours=3))
>>> seating = Seating.of(game)
>>> evaluate(game.position.stones, 0, seating) > 0 > evaluate(game.position.stones, 1, seating)
True
>>> best = max(scored_moves(game.position.stones, 0, seating))
>>> game.move_name(seating.move(best[1], best[2], game.position.occupied))  # a9-c9 turned onto column c: four
'c5 1R'
"""

from __future__ import annotations

from functools import cache

from .board import NO_TWIST, Planes, Seating, occupied, rotate
from ..tables import SearchTables

OWN = (0, 1, 6, 40, 300, 100_000)  # by stones in a line open for the scoring colour
THEIRS = (0, 1, 7, 50, 500, 100_000)  # by stones in a line open for another colour
EMPTY, DEAD = -1, -2

Scored = tuple[int, int, int]  # score for the mover, hole, twist index (-1: no stone turns)


@cache
def line_indices(tables: SearchTables) -> tuple[tuple[int, ...], ...]:
    """Per hole, the indices of the lines of five through it."""
    return tuple(tuple(i for i, line in enumerate(tables.lines) if line >> h & 1)
                 for h in range(tables.geometry.hole_count))


def line_states(planes: Planes, seating: Seating) -> tuple[list[int], list[int]]:
    """Per line: its owner (a colour, :data:`EMPTY` or :data:`DEAD`) and its stone count."""
    owners, counts = [], []
    occ, live = occupied(planes), seating.live
    for line in seating.tables.lines:
        x = occ & line
        owner, count = EMPTY, 0
        if x:
            owner = DEAD
            for colour, plane in enumerate(planes):
                if plane & line:
                    if plane & line == x and colour in live:
                        owner, count = colour, x.bit_count()
                    break
        owners.append(owner)
        counts.append(count)
    return owners, counts


def worth(owner: int, count: int, me: int) -> int:
    """A line's worth to colour ``me``."""
    if owner == me:
        return OWN[count]
    return -THEIRS[count] if owner >= 0 else 0


def evaluate(planes: Planes, me: int, seating: Seating) -> int:
    """The static score of ``planes`` for colour ``me``."""
    owners, counts = line_states(planes, seating)
    return sum(worth(o, k, me) for o, k in zip(owners, counts))


def scored_moves(planes: Planes, me: int, seating: Seating, frames: tuple[int, ...] | None = None) -> list[Scored]:
    """Every distinct move of colour ``me`` that makes no five on placement, scored one ply
    ahead for ``me``; a placement whose turn moves no stone appears once, with twist -1."""
    tb = seating.tables
    occ = occupied(planes)
    placement_fives = tb.completions(planes[me], tb.full & ~occ)
    neutral = seating.neutral_blocks(occ)
    out: list[Scored] = []
    for t in frames if frames is not None else (NO_TWIST, *seating.twists):
        turned = rotate(planes, t, tb)
        if t >= 0 and neutral >> (t // 2) & 1:
            # a neutral block's turn only moves a stone placed in it off its centre
            holes = tb.masks[t] & ~tb.centres & ~occ & ~placement_fives
        else:
            holes = tb.full & ~occ & ~placement_fives
        out.extend(_frame_moves(turned, me, t, holes, occ, seating))
    return out


def _frame_moves(turned: Planes, me: int, t: int, holes: int, occ: int, seating: Seating) -> list[Scored]:
    tb = seating.tables
    owners, counts = line_states(turned, seating)
    base = sum(worth(o, k, me) for o, k in zip(owners, counts))
    through = line_indices(tb)
    out: list[Scored] = []
    while holes:
        low = holes & -holes
        holes ^= low
        hole = low.bit_length() - 1
        if t < 0 and seating.identity_ok(occ, hole) is None:
            continue
        lands = hole if t < 0 else tb.image[t][hole].bit_length() - 1
        gain = 0
        for i in through[lands]:
            owner, count = owners[i], counts[i]
            if owner == EMPTY:
                gain += OWN[1]
            elif owner == me:
                gain += OWN[count + 1] - OWN[count]
            elif owner >= 0:
                gain += THEIRS[count]
        out.append((base + gain, hole, t))
    return out


def play(planes: Planes, colour: int, hole: int, t: int, seating: Seating) -> Planes:
    """The planes after ``colour`` places on ``hole`` and twist ``t`` turns."""
    placed = tuple(p | 1 << hole if c == colour else p for c, p in enumerate(planes))
    return rotate(placed, t, seating.tables)
