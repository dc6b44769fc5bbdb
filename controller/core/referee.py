"""The referee's room: the physical board judged against the game once it has settled.

The board is judged once it has been still for ``settle_s`` (hole changes and encoder steps
both count as movement). A settled board that matches the game or is one legal step from it (a
placement, a twist, both, a skipped twist, a take-back) plays on; anything else starts a grace
timer of ``grace_s``, after which repair mode guides the players back, step by step.

Which steps are legal, and which colour is due, the game's spec says (``explain``,
``is_idle_turn``, ``next_colour``): the referee names no game. Sensors that cannot tell the
running game's colours apart (a polarity board reads two; a third and fourth seat's marbles
cannot be told) are read like presence sensors: where a marble is, and the turn says whose.
"""

from __future__ import annotations

from typing import Any

from ..board import BoardInputError, Diff, Physical, Step, compare, repair_steps
from ..events import EMPTY, MARBLE, EncoderSteps, HoleReading, LinkChange
from ..flow import Action
from ..games import GameSpec
from .computer import Computer
from .effects import Outbox


class Referee:
    """The physical truth, the grace timer and the repair guidance of one board."""

    def __init__(self, profile: Any, settle_s: float, grace_s: float, turn_settle_s: float,
                 start: tuple[tuple[int, str], ...] = ()) -> None:
        self.settle_s, self.grace_s, self.turn_settle_s = settle_s, grace_s, turn_settle_s
        self.physical = Physical(profile.geometry, profile.detents_per_quarter)
        for hole, reading in start:
            self.physical.readings[hole] = reading
        self.link_up = True
        self.link_problem = ""  # while the link is down: why, and what to do (the driver's words)
        self.grace_at: float | None = None
        self.repair: list[Step] = []
        self.strict = False  # the next mismatch means repair at once (after a resume or a command)
        self.hold = False  # accept no move until the board matches (after a commanded change)
        self.reconciling = False  # resumed, the board not yet seen to match: no take-back
        self.colour_blind: tuple[str, ...] = ()  # colour readings taken as a marble of no colour
        self.game_colours: tuple[str, ...] = ()  # the running game's colour names, by index
        self.assumed_colour = profile.assumed_colour  # a reading's colour among the game's (a pole's)

    # -- inputs --------------------------------------------------------------------------------

    def sense(self, event: HoleReading | EncoderSteps, flow: Any, out: Outbox) -> None:
        if isinstance(event, HoleReading) and event.reading in self.colour_blind:
            self.physical.suggested[event.hole] = self.game_colours.index(
                self.assumed_colour(event.reading, self.game_colours, self.game_colours[0]))
            event = HoleReading(event.t, event.hole, MARBLE)
        try:
            self.physical.apply(event)
        except BoardInputError as error:
            what = "a hole reading" if isinstance(event, HoleReading) else "encoder steps"
            out.notices.append(f"ignored {what}: {error}")
        if self.reconciling and self._sensed_the_game(flow):
            self.reconciling = False  # the board holds the resumed game: what changes next is a player's

    def link(self, event: LinkChange, out: Outbox) -> None:
        self.link_up = event.up
        self.link_problem = "" if event.up else event.reason or "the sensor link is down"
        self.grace_at = None  # the clock pauses while the sensors are away
        if event.up:
            self.physical.changed_t = event.t  # judge afresh once the snapshot has settled
        out.notices.append(f"sensor link {'up' if event.up else 'down'}{': ' + event.reason if event.reason else ''}")

    def sees(self, colours: tuple[str, ...], board: tuple[str, ...], sensing: str) -> None:
        """A new game of ``colours`` on a board whose sensors read ``board``'s colours: a game
        with colours the sensors cannot read is judged by presence."""
        blind = sensing == "polarity" and not set(colours) <= set(board)
        self.colour_blind = board if blind else ()
        self.game_colours = colours

    # -- timers --------------------------------------------------------------------------------

    def settles_at(self) -> float | None:
        return self.physical.settles_at(self.settle_s, self.turn_settle_s) if self.link_up else None

    def settled(self, now: float) -> bool:
        """True (once) when the board has been still long enough to judge."""
        at = self.settles_at()
        if at is not None and now >= at:
            self.physical.judged()
            return True
        return False

    def grace_over(self, now: float) -> bool:
        return self.grace_at is not None and now >= self.grace_at

    def clear(self) -> None:
        """Nothing of the game before is left to mend."""
        self.repair, self.grace_at = [], None
        self.strict = self.hold = False

    def look_again(self, now: float) -> None:
        """The game moved on with no one touching the board (a timer ended a show or a round):
        the guidance for the board as the game stood is void; the board is judged afresh
        against what the game expects now once it has settled."""
        self.repair, self.grace_at = [], None
        self.physical.changed_t = now

    # -- judging -------------------------------------------------------------------------------

    def judge(self, flow: Any, spec: GameSpec, computer: Computer, now: float, out: Outbox) -> None:
        """Judge the settled board of a game in play: play on, accept actions, or mismatch."""
        game = flow.game
        diff = compare(flow.expected(), self.physical, flow.colours)
        actions = None if self.hold else spec.explain(game, diff, flow.placed_hole, self.physical)
        if actions and not computer.follows(flow, actions):
            actions = None  # a marble where the computer did not play: guide it off
        if actions and self.reconciling and any(a.kind == "take_back" for a in actions):
            actions = None  # a board found missing marbles after a resume is a repair, not a decision
        if diff.is_same() or spec.is_idle_turn(game, diff):
            self._matched(flow, diff, out)
        elif actions:
            if self.accept(flow, actions, now, out):
                self._settle_blocks(diff)  # a refused twist's block stays counted: it is turned back
            self.reconciling = False  # the board showed the game plus a move: it is the players' again
            self._recheck(flow, spec, now, out)
        else:
            self._mismatch(flow, spec, diff, now, out)
        self.strict = False

    def accept(self, flow: Any, actions: tuple[Action, ...], now: float, out: Outbox) -> bool:
        """Apply ``actions``; True if the rules took them all (else the first refused stopped it)."""
        earned = len(flow.game.places)
        records = flow.accept(actions, now)
        out.records.extend(records)
        out.notices.extend(describe(flow, r) for r in records)
        out.notices.extend(flow.take_news())
        for number, place in enumerate(flow.game.places[earned:], start=earned + 1):
            if not flow.game.is_over():  # places earned while the others play on
                out.notices.append(f"{_seats(flow, place)} {'takes' if len(place) == 1 else 'share'} place {number}")
        self.repair, self.grace_at = [], None
        return sum(r["kind"] != "end" for r in records) == len(actions) or flow.game.is_over()

    def enter_repair(self, flow: Any, out: Outbox) -> None:
        self.grace_at = None
        if flow.state in ("awaiting_placement", "awaiting_twist"):
            flow.broke()
            out.notices.append("the board does not match the game: repair mode")

    def _sensed_the_game(self, flow: Any) -> bool:
        game = flow.game
        return game is not None and compare(flow.expected(), self.physical, flow.colours).is_same()

    def _recheck(self, flow: Any, spec: GameSpec, now: float, out: Outbox) -> None:
        """After accepting: anything the actions did not explain (the rules refused one) is a
        mismatch like any other. A game that just ended leaves the board to the players."""
        game = flow.game
        if game is None or game.is_over():
            return
        diff = compare(flow.expected(), self.physical, flow.colours)
        if not diff.is_same():
            self._mismatch(flow, spec, diff, now, out)

    def _settle_blocks(self, diff: Diff) -> None:
        """The board matches the game: every block sits where the game expects it. Loose
        neutral blocks stay counted: one may be turning slowly, or have stopped a detent into
        a twist that comes with a placement not seen yet."""
        self.physical.rest(tuple(b for b in range(1, len(self.physical.steps) + 1) if b not in diff.loose))

    def _matched(self, flow: Any, diff: Diff, out: Outbox) -> None:
        self._settle_blocks(diff)
        self.grace_at, self.repair, self.hold, self.reconciling = None, [], False, False
        if flow.state == "repair":
            flow.mended()
            out.notices.append("the board matches again: play on")
            out.notices.extend(flow.take_news())  # what mending set off (Picture-Puzzle's next round)

    def _mismatch(self, flow: Any, spec: GameSpec, diff: Diff, now: float, out: Outbox) -> None:
        game, expected = flow.game, flow.expected()
        self.repair = repair_steps(diff, expected, self.physical, flow.colours, spec.next_colour(game))
        if self.strict:
            self.enter_repair(flow, out)
        elif self.grace_at is None and flow.state != "repair":
            self.grace_at = now + self.grace_s
        if flow.state == "repair":
            out.notices.append(f"repair: {self.repair[0].text(expected)}")

    def occupied(self) -> set[int]:
        return {h for h, reading in enumerate(self.physical.readings) if reading != EMPTY}


