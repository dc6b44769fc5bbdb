"""Iterative-deepening negamax with alpha-beta (principal variation search: the first move with
the full window, the others with a null window) and a transposition table, on raw bitboards.

Scores are from the side to move's view: :data:`WIN` minus the number of plies to the win for a
forced win (so quicker wins score higher), 0 for a draw, static evaluations in between. Depth 1
is always searched in full, whatever the budget; deeper iterations stop when the budget or the
deadline runs out, and a deeper move replaces the previous best only once it is proved better.
A move after which the opponent can win at once is scored as that loss without a node of its own
(see :data:`~controller.ai.moves.LOSES_NEXT`), so every node searched is one where the side to
move cannot win at once, and a leaf is scored by the static evaluation alone.

>>> from controller.rules import Position
>>> me, opp = Position.parse("xxxx.." + "." * 24 + "oooo..").stones
>>> result = search(me, opp, Budget(nodes=500))
>>> result.move, result.score > WIN - 10
((34, -1), True)
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..rules.geometry import bits
from .budget import Budget, OutOfBudget
from .evaluate import WIN, evaluate, their_stone
from .moves import DRAW, LOSES_NEXT, LOSS, Child, Node, expand
from .ordering import History, order
from .tables import SearchTables, search_tables

EXACT, LOWER, UPPER = 0, 1, 2
MATE_ZONE = WIN - 1000  # scores beyond this are proven wins or losses
INFINITY = WIN + 1


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search: the move as ``(hole, twist index)``, its score, the effort."""

    move: tuple[int, int]
    score: int
    depth: int  # the deepest iteration completed (or proved to improve on the one before)
    nodes: int


