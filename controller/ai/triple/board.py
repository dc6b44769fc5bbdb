"""Pentago Triple inside the computer: turns on colour planes, pattern completions and threats.

A :class:`Turn` is what one seat faces: the three colour planes, the marbles of each colour still
in the box (a colour out of play has none), where the marble played last sits, and the pattern
templates the seat can complete (``cards.templates``: five holes and the colour each needs). A
move is ``(colour, origin, hole, t)``: a ``colour`` marble placed on ``hole`` (``origin`` None),
or, in the move phase, the marble on ``origin`` moved to ``hole``; then twist ``t`` (an index of
the search tables' twists), or -1 when the placement or move completes a pattern and ends the turn.

What the rules say counts (and this module follows): a pattern completed by the placement or move
counts at once, through that hole; one made by the twist counts if those five holes did not hold
it when the turn began; lifting a marble only empties a hole, so it can break a pattern, never
make one; the marble played last may not be moved.

:func:`can_complete` answers "can this seat complete a pattern with its next move?" by looking at
every pattern template in each of the nine frames (no twist, and each twist): a template is within
reach when it stands whole in a twist's frame (and did not stand before), or misses one empty hole
whose colour the seat can bring (from the box, or a marble it may move that is not part of it).

>>> from controller.rules import Card, Position, geometry
>>> g = geometry(6)
>>> p = Position.empty(6, colours=3)
>>> for column, colour in enumerate((0, 1, 2, 1)):  # B Y R Y along row 1 from a1
...     p = p.place(g.hole(column, 0), colour)
>>> turn = Turn(p.stones, (9, 9, 9), None, card_templates((Card.parse("BYRYB"),)))
>>> can_complete(turn)  # a blue marble on e1 completes BYRYB
True
>>> can_complete(turn._replace(box=(0, 9, 9)))  # not with the blue marbles all out of the box
False
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from ...rules import Card
from ...rules.triple.cards import Template, templates
from ...rules.geometry import bits, geometry
from ..tables import SearchTables, search_tables

SIZE, COLOURS = 6, 3
BARE = -1
Planes = tuple[int, ...]
TripleChoice = tuple[int, "int | None", int, int]  # colour, origin, hole, twist index (-1: bare)


class Turn(NamedTuple):
    """What the seat to move faces (see the module doc)."""

    planes: Planes
    box: tuple[int, ...]  # marbles of each colour still in the box
    last: int | None  # the hole of the marble played last
    templates: tuple[Template, ...]  # the patterns this seat can complete

    @property
    def occupied(self) -> int:
        return self.planes[0] | self.planes[1] | self.planes[2]

    def is_move_phase(self) -> bool:
        return not any(self.box)

    def movable(self) -> int:
        """The marbles the seat may move in the move phase (every one but the last played)."""
        return self.occupied & ~(0 if self.last is None else 1 << self.last)


def card_templates(cards: tuple[Card, ...]) -> tuple[Template, ...]:
    """Every template of ``cards`` on the 6x6 board."""
    g = geometry(SIZE)
    return tuple(t for card in cards for t in templates(card, g))


@cache
def tables() -> SearchTables:
    return search_tables(SIZE)


def rotate(planes: Planes, t: int) -> Planes:
    """The three planes turned by twist ``t`` (-1: unchanged)."""
    if t < 0:
        return planes
    tb = tables()
    return (tb.rotate(planes[0], t), tb.rotate(planes[1], t), tb.rotate(planes[2], t))


def fill(planes: Planes, masks: tuple[int, ...]) -> int:
    """The holes of a template that hold the colour it needs there."""
    return planes[0] & masks[0] | planes[1] & masks[1] | planes[2] & masks[2]


Witness = tuple[int, int, int, int]  # twist (-1: none), line, the pattern's missing hole (0: none), its colour


def witnesses(turn: Turn) -> list[Witness]:
    """The templates within one marble of standing, new, in some frame (no twist, or a twist):
    whole after the twist, or short of one empty hole (with the colour it needs)."""
    tb, start = tables(), turn.planes
    out: list[Witness] = []
    for t in (BARE, *range(len(tb.twists))):
        frame = rotate(start, t)
        occ = frame[0] | frame[1] | frame[2]
        for line, masks, _ in turn.templates:
            missing = line & ~fill(frame, masks)
            if missing & (missing - 1) or occ & missing or fill(start, masks) == line:
                continue  # two or more holes short, the wrong colour in one, or it stood already
            colour = 0 if masks[0] & missing else 1 if masks[1] & missing else 2
            out.append((t, line, missing, colour))
    return out


def can_complete(turn: Turn) -> bool:
    """True if the seat to move can complete one of its patterns with its next move."""
    return any(_origins(turn, w) for w in witnesses(turn))


def _origins(turn: Turn, witness: Witness) -> int:
    """Placement phase: nonzero if the seat can place what the witness needs. Move phase: the
    marbles it may move to complete it (never one of the pattern's own, which lifting breaks)."""
    t, line, missing, colour = witness
    if not turn.is_move_phase():
        return 1 if not missing or turn.box[colour] else 0
    keep = line if t < 0 else tables().rotate(line, t ^ 1)
    movable = turn.movable() & ~keep
    return movable if not missing else movable & turn.planes[colour]


def completions(turn: Turn) -> list[TripleChoice]:
    """Every move of the seat to move that completes one of its patterns (a completion by the
    placement or move is bare: the turn ends there)."""
    tb, out = tables(), set[TripleChoice]()
    bare: dict[tuple[int, int], list[Witness]] = {}
    for w in witnesses(turn):
        if w[0] < 0:
            bare.setdefault((w[2], w[3]), []).append(w)
    for witness in witnesses(turn):
        t, _, missing, colour = witness
        origins = _origins(turn, witness)
        if not origins:
            continue
        if not missing:  # the twist alone: any first half that is not itself a completion
            out.update((c, o, h, t) for c, o, h in first_halves(turn)
                       if (o is None or origins >> o & 1) and not _is_bare(turn, bare, c, o, h))
            continue
        hole = missing.bit_length() - 1 if t < 0 else tb.image[t ^ 1][hole_of(missing)].bit_length() - 1
        starts: list[int | None] = [None] if not turn.is_move_phase() else list(bits(origins))
        for origin in starts:
            out.add((colour, origin, hole, BARE if t < 0 or _is_bare(turn, bare, colour, origin, hole) else t))
    return sorted(out, key=lambda m: (m[0], -1 if m[1] is None else m[1], m[2], m[3]))


def _is_bare(turn: Turn, bare: dict[tuple[int, int], list[Witness]], colour: int, origin: int | None,
             hole: int) -> bool:
    """True if the first half completes a pattern through ``hole`` (so no twist follows)."""
    found = bare.get((1 << hole, colour), [])
    return any(origin is None or _origins(turn, w) >> origin & 1 for w in found)


def hole_of(mask: int) -> int:
    return mask.bit_length() - 1


def first_halves(turn: Turn) -> list[tuple[int, int | None, int]]:
    """Every placement ``(colour, None, hole)`` or move ``(colour, origin, hole)`` of the seat."""
    empty = tables().full & ~turn.occupied
    holes = bits(empty)
    if not turn.is_move_phase():
        return [(c, None, h) for c in range(COLOURS) if turn.box[c] for h in holes]
    out: list[tuple[int, int | None, int]] = []
    for origin in bits(turn.movable()):
        colour = 0 if turn.planes[0] >> origin & 1 else 1 if turn.planes[1] >> origin & 1 else 2
        out.extend((colour, origin, h) for h in holes)
    return out


def place(planes: Planes, colour: int, origin: int | None, hole: int) -> Planes:
    """The planes after the first half: ``origin`` emptied (move phase), ``hole`` filled."""
    keep = ~0 if origin is None else ~(1 << origin)
    return tuple((p & keep) | (1 << hole if c == colour else 0) for c, p in enumerate(planes))
