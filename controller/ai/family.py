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
- level 1: the best move one ply ahead by the open-lines score (:mod:`.family_eval`), with a
  seeded jitter so games vary;
- levels 2 and 3: a paranoid search (every other colour plays against us) over the best few
  moves of each seat by its own one-ply score, deepened one ply at a time while the budget lasts
  (level 2: two plies, the next seat's reply; level 3: three, the seat after it too). The search
  counts one node per position it expands; without a deadline each level stops after its own node
  budget (:data:`NODES`), so a call without one repeats exactly.

The search treats any five as the end of the game (a place earned in multiplayer is what the seat
plays for). bench/ai_family.py measures the levels against greedy players.

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

from ..rules import Move, PlaceTwistGame, Phase
from .budget import Budget, OutOfBudget
from .family_board import NO_TWIST, Planes, Seating, occupied, rotate
from .family_eval import Scored, evaluate, play, scored_moves

WIN = 1_000_000
NODES = {2: 60, 3: 400}  # expansions per level without a deadline
WIDTHS = {2: (8, 6), 3: (10, 8, 6)}  # moves looked at per ply, from the root
JITTER = 40  # levels 0 and 1: evaluation units of noise
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
    winning holes first), a gift (another colour gets five)."""
    tb, me = seating.tables, seating.colour_of[seat]
    foe = seating.colour_of[seating.next_seat(seat)]
    others = [c for c in range(seating.colours) if c != me and (c in seating.live or not seating.places)]
    frames: dict[int, tuple[Planes, int, bool]] = {}
    out: list[list[Scored]] = [[] for _ in range(6)]
    risky: list[tuple[int, Scored]] = []
    for move in moves:
        _, hole, t = move
        if t not in frames:
            turned = rotate(planes, t, tb)
            frames[t] = (turned, winning_holes(turned, foe, seating), any(tb.has_five(turned[c]) for c in others))
        turned, threats, gives = frames[t]
        lands = 1 << hole if t < 0 else tb.image[t][hole]
        if tb.has_five(turned[me] | lands):
            out[DRAWN if gives and not seating.places else SHARED if gives else WON].append(move)
        elif gives:
            out[GIFT].append(move)
        elif threats & ~lands:
            risky.append(((threats & ~lands).bit_count(), move))
        else:
            out[SAFE].append(move)
    out[RISKY] = [move for _, move in sorted(risky, key=lambda r: r[0])]
    return out


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


class Searcher:
    """A paranoid alpha-beta search over each seat's best few moves, from ``me``'s view."""

    def __init__(self, seating: Seating, me: int, budget: Budget, level: int) -> None:
        self.seating, self.me, self.budget = seating, me, budget
        self.widths = WIDTHS[level]

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
        self._tick()
        s = self.seating
        colour = s.colour_of[seat]
        if winning_holes(planes, colour, s):
            return WIN - ply if colour == self.me else ply - WIN
        if occupied(planes) == s.tables.full:
            return 0
        if depth == 0:
            return evaluate(planes, self.me, s)
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

    def _tick(self) -> None:
        """One expansion; every one is costly, so the deadline is read at each."""
        self.budget.tick()
        if self.budget.deadline is not None and self.budget.deadline():
            raise OutOfBudget("deadline reached")
