"""Static evaluation: open lines of five, weighted steeply by how many stones they hold.

A line of five that holds stones of one colour only is still open for that colour; the more of
its five holes are filled, the closer the threat, so weights grow steeply with the count. Block
centres never move under a twist, which makes them worth a little extra. The score is from the
side to move's view, in the same units as :data:`WIN` (far above any static score).

>>> from controller.rules import Position
>>> me, opp = Position.parse("xxx..." + "." * 24 + "oo....").stones
>>> evaluate(me, opp) > 0
True
>>> evaluate(opp, me) < 0
True
>>> tb = search_tables()
>>> d1 = 3  # o's stone on d1 makes a1-b1 three of a1-e1
>>> evaluate(me, opp | 1 << d1) == evaluate(me, opp) + their_stone(me, opp, tb.lines_through[d1], False)
True
"""

from __future__ import annotations

from .tables import SearchTables, search_tables

WIN = 1_000_000  # a won position; wins in fewer moves score a little higher
LINE_WEIGHTS = (0, 1, 6, 40, 300, 0)  # by stones in an open line; five is a terminal, never scored
OPP_WEIGHTS = (0, 1, 7, 50, 500, 0)  # the opponent's lines weigh more: they move after our reply
CENTRE_WEIGHT = 3
TEMPO = 10  # being the side to move is worth something
OPP_STEPS = tuple(b - a for a, b in zip(OPP_WEIGHTS, OPP_WEIGHTS[1:]))  # one more stone in an open line


def evaluate(me: int, opp: int, tables: SearchTables | None = None) -> int:
    """The static score of a position for the side to move (``me``)."""
    tb = tables or search_tables()
    mine, theirs = LINE_WEIGHTS, OPP_WEIGHTS
    score = TEMPO + CENTRE_WEIGHT * ((me & tb.centres).bit_count() - (opp & tb.centres).bit_count())
    for line in tb.lines:  # no names for the line's stones: this loop runs at every leaf
        if not opp & line:
            score += mine[(me & line).bit_count()]
        elif not me & line:
            score -= theirs[(opp & line).bit_count()]
    return score


def their_stone(me: int, opp: int, lines: tuple[int, ...], centre: int) -> int:
    """How :func:`evaluate` of ``(me, opp)`` changes when the opponent gets a stone on an empty
    hole, given the ``lines`` of five through that hole and whether it is a block centre (not 0): only
    those lines change, so a search scores a position's children from the score of one board
    per twist (the leaves of the search and its move ordering)."""
    change = -CENTRE_WEIGHT if centre else 0
    for line in lines:
        if not me & line:
            change -= OPP_STEPS[(opp & line).bit_count()]  # their open line gains a stone
        elif not opp & line:
            change -= LINE_WEIGHTS[(me & line).bit_count()]  # my open line is closed
    return change
