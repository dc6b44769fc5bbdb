"""The compiled search's inner loop (numba): negamax below the root on 64-bit bitboards.

Imported only by :mod:`.compiled` when the ``fast`` extra is installed; see there for what it
does and how it differs from :mod:`.search` (in speed only). Each function mirrors one of the
pure-Python search's, named alike: :func:`_children` is :class:`.moves.Node`'s children,
:func:`_safe_holes` is :meth:`.lanes.TwistLanes.safe_holes` (one twist's lane), :func:`_evaluate` is :func:`.evaluate.evaluate`,
:func:`_negamax` is :meth:`.search.Searcher.negamax` with its ``_best_child``. The tables are
module globals, which numba compiles in as constants; ``cache=True`` keeps the build on disk.

>>> from controller.ai.evaluate import evaluate
>>> from controller.rules import Position
>>> me, opp = Position.parse("xxx..." + "." * 24 + "oo....").stones
>>> _evaluate(me, opp) == evaluate(me, opp), _rotate(1 << 30, 0) == 1 << 32  # a6 to c6
(True, True)
"""

from typing import Any

import numpy as np
from numba import njit

from .evaluate import CENTRE_WEIGHT, LINE_WEIGHTS, OPP_WEIGHTS, TEMPO, WIN
from .moves import DRAW, LOSES_NEXT, LOSS
from .moves import WIN as WON
from .search import EXACT, INFINITY, LOWER, MATE_ZONE, UPPER
from .tables import COMPILED_SIZE, search_tables

TABLE_BITS = 20  # 2^20 slots of the transposition table (48 MB)
MAX_PLY = 40  # more than the 36 plies a game can last
MAX_CHILDREN = 36 * 8
PLAY_ON = 9  # a child after which play goes on (None in moves.py); the other results are moves'


def _tables() -> tuple[Any, ...]:
    tb = search_tables(COMPILED_SIZE)
    g = tb.geometry
    return (np.array(tb.image, dtype=np.int64), np.array(tb.masks, dtype=np.int64),
            np.array(g.block_holes, dtype=np.int64), np.array([s for s, _ in g._five_scans], dtype=np.int64),
            np.array([m for _, m in g._five_scans], dtype=np.int64), np.array(tb.lines, dtype=np.int64),
            np.array([bin(i).count("1") for i in range(1 << 12)], dtype=np.int64),
            np.array(LINE_WEIGHTS, dtype=np.int64), np.array(OPP_WEIGHTS, dtype=np.int64))


_IMAGE, _MASKS, _BLOCKS, _SCANS, _STARTS, _LINES, _POP, _W, _OW = _tables()
_FULL = search_tables(COMPILED_SIZE).full
_CENTRES = search_tables(COMPILED_SIZE).centres


def new_state() -> tuple[Any, ...]:
    """A search's tables: transposition table, history, twist cut-offs, counters (nodes, node
    limit, stopped, stamp, work, work limit) and per-ply scratch for children, seen boards and
    order keys. Work is the nodes and the children they built: what a node costs varies with
    its children, so a chunk of work takes about the same time anywhere in the game."""
    # An empty slot reads as stones 0 and 0: no position below the root has no stones at all
    # (the root's move placed one). Zeroed pages cost nothing until a slot is written.
    tt = np.zeros((1 << TABLE_BITS, 6), dtype=np.int64)
    return (tt, np.zeros(36 * 8, dtype=np.int64), np.zeros(8, dtype=np.int64), np.zeros(6, dtype=np.int64),
            np.zeros((MAX_PLY, MAX_CHILDREN, 5), dtype=np.int64), np.zeros((MAX_PLY, 1024, 3), dtype=np.int64),
            np.zeros((MAX_PLY, MAX_CHILDREN), dtype=np.int64))


@njit(cache=True, inline="always")
def _pop(x: int) -> int:
    return _POP[x & 4095] + _POP[(x >> 12) & 4095] + _POP[(x >> 24) & 4095]


