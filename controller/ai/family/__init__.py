"""The computer at multiplayer and team seats (9x9, two to four seats): tactics, then a shallow search.

Every level plays the same tactics first, in this order:

1. take a five now: on placement, else by a twist that gives no other colour five; in
   multiplayer a twist that shares the place with others comes next (a shared first place);
2. never hand a five over: drop the moves whose twist gives another colour five, and the moves
   after which the next seat can make five in one (on placement, or by a placement and a twist),
   unless every move does (then it plays the move that leaves that seat the fewest winning holes;
   in teams a twist making both pairs five, a draw, comes first);
3. in teams, the partner's stones are the pair's colour, so building with them is building.

Then, among the moves left, each level picks its own way:

- level 0 (beginner): level 1's move half the time, else a move drawn at random;
- level 1: the best move one ply ahead by the open-lines score (:mod:`.family.scoring`), less
  :data:`LATER_THREAT` for each later seat it leaves a five in one (the seats between may not
  block it), with a seeded jitter so games vary;
- levels 2 and 3 look a whole round ahead: from each of their best few moves, every other seat in
  turn plays its own best move by that same one-ply score (taking a five when it has one), and
  the position the round leaves is scored for the computer, counting every five in one left on
  the board (:meth:`Searcher._threats`). Level 3 looks at more of its moves and at its own best
  four after the round (:func:`widths`). Each position expanded is a node of the budget; without
  a deadline each level stops after its own node budget (:data:`NODES`), so a call without one
  repeats exactly.

Modelling every other seat by its own best move (rather than as a coalition against the computer,
which made it play scared and lose more games, as measured) is what a table of people mostly does;
the tactics above still never let the next seat's five in one stand. The look-ahead treats any
five as the end of the game (a place earned in multiplayer is what each seat plays for).
bench/ai_family.py measures the levels against greedy players.

>>> from controller.rules import MultiplayerGame, Position
>>> rows = "xxxx....." + "/........." * 7 + "/oooo....."
>>> game = MultiplayerGame(3, position=Position.parse(rows, colours=3), to_move=2)
>>> game.move_name(family_move(game, level=0, budget=Budget(nodes=10)))  # o takes its five
'e1'
>>> game = MultiplayerGame(3, position=Position.parse(rows, colours=3), to_move=3)
>>> game.move_name(family_move(game, level=1, budget=Budget(nodes=10)))[:2]  # seat 3 must stop x at e9
'e9'
"""

from __future__ import annotations

import random

from ...rules import Move, PlaceTwistGame, Phase
from ..budget import Budget, OutOfBudget
from .board import NO_TWIST, Planes, Seating, occupied, rotate
from .scoring import Scored, evaluate, play, scored_moves

WIN = 1_000_000
NODES = {2: 200, 3: 1500}  # expansions per level without a deadline
ROOT_WIDTHS = {2: 8, 3: 12}  # the computer's own moves looked at
REPLY_WIDTH = 1  # each other seat's moves looked at: its best
AFTER_ROUND = {2: 0, 3: 4}  # the computer's moves looked at after the round
JITTER = 40  # levels 0 and 1: evaluation units of noise
LATER_THREAT = 2000  # a later seat left a five in one: worse than any shape, not a certain loss
BEGINNER_CARE = 0.5  # the share of its moves the beginner plays with level 1's care


def family_move(game: PlaceTwistGame, level: int, budget: Budget, seed: int = 0) -> Move:
    """The move of the seat to move in a multiplayer or team ``game`` at ``level`` (0-3)."""
    if game.phase is not Phase.PLACE:
        raise ValueError(f"the computer opponent moves only when a placement is due, not in phase {game.phase.value!r}")
    seating = Seating.of(game)
    planes, seat = game.position.stones, game.to_move
    hole, t, five = choose(planes, seat, seating, level, budget, random.Random(seed))
    return seating.move(hole, t, occupied(planes), five)


def choose(planes: Planes, seat: int, seating: Seating, level: int, budget: Budget,
           rng: random.Random) -> tuple[int, int, bool]:
    """``(hole, t, makes five on placement)`` for ``seat`` (see the module doc)."""
    tb, me = seating.tables, seating.colour_of[seat]
    fives = tb.completions(planes[me], tb.full & ~occupied(planes))
    if fives:
        return fives.bit_length() - 1, NO_TWIST, True
    moves = sorted(scored_moves(planes, me, seating), reverse=True)
    if not moves:
        raise ValueError("no legal move: the board is full")
    classes = classify(planes, seat, moves, seating)
    for kind in (WON, SHARED):
        if classes[kind]:
            return (*classes[kind][0][1:], False)
    safe = classes[SAFE]
    if not safe:
        fallback = classes[DRAWN] or classes[RISKY] or classes[GIFT]
        return (*fallback[0][1:], False)
    if level >= 2:
        return (*Searcher(seating, me, budget, level).best(planes, seat, safe), False)
    if level == 0 and rng.random() >= BEGINNER_CARE:
        return (*rng.choice(safe)[1:], False)
    best = max(safe, key=lambda m: m[0] + rng.randrange(JITTER))
    return (*best[1:], False)


WON, SHARED, SAFE, DRAWN, RISKY, GIFT = range(6)


