"""Scoring Pentago Triple moves: how far each pattern a seat plays for has been built.

A template (five holes and the colour each needs) is open while none of its holes holds a wrong
colour; its worth grows with the holes already right (:data:`BUILT`). A seat scores the templates
of the cards it can complete; with personal cards it also loses what each other seat's own card is
worth to that seat, since any of them completing theirs ends the game. A template one marble short
is worth no more than one two short: leaving it is handing it to the next seat, which the tactics
forbid anyway (:mod:`controller.ai.triple`).

Every move is scored frame by frame, as for the 9x9 family: the board after the first half's
lifting (move phase) turned by each twist is read once, and a marble's worth is the change in the
templates through the hole where the twist carries it.

>>> from controller.rules import Card, Position
>>> from .board import Turn, card_templates
>>> cards = card_templates((Card.parse("BBBBB"),))
>>> blue_a6_c6 = Position.parse("xxx..." + "." * 30, colours=3).stones  # x: colour 0, blue
>>> turn = Turn(blue_a6_c6, (6, 9, 9), None, cards)
>>> best = max(scored_moves(turn, Weights(cards)))
>>> best[1:]  # blue on b5, block 1's centre, then 1R stands a6-c6 up as c6-c4 beside it
(0, None, 25, 0)
"""

from __future__ import annotations

from ...rules.triple.cards import Template
from .board import BARE, Planes, Turn, fill, first_halves, place, rotate, tables

BUILT = (0, 1, 4, 10, 10, 0)  # by holes already right in an open template
Scored = tuple[int, int, "int | None", int, int]  # score, colour, origin, hole, twist index
Signed = tuple[int, tuple[int, ...], int]  # line, colour masks, +1 (ours) or -1 (another seat's)


class Weights:
    """The templates a seat scores: its own (+1) and, with personal cards, the others' (-1)."""

    def __init__(self, own: tuple[Template, ...], others: tuple[Template, ...] = ()) -> None:
        self.signed: tuple[Signed, ...] = tuple((line, masks, 1) for line, masks, _ in own) + tuple(
            (line, masks, -1) for line, masks, _ in others)
        self.through = _through(self.signed)


def _through(signed: tuple[Signed, ...]) -> tuple[tuple[Signed, ...], ...]:
    return tuple(tuple(s for s in signed if s[0] >> h & 1) for h in range(tables().geometry.hole_count))


def value(planes: Planes, signed: tuple[Signed, ...]) -> int:
    """The worth of ``planes`` over the ``signed`` templates."""
    occ = planes[0] | planes[1] | planes[2]
    total = 0
    for line, masks, sign in signed:
        right = fill(planes, masks)
        if not occ & line & ~right:
            total += sign * BUILT[right.bit_count()]
    return total


def scored_moves(turn: Turn, weights: Weights) -> list[Scored]:
    """Every move of the seat to move with a twist, scored one ply ahead (no completion is
    looked for: the caller has taken any)."""
    out: list[Scored] = []
    tb = tables()
    halves = first_halves(turn)
    origins = sorted({origin for _, origin, _ in halves}, key=lambda o: -1 if o is None else o)
    for origin in origins:
        base = turn.planes if origin is None else tuple(p & ~(1 << origin) for p in turn.planes)
        mine = [(c, h) for c, o, h in halves if o == origin]
        for t in range(len(tb.twists)):
            frame = rotate(base, t)
            occ = frame[0] | frame[1] | frame[2]
            score = value(frame, weights.signed)
            for colour, hole in mine:
                lands = tb.image[t][hole]
                gain = _gain(frame, occ, lands, colour, weights.through[lands.bit_length() - 1])
                out.append((score + gain, colour, origin, hole, t))
    return out


def _gain(frame: Planes, occ: int, lands: int, colour: int, through: tuple[Signed, ...]) -> int:
    gain = 0
    for line, masks, sign in through:
        right = fill(frame, masks)
        if occ & line & ~right:
            continue  # dead already
        before = BUILT[right.bit_count()]
        after = BUILT[right.bit_count() + 1] if masks[colour] & lands else 0
        gain += sign * (after - before)
    return gain


def after(turn: Turn, colour: int, origin: int | None, hole: int, t: int) -> tuple[Planes, tuple[int, ...], int]:
    """The planes, the box and the hole of the marble played, after the move."""
    planes = place(turn.planes, colour, origin, hole)
    box = turn.box if origin is not None else tuple(n - (c == colour) for c, n in enumerate(turn.box))
    if t == BARE:
        return planes, box, hole
    return rotate(planes, t), box, tables().image[t][hole].bit_length() - 1