class Searcher:
    """One search's state: the transposition table, the history tables and the budget.

    A node one ply from the horizon (the frontier) scores its children without a search of
    their own (each counts as a node): the static score of one board per twist, changed by each
    placement's lines (:func:`~controller.ai.evaluate.their_stone`), the twists in the order
    that cut off most often, until one child reaches beta. A deeper node tries the move its table
    entry remembers first, then orders the rest by the same scores plus the history of cut-offs.
    A child whose result is known (a win, a draw, a loss, or a loss next ply) is never searched:
    the best of those is where a node's score starts.
    """

    def __init__(self, budget: Budget, tables: SearchTables) -> None:
        self.budget = budget
        self.tables = tables
        self.shift = tables.geometry.hole_count
        self.table: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.history: History = {}
        self.twist_cutoffs = [0] * len(tables.twists)
        # per position searched, its safe holes per twist: deeper iterations meet it again
        self.safe_holes: dict[int, list[int]] = {}

    def negamax(self, me: int, opp: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of ``(me, opp)`` searched ``depth`` plies deep within ``(alpha, beta)``."""
        self.budget.tick()
        key = me | opp << self.shift
        entry = self.table.get(key)
        remembered = None
        if entry is not None:
            stored_depth, flag, stored, remembered = entry
            score = _from_table(stored, ply)
            if stored_depth >= depth and (
                flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha)
            ):
                return score
        if depth == 0:  # the side to move cannot win at once: the move that led here was safe
            return evaluate(me, opp, self.tables)
        first = None
        if depth >= 2 and remembered is not None:  # most often it cuts off, before anything is built
            hole, t = remembered
            after, theirs = self.tables.rotate(me | 1 << hole, t), self.tables.rotate(opp, t)
            first = -self.negamax(theirs, after, depth - 1, -beta, -alpha, ply + 1)
            if first >= beta:
                self._cutoff(remembered, depth)
                self.table[key] = (depth, LOWER, _to_table(first, ply), remembered)
                return first
        node = Node(me, opp, self.tables, replies=True, safe=self.safe_holes.get(key), can_win=False)
        move: tuple[int, int] | None
        if depth == 1:
            best, move = self._frontier(node, alpha, beta, ply)
        else:
            best, move = self._interior(node, remembered, first, depth, alpha, beta, ply)
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, flag, _to_table(best, ply), move)
        if node.safe_sets is not None:
            self.safe_holes[key] = node.safe_sets
        return best

    def _frontier(self, node: Node, alpha: int, beta: int, ply: int) -> tuple[int, tuple[int, int] | None]:
        """A node one ply from the horizon: its best child by static score, each a node, twist
        by twist, those that cut off most often first."""
        tick, best, move = self.budget.tick, -INFINITY, None
        seen: set[tuple[int, int]] = set()
        for t in sorted(range(len(self.twist_cutoffs)), key=self.twist_cutoffs.__getitem__, reverse=True):
            known = node.judged(t)[3]
            if known is not None and terminal_score(known, ply) > best:
                best, move = terminal_score(known, ply), None  # the table remembers only moves searched
                if best >= beta:
                    break
            for hole, _, _, static in self._played_on(node, t, seen):
                tick()
                if -static > best:
                    best, move = -static, (hole, t)
                    if best >= beta:
                        self._cutoff(move, 1)
                        return best, move
        return best, move

    def _interior(self, node: Node, remembered: tuple[int, int] | None, first: int | None, depth: int,
                  alpha: int, beta: int, ply: int) -> tuple[int, tuple[int, int] | None]:
        """A node two or more plies from the horizon, whose ``remembered`` move (the table's) was
        searched already if ``first`` is its score: its other children, best first by their
        static scores and the history of cut-offs."""
        best, move = -INFINITY, None
        twists = range(len(self.twist_cutoffs))
        for t in twists:
            known = node.judged(t)[3]
            if known is not None and terminal_score(known, ply) > best:
                best = terminal_score(known, ply)  # the table remembers only moves searched
        if first is not None and first > best:
            best, move = first, remembered
        alpha = max(alpha, best)
        if alpha >= beta:
            return best, move
        history, seen = self.history, set()
        if first is not None and remembered is not None:  # searched already: not again
            hole, t = remembered
            mine, theirs = node.judged(t)[:2]
            seen.add((mine | self.tables.image[t][hole], theirs))
        children = [(history.get((hole, t), 0) - static, hole, t, after, theirs)
                    for t in twists for hole, theirs, after, static in self._played_on(node, t, seen)]
        children.sort(key=_first, reverse=True)
        searched = first is not None
        for _, hole, t, after, theirs in children:
            if not searched:
                score = -self.negamax(theirs, after, depth - 1, -beta, -alpha, ply + 1)
                searched = True
            else:  # a null window proves a later move no better cheaply; one that is gets a full window
                score = -self.negamax(theirs, after, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self.negamax(theirs, after, depth - 1, -beta, -score, ply + 1)
            if score > best:
                best, move = score, (hole, t)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._cutoff(move, depth)
                        break
        return best, move

    def _played_on(self, node: Node, t: int, seen: set[tuple[int, int]]) -> Iterator[tuple[int, int, int, int]]:
        """Twist ``t``'s children after which play goes on whose boards are not in ``seen`` (another
        twist reaches some), each with its board (its side to move's stones first) and static
        score: one board's per twist, changed by the lines through where the stone lands."""
        mine, theirs, play = node.judged(t)[:3]
        if not play:
            return
        tables = self.tables
        base = evaluate(theirs, mine, tables)  # the child's score before my stone
        lines, places, centres = tables.landing[t], tables.image[t], tables.centres
        for hole in bits(play):
            after = mine | places[hole]
            if (after, theirs) not in seen:
                seen.add((after, theirs))
                yield hole, theirs, after, base + their_stone(theirs, mine, lines[hole], centres >> hole & 1)

    def _cutoff(self, move: tuple[int, int], depth: int) -> None:
        self.history[move] = self.history.get(move, 0) + depth * depth
        if move[1] >= 0:
            self.twist_cutoffs[move[1]] += depth * depth

    def child_score(self, child: Child, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score for the parent of playing ``child`` (``alpha``, ``beta`` from the child's view)."""
        result = child[4]
        if result is None:
            return -self.negamax(child[3], child[2], depth - 1, alpha, beta, ply + 1)
        return terminal_score(result, ply)


def _first(child: tuple[int, ...]) -> int:
    return child[0]


def terminal_score(result: int, ply: int) -> int:
    """The score for the parent (at ``ply``) of a child whose result is known without a search."""
    if result == DRAW:
        return 0
    if result == LOSES_NEXT:
        return -(WIN - ply - 2)
    return -(WIN - ply - 1) if result == LOSS else WIN - ply - 1


def search(
    me: int,
    opp: int,
    budget: Budget,
    *,
    max_depth: int = 64,
    seed: int = 0,
    tables: SearchTables | None = None,
    progress: Callable[[SearchResult], None] | None = None,
    searcher: Callable[[Budget, SearchTables], Any] | None = None,
) -> SearchResult:
    """The best move for ``me`` found by iterative deepening within ``budget``; ``progress`` is
    called with the best result so far after every completed iteration (a caller that stops
    waiting plays that). ``searcher`` makes what scores the root's children below the root:
    :class:`Searcher` by default, :class:`~controller.ai.compiled.CompiledSearcher` compiled."""
    with _collector_paused():
        return _search(me, opp, budget, max_depth, seed, tables, progress or _ignore, searcher)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the search runs: a search makes no reference
    cycles, so the collector finds nothing in what it makes, but a full collection in the middle
    of one walks the whole heap (tens of milliseconds in a daemon with numba loaded: past the
    deadline). Reference counting still frees everything. It is turned back on only if it was
    on, so of two searches at once the first to end turns it on, and none leaves it off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _search(me: int, opp: int, budget: Budget, max_depth: int, seed: int, tables: SearchTables | None,
            report: Callable[[SearchResult], None],
            searcher: Callable[[Budget, SearchTables], Any] | None) -> SearchResult:
    tb = tables or search_tables()
    searcher_ = (searcher or Searcher)(budget, tb)
    children = expand(me, opp, tb, replies=True)
    if not children:
        raise ValueError("no legal move: the board is full")
    random.Random(seed).shuffle(children)  # ties between equal moves are broken by the seed
    children = order(children, None, {}, tb)
    budget.armed = False
    scored = _iteration(searcher_, children, 1)
    best = SearchResult((scored[0][1][0], scored[0][1][1]), scored[0][0], 1, budget.nodes)
    report(best)
    budget.armed = True
    plies_left = (tb.full & ~(me | opp)).bit_count()  # every ply fills a hole
    for depth in range(2, min(max_depth, plies_left) + 1):
        if abs(best.score) > MATE_ZONE or _deadline_passed(budget):
            break
        children = [child for _, child in scored]
        try:
            scored = _iteration(searcher_, children, depth)
        except OutOfBudget as stop:
            return _improved(best, stop, depth, budget)
        best = SearchResult((scored[0][1][0], scored[0][1][1]), scored[0][0], depth, budget.nodes)
        report(best)
    return SearchResult(best.move, best.score, best.depth, budget.nodes)


def _ignore(result: SearchResult) -> None:
    """No one is watching the search's progress."""


class _Partial(OutOfBudget):
    """The budget ran out mid-iteration after a move beat the previous best."""

    def __init__(self, move: tuple[int, int], score: int) -> None:
        super().__init__("partial iteration")
        self.move, self.score = move, score


def _iteration(searcher: Any, children: list[Child], depth: int) -> list[tuple[int, Child]]:
    """Every root child scored at ``depth`` (exact for the best, bounds for the rest), best first:
    the first with the full window, the others with a null window first, as below the root."""
    alpha = -INFINITY
    scored: list[tuple[int, Child]] = []
    for child in children:
        try:
            if alpha == -INFINITY:
                score = searcher.child_score(child, depth, -INFINITY, INFINITY, 0)
            else:
                score = searcher.child_score(child, depth, -alpha - 1, -alpha, 0)
                if score > alpha:  # better than the best so far: now its score
                    scored.append((score, child))  # as a bound, should the budget run out
                    score = searcher.child_score(child, depth, -INFINITY, -alpha, 0)
                    scored.pop()
        except OutOfBudget:
            if scored:  # the previous best, searched first, has its score at this depth
                best = max(scored, key=lambda s: s[0])
                if best[1] is not children[0]:
                    raise _Partial((best[1][0], best[1][1]), best[0]) from None
            raise
        scored.append((score, child))
        alpha = max(alpha, score)
    scored.sort(key=lambda s: s[0], reverse=True)  # stable: earlier (better-ordered) moves win ties
    return scored


def _improved(best: SearchResult, stop: OutOfBudget, depth: int, budget: Budget) -> SearchResult:
    if isinstance(stop, _Partial):  # it beat the previous best move searched to this depth
        return SearchResult(stop.move, stop.score, depth, budget.nodes)
    return SearchResult(best.move, best.score, best.depth, budget.nodes)


def _deadline_passed(budget: Budget) -> bool:
    return budget.deadline is not None and budget.deadline()


def _to_table(score: int, ply: int) -> int:
    """Mate scores are stored relative to the node, so they stay right at another ply."""
    if score > MATE_ZONE:
        return score + ply
    if score < -MATE_ZONE:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > MATE_ZONE:
        return score - ply
    if score < -MATE_ZONE:
        return score + ply
    return score
