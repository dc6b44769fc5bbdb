"""Move generation on raw bitboards: every distinct child of a position, already judged.

A position inside the search is two bitboards, ``me`` (the side to move) and ``opp``. A child is
``(hole, t, me_after, opp_after, result)``: place on ``hole``, then twist ``t`` (-1 for a
placement that makes five, which ends the game with no twist). ``result`` follows the classic
rules exactly: five on placement wins at once; after the twist both colours five is a draw, only
the opponent's five is a loss, a full board without five is a draw; None means play goes on.
Twists that give the same board (a neutral block, a symmetric block) are listed once.

>>> from controller.rules import Position
>>> p = Position.parse("xxxx.." + "." * 24 + "oooo..")
>>> me, opp = p.stones
>>> has_winning_move(me, opp)
True
>>> [c for c in expand(me, opp) if c[4] == WIN][0][:2]  # a6-d6 plus e6 (hole 34) is five on placement
(34, -1)
"""

from __future__ import annotations

from .tables import SearchTables, search_tables

WIN, DRAW, LOSS = 1, 0, -1

Child = tuple[int, int, int, int, "int | None"]


def completions(stones: int, empty: int, tables: SearchTables) -> int:
    """The holes of ``empty`` where one more stone gives ``stones`` five in a row."""
    if not tables.geometry.has_five(stones | empty):
        return 0
    out = 0
    for line in tables.lines:
        rest = line & ~stones
        if rest & empty and not rest & (rest - 1):
            out |= rest
    return out


def has_winning_move(me: int, opp: int, tables: SearchTables | None = None) -> bool:
    """True if the side to move can win with its next move (on placement or after a twist)."""
    tb = tables or search_tables()
    has_five, full = tb.geometry.has_five, tb.full
    if completions(me, full & ~(me | opp), tb):
        return True
    for t in range(len(tb.twists)):
        turned_opp = tb.rotate(opp, t)
        if has_five(turned_opp):
            continue  # any move with this twist gives the opponent five: a draw at best
        turned_me = tb.rotate(me, t)
        if has_five(turned_me) or completions(turned_me, full & ~(turned_me | turned_opp), tb):
            return True
    return False


def expand(me: int, opp: int, tables: SearchTables | None = None) -> list[Child]:
    """Every distinct move of the side to move, with the position after it and its result."""
    tb = tables or search_tables()
    empty = tb.full & ~(me | opp)
    placement_wins = completions(me, empty, tb)
    children: list[Child] = [(h, -1, me | 1 << h, opp, WIN) for h in _holes(placement_wins)]
    holes = _holes(empty & ~placement_wins)
    seen: set[tuple[int, int]] = set()
    for t in range(len(tb.twists)):
        children.extend(_twisted(me, opp, t, holes, seen, tb))
    return children


def _twisted(
    me: int, opp: int, t: int, holes: list[int], seen: set[tuple[int, int]], tb: SearchTables
) -> list[Child]:
    """The children that end with twist ``t``, skipping boards already in ``seen``."""
    has_five, full, image = tb.geometry.has_five, tb.full, tb.image[t]
    turned_me, turned_opp = tb.rotate(me, t), tb.rotate(opp, t)
    opp_five = has_five(turned_opp)
    mine_all = has_five(turned_me)
    mine = full if mine_all else completions(turned_me, full & ~(turned_me | turned_opp), tb)
    out: list[Child] = []
    for h in holes:
        bit = image[h]
        after = turned_me | bit
        if (after, turned_opp) in seen:
            continue
        seen.add((after, turned_opp))
        out.append((h, t, after, turned_opp, _judge(bit & mine, opp_five, after | turned_opp == full)))
    return out


def _judge(mine: int, opp_five: bool, full: bool) -> int | None:
    if mine:
        return DRAW if opp_five else WIN
    if opp_five:
        return LOSS
    return DRAW if full else None


def _holes(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