def describe(flow: Any, record: dict[str, Any]) -> str:
    """A journal record in words, for the notices (the seats by name)."""
    kind, game = record["kind"], flow.game
    if kind == "place":
        seat = game.to_move if game and game.phase.value == "twist" else None
        return f"{record['hole']} placed" + (f" by {flow.seat_name(seat)}" if seat else "")
    if kind in ("twist", "skip"):
        if game and not game.moves and "twist" in record:  # Picture-Puzzle's twists are no moves
            return f"block {record['twist'][:-1]} turned {'clockwise' if record['twist'].endswith('R') else 'counter-clockwise'}"
        return f"{flow.move_texts()[-1] if game and game.moves else kind} accepted"
    if kind == "take_back":
        return "take-back"
    if kind == "end":
        return _ending(flow, record)
    return STEP_WORDS[kind].format(**record) if kind in STEP_WORDS and "hole" in record else kind


# How a step other than a move is told (Picture-Puzzle's build and dismantle, Triple's move phase).
STEP_WORDS = {"build": "{hole}: a stone of the picture", "remove": "{hole}: a stone taken out",
              "lift": "{hole}: a marble lifted", "drop": "{hole}: the marble put down"}


def _ending(flow: Any, record: dict[str, Any]) -> str:
    winners, standings, why = record["winners"], record.get("standings") or [], record["termination"]
    if not winners:
        return f"draw ({why})"
    if len(standings) > 2 or len(winners) > 1:
        return f"standings: {'; '.join(_seats(flow, place) for place in standings)} ({why})"
    return f"{flow.seat_name(winners[0])} wins ({why})"


def _seats(flow: Any, seats: Any) -> str:
    return " & ".join(flow.seat_name(seat) for seat in seats)