@njit(cache=True)
def _rotate(x: int, t: int) -> int:
    inside = x & _MASKS[t]
    if inside == 0:
        return x
    out = x ^ inside
    for k in range(9):
        h = _BLOCKS[t >> 1, k]
        if (inside >> h) & 1:
            out |= _IMAGE[t, h]
    return out


@njit(cache=True)
def _has_five(x: int) -> bool:
    for d in range(4):
        s = _SCANS[d]
        p = x & (x >> s)
        if p & (p >> (2 * s)) & (x >> (4 * s)) & _STARTS[d]:
            return True
    return False


@njit(cache=True)
def _completions(x: int, empty: int) -> int:
    y = x | empty
    out = 0
    for d in range(4):
        s1 = _SCANS[d]
        s2, s3, s4 = 2 * s1, 3 * s1, 4 * s1
        w = y & (y >> s1)
        w &= (w >> s2) & (y >> s4) & _STARTS[d]
        if w:
            a1, a2, a3 = x >> s1, x >> s2, x >> s3
            p01, p23 = x & a1, a2 & a3
            w &= (p01 & p23) | ((x >> s4) & ((p01 & (a2 | a3)) | (p23 & (x | a1))))
            if w:
                out |= (w | (w << s1) | (w << s2) | (w << s3) | (w << s4)) & empty
    return out


@njit(cache=True)
def _evaluate(me: int, opp: int) -> int:
    score = TEMPO + CENTRE_WEIGHT * (_pop(me & _CENTRES) - _pop(opp & _CENTRES))
    for i in range(_LINES.shape[0]):
        line = _LINES[i]
        a = me & line
        b = opp & line
        if b == 0:
            score += _W[_pop(a)]
        elif a == 0:
            score -= _OW[_pop(b)]
    return score


@njit(cache=True)
def _safe_holes(mine: int, theirs: int, t: int) -> int:
    """As lanes.TwistLanes.safe_holes, for one twist that gives the opponent no five."""
    empty = _FULL & ~(mine | theirs)
    safe = empty
    wins = _completions(theirs, empty)
    if wins:
        safe &= wins if (wins & (wins - 1)) == 0 else 0
    for t2 in range(8):
        if safe == 0:
            return 0
        mine2, theirs2 = _rotate(mine, t2), _rotate(theirs, t2)
        empty2 = _FULL & ~(mine2 | theirs2)
        wins = empty2 if _has_five(theirs2) else _completions(theirs2, empty2)
        if wins and not _has_five(mine2):
            stop = wins if (wins & (wins - 1)) == 0 else 0
            safe &= _rotate(stop | _completions(mine2, empty2), t2 ^ 1)
    return _rotate(safe, t ^ 1)


@njit(cache=True)
def _children(me: int, opp: int, kids: Any, seen: Any, stamp: int) -> int:
    """Every distinct child of a position in which no placement wins, into ``kids`` rows
    (hole, twist, my stones after, the opponent's after, result); their count."""
    n = 0
    empty = _FULL & ~(me | opp)
    for t in range(8):
        mine, theirs = _rotate(me, t), _rotate(opp, t)
        opp_five = _has_five(theirs)
        fives = _FULL if _has_five(mine) else _completions(mine, _FULL & ~(mine | theirs))
        safe = -1
        for hole in range(36):
            if not (empty >> hole) & 1:
                continue
            bit = _IMAGE[t, hole]
            after = mine | bit
            slot = ((after * 0x9E3779B1) ^ (theirs * 0x85EBCA77)) >> 7 & 1023
            while seen[slot, 2] == stamp and not (seen[slot, 0] == after and seen[slot, 1] == theirs):
                slot = (slot + 1) & 1023
            if seen[slot, 2] == stamp:
                continue  # this board was handed out already
            seen[slot, 0], seen[slot, 1], seen[slot, 2] = after, theirs, stamp
            if bit & fives:
                result = DRAW if opp_five else WON
            elif opp_five:
                result = LOSS
            elif (after | theirs) == _FULL:
                result = DRAW
            else:
                if safe < 0:
                    safe = _safe_holes(mine, theirs, t)
                result = PLAY_ON if (safe >> hole) & 1 else LOSES_NEXT
            kids[n, 0], kids[n, 1], kids[n, 2], kids[n, 3], kids[n, 4] = hole, t, after, theirs, result
            n += 1
    return n


