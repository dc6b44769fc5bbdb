"""The computer at Pentago Triple seats: complete a pattern, never hand one over, build the rest.

Every level plays the same tactics first:

1. complete a pattern it may claim (a face-up card; its own card with personal cards; the card
   in play in the bonus game) when a move does; among such moves, one after which the next seat
   cannot complete one of the cards still face up (only the cards on the table are looked at,
   never the face-down deck);
2. otherwise never leave a pattern the next seat can complete with its next move (in the
   standard game that would eliminate the computer; with personal cards it would lose; in the
   bonus game it gives the card away) when some move avoids it; if none does, the best-built move.
   With personal cards, where any seat that builds its own card wins, it also prefers a move
   that leaves no later seat its card in one (the seats between may not spoil it). In the
   standard game a later seat's pattern eliminates the seat before it, not the computer;
3. otherwise build towards the cards (:mod:`.triple.scoring`).

The move phase and two-colour play come with the turn: the moves are those the rules allow (a
colour still in the box and in play; in the move phase any marble but the one played last).

Among the safe moves each level picks its own way:

- level 0 (beginner) plays a safe move, half the time one drawn at random, else level 1's, and
  sets no traps: it prefers a move after which the next seat's most natural moves (its best
  one-ply scores, what a child who knows the rules plays) hand nothing on (:func:`Chooser._kind`,
  among the first :data:`KIND_SCAN` safe moves). It still takes every pattern handed to it and
  never hands one on, so it loses only when no safe move is left (the board's last placements
  are where that happens) or draws a long game: against a careless player who knows the rules
  it wins about three games in five with two players, where every other level wins nearly all
  (bench/ai_family.py);
- level 1 the best-built safe move, with a seeded jitter (which also won more games against
  greedy players than always the best-built, as measured);
- levels 2 and 3, when the computer moves again right after the next seat (two seats left),
  fight for the last safe move: between careful players the game is lost by the seat left with
  no safe move, mostly at the board's last placements. Level 2 plays a safe move after which
  every reply of the next seat hands the computer a pattern (a forcing move), looking at its
  best :data:`LOOKS` safe moves, at every safe move once :data:`LATE_BOX` marbles or fewer are
  left in the box. Level 3 does the same and, when it finds no forcing move in the late
  placements, plays the first of its best :data:`DEFEND` safe moves after which the next seat
  has no forcing move of its own. With more seats left, forcing the next seat to hand a
  pattern on would only let another seat eliminate it, so they play the best-built. Each move or reply looked at is a node of the
  budget (:data:`NODES` without a deadline); when it runs out they play the best found so far.

>>> from controller.rules import TripleGame, TripleOptions, parse_cards
>>> game = TripleGame(TripleOptions(players=2, cards=parse_cards("BYRYB")))
>>> for text in ["Ba1 1R", "Yb1 1R", "Rc1 1R"]:
...     game.push_text(text)
>>> game.rows()[-1]  # B Y R on a1-c1: Y on d1 would hand the card to the next seat
'byr...'
>>> game.move_name(triple_move(game, 1, Budget(nodes=50)))[:3] != "Yd1"
True
>>> game.push_text("Yd1 1R")  # a careless move: now the computer completes BYRYB
>>> game.move_name(triple_move(game, 0, Budget(nodes=50)))
'Be1'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from itertools import islice

from ...rules import TripleGame, TripleMove, Phase
from ...rules.triple.cards import Card, occurrences
from ...rules.position import Position
from ..budget import Budget, OutOfBudget
from .board import BARE, Planes, TripleChoice, Turn, can_complete, card_templates, completions, tables
from .scoring import Scored, Weights, after, scored_moves

JITTER = 3  # units of noise in every level's choice (a third right hole in a template gains 6)
BEGINNER_CARE = 0.5
KIND_SCAN = 100  # level 0: safe moves looked at for one that sets no trap
LOOKS = {2: 12, 3: 24}  # safe moves levels 2 and 3 look at for a forcing move, before the late placements
LATE_BOX = 6  # marbles left in the box from which levels 2 and 3 look at every safe move
DEFEND = 48  # level 3: safe moves looked at for one that leaves the next seat no forcing move
NODES = {2: 1500, 3: 20000}
LATER_SCAN = 120  # personal cards: moves looked at for one that no later seat can punish


def triple_move(game: TripleGame, level: int, budget: Budget, seed: int = 0) -> TripleMove:
    """The move of the seat to move in ``game`` at ``level`` (0-3)."""
    if game.phase is not Phase.PLACE or game.lifted is not None:
        raise ValueError(f"the computer opponent moves only when a placement or move is due, not in phase {game.phase.value!r}")
    table = Table(game)
    seat = game.to_move
    turn = table.turn(seat, game.position.stones, tuple(game.in_box(c) for c in range(3)), game.last_played)
    colour, origin, hole, t = Chooser(table, seat, level, budget, random.Random(seed)).choose(turn)
    twist = None if t == BARE else tables().twists[t]
    return TripleMove(hole, None if origin is not None else colour, origin, twist)


class Table:
    """The seats still in ``game`` and the cards each can complete (what everyone can see)."""

    def __init__(self, game: TripleGame) -> None:
        self.mode, self.seats = game.mode, game.playing()
        self.cards: dict[int, tuple[Card, ...]] = {
            s: (game.dealt[s - 1],) if game.mode == "personal" else game.cards for s in self.seats}

    def next_seat(self, seat: int) -> int:
        return next((s for s in self.seats if s > seat), self.seats[0])

    def turn(self, seat: int, planes: Planes, box: tuple[int, ...], last: int | None,
             cards: tuple[Card, ...] | None = None) -> Turn:
        return Turn(planes, box, last, card_templates(self.cards[seat] if cards is None else cards))

    def weights(self, seat: int) -> Weights:
        own = card_templates(self.cards[seat])
        if self.mode != "personal":
            return Weights(own)
        return Weights(own, tuple(t for s in self.seats if s != seat for t in card_templates(self.cards[s])))


class Chooser:
    """One seat's choice (see the module doc)."""

    def __init__(self, table: Table, seat: int, level: int, budget: Budget, rng: random.Random) -> None:
        self.table, self.seat, self.level, self.budget, self.rng = table, seat, level, budget, rng
        self.next = table.next_seat(seat)

    def choose(self, turn: Turn) -> TripleChoice:
        won = completions(turn)
        if won:
            return self._best_completion(turn, won)
        moves = sorted(scored_moves(turn, self.table.weights(self.seat)), key=lambda m: -m[0])
        if not moves:
            raise ValueError("no legal move")
        order = self._ordered(moves)
        duel = self.level >= 2 and self.table.next_seat(self.next) == self.seat
        if self.level == 0:
            return self._kind(turn, islice(self._safe_moves(turn, order), KIND_SCAN)) or moves[0][1:]
        safe = self._safe(turn, order, self._wanted(turn, duel))
        if not safe:
            return moves[0][1:]
        if duel:
            return self._duel(turn, safe)
        return safe[0][1:]

    def _wanted(self, turn: Turn, duel: bool) -> int | None:
        """How many safe moves to find: one, or :data:`LOOKS` for levels 2 and 3 in a duel
        (None, every one, in its late placements)."""
        if not duel:
            return 1
        return None if self._is_late(turn) else LOOKS[self.level]

    @staticmethod
    def _is_late(turn: Turn) -> bool:
        """The board's last placements (:data:`LATE_BOX` marbles or fewer in the box), where
        the seat left with no safe move is decided."""
        return not turn.is_move_phase() and sum(turn.box) <= LATE_BOX

    def _ordered(self, moves: list[Scored]) -> list[Scored]:
        rng = self.rng
        if self.level == 0 and rng.random() >= BEGINNER_CARE:
            shuffled = list(moves)
            rng.shuffle(shuffled)
            return shuffled
        return sorted(moves, key=lambda m: -(m[0] + rng.randrange(JITTER)))

    def _safe(self, turn: Turn, order: list[Scored], wanted: int | None = 1) -> list[Scored]:
        """The first ``wanted`` safe moves of ``order`` (None: all of them)."""
        return list(islice(self._safe_moves(turn, order), wanted))

    def _safe_moves(self, turn: Turn, order: list[Scored]) -> Iterator[Scored]:
        """The safe moves of ``order``, in order, found as they are asked for.

        With personal cards any seat that builds its card wins, so a move that also leaves no
        later seat its card in one comes first, if one turns up among the first
        :data:`LATER_SCAN` moves; otherwise the moves safe from the next seat."""
        later = self._later_seats() if self.table.mode == "personal" else ()
        spare: list[Scored] = []  # safe from the next seat, not from a later one
        found = False
        for looked, move in enumerate(order):
            if spare and not found and looked >= LATER_SCAN:
                break
            if self._hands_over(turn, move[1:]):
                continue
            if later and self._hands_later(turn, move[1:], later):
                spare.append(move)
                continue
            found = True
            yield move
        if not found:
            yield from spare

    def _kind(self, turn: Turn, safe: Iterable[Scored]) -> TripleChoice | None:
        """The beginner's move: the first of ``safe`` after which none of the next seat's
        best-scored moves hands the seat after it a pattern; else the one after which the
        fewest of them do (None: no safe move)."""
        least, chosen = 2.0, None
        for move in safe:
            reply_turn = self._after(turn, move[1:], self.next)
            replies = scored_moves(reply_turn, self.table.weights(self.next))
            top = max((r[0] for r in replies), default=0)
            natural = [r for r in replies if r[0] == top]
            replier = Chooser(self.table, self.next, 1, self.budget, self.rng)
            share = sum(replier._hands_over(reply_turn, r[1:]) for r in natural) / max(1, len(natural))
            if share == 0:
                return move[1:]
            if share < least:
                least, chosen = share, move
        return None if chosen is None else chosen[1:]

    def _duel(self, turn: Turn, safe: list[Scored]) -> TripleChoice:
        """Levels 2 and 3 with two seats left: a forcing move; level 3 else a move that leaves
        the next seat none; else the best-built safe move (also when the budget runs out)."""
        try:
            for move in safe:
                if not self._escapes(self.next, self._after(turn, move[1:], self.next)):
                    return move[1:]
            if self.level >= 3 and self._is_late(turn):
                for move in safe[:DEFEND]:
                    if not self._forces(self._after(turn, move[1:], self.next)):
                        return move[1:]
        except OutOfBudget:
            pass
        return safe[0][1:]

    def _after(self, turn: Turn, move: TripleChoice, seat: int) -> Turn:
        planes, box, last = after(turn, *move)
        return self.table.turn(seat, planes, box, last)

    def _escapes(self, seat: int, seat_turn: Turn) -> bool:
        """True if ``seat`` (to move in ``seat_turn``) can complete a pattern, or has a move
        that hands the seat after it none."""
        if completions(seat_turn):
            return True
        mover = Chooser(self.table, seat, 1, self.budget, self.rng)
        for move in sorted(scored_moves(seat_turn, self.table.weights(seat)), key=lambda m: -m[0]):
            self.budget.tick_costly()
            if not mover._hands_over(seat_turn, move[1:]):
                return True
        return False

    def _forces(self, reply_turn: Turn) -> bool:
        """True if the next seat, to move in ``reply_turn``, has a safe move after which the
        computer has no safe move (it would hand the next seat a pattern whatever it played)."""
        replier = Chooser(self.table, self.next, 1, self.budget, self.rng)
        for move in sorted(scored_moves(reply_turn, self.table.weights(self.next)), key=lambda m: -m[0]):
            self.budget.tick_costly()
            if replier._hands_over(reply_turn, move[1:]):
                continue
            if not self._escapes(self.seat, self._after(reply_turn, move[1:], self.seat)):
                return True
        return False


    def _later_seats(self) -> tuple[int, ...]:
        """The seats that move after the next seat and before the computer again."""
        seats, seat = [], self.table.next_seat(self.next)
        while seat != self.seat:
            seats.append(seat)
            seat = self.table.next_seat(seat)
        return tuple(seats)

    def _hands_later(self, turn: Turn, move: TripleChoice, later: tuple[int, ...]) -> bool:
        planes, box, last = after(turn, *move)
        return any(can_complete(self.table.turn(seat, planes, box, last)) for seat in later)

    def _hands_over(self, turn: Turn, move: TripleChoice, cards: tuple[Card, ...] | None = None) -> bool:
        """True if after ``move`` the next seat can complete a pattern."""
        planes, box, last = after(turn, *move)
        return can_complete(self.table.turn(self.next, planes, box, last, cards))

    def _best_completion(self, turn: Turn, won: list[TripleChoice]) -> TripleChoice:
        if self.table.mode != "shared" or len(self.table.seats) <= 2:
            return won[0]  # the game ends (two players, personal) or the next card is face down
        for move in won:
            planes = after(turn, *move)[0]
            left = tuple(c for c in self.table.cards[self.seat] if not _new(c, turn.planes, planes))
            if not left or not self._hands_over(turn, move, left):
                return move
        return won[0]


def _new(card: Card, before: Planes, now: Planes) -> bool:
    """True if ``card`` stands on ``now`` somewhere it did not stand on ``before``."""
    g = tables().geometry
    was = set(occurrences(card, Position(g, before)))
    return any(o not in was for o in occurrences(card, Position(g, now)))