def classify(planes: Planes, seat: int, moves: list[Scored], seating: Seating) -> list[list[Scored]]:
    """``moves`` (best first) sorted into what they do: a clean five, a shared five (multiplayer),
    safe, a draw (teams: both pairs five), risky (the next seat can then make five; fewest
    winning holes first), a gift (another colour gets five). Safe moves that leave a later seat
    a five in one lose :data:`LATER_THREAT` per such seat (the seats between may not block it)."""
    tb, me = seating.tables, seating.colour_of[seat]
    order = _seats_after(seat, seating)
    foe = seating.colour_of[order[0]]
    later = [c for c in dict.fromkeys(seating.colour_of[s] for s in order[1:]) if c not in (me, foe)]
    others = [c for c in range(seating.colours) if c != me and (c in seating.live or not seating.places)]
    frames: dict[int, tuple[Planes, int, list[int], bool]] = {}
    out: list[list[Scored]] = [[] for _ in range(6)]
    risky: list[tuple[int, Scored]] = []
    for move in moves:
        score, hole, t = move
        if t not in frames:
            turned = rotate(planes, t, tb)
            frames[t] = (turned, winning_holes(turned, foe, seating),
                         [winning_holes(turned, c, seating) for c in later],
                         any(tb.has_five(turned[c]) for c in others))
        turned, threats, threats_later, gives = frames[t]
        lands = 1 << hole if t < 0 else tb.image[t][hole]
        if tb.has_five(turned[me] | lands):
            out[DRAWN if gives and not seating.places else SHARED if gives else WON].append(move)
        elif gives:
            out[GIFT].append(move)
        elif threats & ~lands:
            risky.append(((threats & ~lands).bit_count(), move))
        else:
            left = sum(1 for holes in threats_later if holes & ~lands)
            out[SAFE].append((score - LATER_THREAT * left, hole, t))
    out[SAFE].sort(reverse=True)
    out[RISKY] = [move for _, move in sorted(risky, key=lambda r: r[0])]
    return out


def _seats_after(seat: int, seating: Seating) -> list[int]:
    """The seats still playing after ``seat``, in turn order."""
    order, current = [], seat
    for _ in seating.seats:
        current = seating.next_seat(current)
        if current == seat:
            break
        order.append(current)
    return order or [seat]


def winning_holes(planes: Planes, colour: int, seating: Seating) -> int:
    """The holes where a placement of ``colour`` makes five, on placement or with an allowed
    twist (every empty hole when a twist alone makes it)."""
    tb = seating.tables
    occ = occupied(planes)
    empty, stones = tb.full & ~occ, planes[colour]
    out = tb.completions(stones, empty)
    for u in seating.twists:
        turned = tb.rotate(stones, u)
        if tb.has_five(turned):
            return empty
        hits = tb.completions(turned, tb.full & ~tb.rotate(occ, u))
        if hits:
            out |= tb.rotate(hits, u ^ 1)  # back to where the stone is placed, before the twist
    return out


def widths(level: int, seats: int) -> tuple[int, ...]:
    """Moves looked at per ply from the root, for ``seats`` seats still playing: a whole round.

    >>> widths(2, 3), widths(3, 4)
    ((8, 1, 1), (12, 1, 1, 1, 4))
    """
    after = (AFTER_ROUND[level],) if AFTER_ROUND[level] else ()
    return (ROOT_WIDTHS[level], *(REPLY_WIDTH,) * (seats - 1), *after)


class Searcher:
    """An alpha-beta look-ahead over each seat's best few moves, from ``me``'s view (the
    computer's nodes take the most, the others' the least of what they look at)."""

    def __init__(self, seating: Seating, me: int, budget: Budget, level: int) -> None:
        self.seating, self.me, self.budget = seating, me, budget
        self.widths = widths(level, len(seating.seats))

    def best(self, planes: Planes, seat: int, safe: list[Scored]) -> tuple[int, int]:
        """The best of the ``safe`` root moves (best first by one ply) the budget lets it prove."""
        roots = safe[: self.widths[0]]
        best = roots[0][1:]
        for depth in range(2, len(self.widths) + 1):
            try:
                best = self._root(planes, seat, roots, depth)
            except OutOfBudget:
                break
        return best

    def _root(self, planes: Planes, seat: int, roots: list[Scored], depth: int) -> tuple[int, int]:
        after_seat = self.seating.next_seat(seat)
        alpha, best = -WIN - 1, roots[0][1:]
        for _, hole, t in roots:
            value = self._value(play(planes, self.me, hole, t, self.seating), after_seat, depth - 1, 1, alpha, WIN + 1)
            if value > alpha:
                alpha, best = value, (hole, t)
        return best

    def _value(self, planes: Planes, seat: int, depth: int, ply: int, alpha: int, beta: int) -> int:
        self.budget.tick_costly()
        s = self.seating
        colour = s.colour_of[seat]
        if winning_holes(planes, colour, s):
            return WIN - ply if colour == self.me else ply - WIN
        if occupied(planes) == s.tables.full:
            return 0
        if depth == 0:
            return evaluate(planes, self.me, s) + self._threats(planes, colour)
        moves = sorted(scored_moves(planes, colour, s), reverse=True)[: self.widths[ply]]
        maximise, after_seat = colour == self.me, s.next_seat(seat)
        best = -WIN - 1 if maximise else WIN + 1
        for _, hole, t in moves:
            value = self._value(play(planes, colour, hole, t, s), after_seat, depth - 1, ply + 1, alpha, beta)
            if maximise:
                best, alpha = max(best, value), max(alpha, value)
            else:
                best, beta = min(best, value), min(beta, value)
            if alpha >= beta:
                break
        return best

    def _threats(self, planes: Planes, to_move: int) -> int:
        """What the fives in one of the colours not to move are worth to us at a leaf: a later
        seat may still block them, so less than a five."""
        total = 0
        for colour in self.seating.live - {to_move}:
            if winning_holes(planes, colour, self.seating):
                total += LATER_THREAT // 4 if colour == self.me else -LATER_THREAT
        return total