@njit(cache=True, inline="always")
def _slot(me: int, opp: int) -> int:
    h = me * 0x1E3779B97F4A7C15 + opp * 0x232BE59BD9B4E019  # below 2**63: int64 arithmetic
    return (h ^ (h >> 29)) & ((1 << TABLE_BITS) - 1)


@njit(cache=True, inline="always")
def _terminal(result: int, ply: int) -> int:
    """:func:`.search.terminal_score`, compiled."""
    if result == DRAW:
        return 0
    if result == LOSES_NEXT:
        return -(WIN - ply - 2)
    return -(WIN - ply - 1) if result == LOSS else WIN - ply - 1


@njit(cache=True)
def _negamax(me: int, opp: int, depth: int, alpha: int, beta: int, ply: int, state: Any) -> int:
    tt, history, cutoffs, counters, kids, seen, keys = state
    alpha0 = alpha
    counters[0] += 1
    counters[4] += 1
    if counters[0] > counters[1] or counters[4] > counters[5]:
        counters[2] = 1
        return 0
    slot = _slot(me, opp)
    remembered = -1
    if tt[slot, 0] == me and tt[slot, 1] == opp:
        score = tt[slot, 4]
        if score > MATE_ZONE:
            score -= ply
        elif score < -MATE_ZONE:
            score += ply
        flag = tt[slot, 3]
        if tt[slot, 2] >= depth and (flag == EXACT or (flag == LOWER and score >= beta)
                                     or (flag == UPPER and score <= alpha)):
            return score
        remembered = tt[slot, 5]
    if depth == 0:
        return _evaluate(me, opp)
    if _completions(me, _FULL & ~(me | opp)):
        return WIN - ply - 1  # a placement makes five: nothing scores higher
    counters[3] += 1
    stamp = counters[3]
    row = kids[ply]
    n = _children(me, opp, row, seen[ply], stamp)
    counters[4] += n
    order = keys[ply]
    for i in range(n):
        result = row[i, 4]
        move = row[i, 0] * 8 + row[i, 1]
        if result == LOSS or result == LOSES_NEXT:
            order[i] = -(1 << 40)
        elif result == WON:
            order[i] = 1 << 41  # a win first
        elif move == remembered:
            order[i] = 1 << 40  # then the move the table remembers
        else:
            order[i] = history[move] - _evaluate(row[i, 3], row[i, 2])
    ranked = np.argsort(-order[:n], kind="mergesort")
    best, best_move = -INFINITY, -1
    for j in range(n):
        i = ranked[j]
        result = row[i, 4]
        if result != PLAY_ON:
            score = _terminal(result, ply)
        elif depth == 1:
            counters[0] += 1
            score = -_evaluate(row[i, 3], row[i, 2])
        elif best_move < 0:
            score = -_negamax(row[i, 3], row[i, 2], depth - 1, -beta, -alpha, ply + 1, state)
        else:
            score = -_negamax(row[i, 3], row[i, 2], depth - 1, -alpha - 1, -alpha, ply + 1, state)
            if alpha < score < beta and counters[2] == 0:
                score = -_negamax(row[i, 3], row[i, 2], depth - 1, -beta, -score, ply + 1, state)
        if counters[2]:
            return 0
        if score > best:
            best, best_move = score, row[i, 0] * 8 + row[i, 1]
            if score > alpha:
                alpha = score
            if alpha >= beta:
                history[best_move] += depth * depth
                cutoffs[row[i, 1]] += depth * depth
                break
    if best_move < 0:
        return 0
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    stored = best + ply if best > MATE_ZONE else (best - ply if best < -MATE_ZONE else best)
    tt[slot, 0], tt[slot, 1], tt[slot, 2], tt[slot, 3], tt[slot, 4], tt[slot, 5] = (
        me, opp, depth, flag, stored, best_move)
    return best


negamax = _negamax
