"""The referee's room: the physical board judged against the game.

A game whose spec is ``eager`` (every place-then-twist game) is judged at once: after every
sensor event the referee asks whether the board explains legal moves whose evidence stands (a
new marble read on its hole, a block's count on a quarter with its holes reading the turned
marbles; see :mod:`.provisional`), and accepts them then, so the LEDs answer the hand at once.
Such a move is provisional until its evidence has stood for the guard; a later reading that
proves it wrong is judged on the settled board, and the move is withdrawn (the game taken back
to where it stood before it, journalled as take-backs, and said in a notice) when the game as
it stood before explains the board. Withdrawn moves are counted (``retractions``).

Everything else is judged once the board has been still for ``settle_s`` (hole changes and
encoder steps both count as movement) and for ``turn_settle_s`` after the last encoder step:
the settle time is the guard for readings that contradict each other, not a wait on every move.
A settled board that matches the game or is one legal step from it (a placement, a twist,
both, a skipped twist, a take-back) plays on; anything else starts a grace timer of
``grace_s``, after which repair mode guides the players back, step by step.

Which steps are legal, and which colour is due, the game's spec says (``explain``,
``is_idle_turn``, ``next_colour``): the referee names no game. Sensors that cannot tell the
running game's colours apart (a polarity board reads two; a third and fourth seat's marbles
cannot be told) are read like presence sensors: where a marble is, and the turn says whose.
"""

from __future__ import annotations

import copy
from typing import Any

from ..board import BoardInputError, Diff, Physical, Step, compare, repair_steps
from ..board.diff import sensed_colours
from ..events import EMPTY, MARBLE, UNSURE, EncoderSteps, HoleReading, LinkChange
from ..flow import Action
from ..flow.published import LinkChanged
from ..games import GameSpec
from ..rules import Phase, hole_name
from ..games import Flow
from .computer import Computer
from .effects import Outbox
from .provisional import Provisional, rewind, sensed_holes, stage, stands
from .timing import Timing



class Referee:
    """The physical truth, the grace timer and the repair guidance of one board."""

    def __init__(self, profile: Any, settle_s: float, grace_s: float, turn_settle_s: float,
                 start: tuple[tuple[int, str], ...] = (), steady_s: float = 0.0) -> None:
        self.settle_s, self.grace_s, self.turn_settle_s = settle_s, grace_s, turn_settle_s
        self.steady_s = steady_s  # how long the readings of a move judged at once must stand first
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
        self.provisional: list[Provisional] = []  # accepted at once, not yet sure, oldest first
        self.retractions = 0  # actions withdrawn because a later reading proved them wrong
        self.timing = Timing()  # when each move's evidence last changed and when it was accepted
        self._looked: tuple[Any, ...] | None = None  # what judge_at_once last looked at (see there)
        self.dim: dict[int, str] = {}  # the holes lit dim (unaccepted), with their colours
        self._stage: Any = None  # the position the game expected when they were lit (see _follow)
        self._stage_t = 0.0  # ... and when the game came to expect it

    # -- inputs --------------------------------------------------------------------------------

    def sense(self, event: HoleReading | EncoderSteps, flow: Flow, out: Outbox) -> None:
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
        if event.up != self.link_up:
            out.events.append(LinkChanged(event.up))
        self.link_up = event.up
        self.link_problem = "" if event.up else event.reason or "the sensor link is down"
        self.grace_at = None  # the clock pauses while the sensors are away
        if event.up:
            self.physical.judge_again(event.t)  # once the snapshot has settled
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

    def steady_at(self, now: float) -> float | None:
        """When the readings, changed since the board was last judged, will have stood still for
        ``steady_s``, so that a move resting on them may be judged at once (None: not pending)."""
        last = self.physical.reading_t
        if not self.steady_s or self.physical.changed_t is None or last is None or last + self.steady_s <= now:
            return None
        return last + self.steady_s

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
        self.provisional = []

    def look_again(self, now: float) -> None:
        """The game moved on with no one touching the board (a timer ended a show or a round):
        the guidance for the board as the game stood is void; the board is judged afresh
        against what the game expects now once it has settled."""
        self.repair, self.grace_at = [], None
        self.physical.judge_again(now)

    def guide_off_leftovers(self) -> None:
        """A new game was commanded over marbles left from before: they are no one's move, so
        the board is guided clear at once and no move is accepted until it matches."""
        self.strict = self.hold = bool(self.occupied())

    def guide_back(self, now: float) -> None:
        """A move was taken back by command while the board still shows it: accept no move
        until the board matches again, guide it back at once, and judge it again from ``now``."""
        self.strict = self.hold = True
        self.physical.judge_again(now)

    def resumed(self, t: float, playing: bool) -> None:
        """The daemon restarted at ``t`` (``playing``: into a game in play): the board is judged
        as found; in a game a mismatch is guided at once, and nothing is taken back until the
        board has been seen to hold the resumed game (a marble missing is not a take-back)."""
        self.physical.restarted(t)
        self.strict = self.reconciling = playing

    # -- judging at once ------------------------------------------------------------------------

    def judge_at_once(self, flow: Flow, spec: GameSpec, computer: Computer, now: float, out: Outbox) -> None:
        """Accept the moves the board explains now, if the evidence they rest on stands (see
        :mod:`.provisional`); they stay provisional until it has stood for the guard."""
        self._confirm(now)
        physical = self.physical
        steady = physical.reading_t is None or now >= physical.reading_t + self.steady_s
        looking = (physical.version, steady, flow.state, flow.game, flow.game and len(flow.game.moves))
        if not steady or looking == self._looked or not self._judges_at_once(flow, spec):
            return  # readings still moving, or nothing new since it last looked
        self._looked = looking
        game = flow.game_in_play()
        blocks = range(1, len(physical.steps) + 1)
        moving = tuple(b for b in blocks if physical.is_moving(b, now, self.turn_settle_s)) if game.phase is Phase.PLACE else ()
        diff = compare(flow.expected(), physical, flow.colours, moving)  # a placement made as a block turns
        if diff.is_same() or spec.is_idle_turn(game, diff):
            return
        actions = spec.explain(game, diff, flow.placed_hole, self.physical)
        if not actions or not stands(actions, diff, game, self.physical, now, self.steady_s, self.turn_settle_s):
            return
        if not computer.follows(flow, actions):
            return  # a marble where the computer did not play: the settled board guides it off
        before, placed = stage(game), flow.placed_hole
        applied = self._applied(actions, self.accept(flow, actions, now, out, diff))
        turns = tuple((t.block, self.physical.turned(t.block, 1 if t.clockwise else -1))
                      for t in (a.twist for a in applied) if t is not None)
        self.physical.accounted()
        evidence = [h for h, _ in diff.added] + [h for b, _ in turns for h in self.physical.geometry.block_holes[b - 1]]
        self.provisional.append(Provisional(before, placed, applied, turns, tuple(evidence)))

    def _judges_at_once(self, flow: Flow, spec: GameSpec) -> bool:
        """Whether moves may be judged now, before the board settles: it changed since it was
        last judged, and :meth:`_at_once` holds."""
        return self._at_once(flow, spec) and self.physical.changed_t is not None

    def _at_once(self, flow: Flow, spec: GameSpec) -> bool:
        """In an eager game's turns, with the link up, the orientation of every block known and
        nothing left to mend first: where a move is judged as soon as the board explains it."""
        return (spec.eager and flow.state in flow.at_once_states and self.link_up and self.physical.orientation_known
                and not (self.hold or self.strict or self.reconciling))

    def unaccepted(self, flow: Flow, spec: GameSpec, now: float) -> tuple[tuple[int, str], ...]:
        """The new marbles the board reads and the game does not hold yet, each ``(hole, colour)``
        (the colour read, else the colour due): what the LEDs show dim while the referee waits
        for their readings to stand. Only where moves are judged at once, and not on a block
        between quarters (its holes read the marbles passing over); on a block turned and not yet
        accepted, against its turned marbles (as :func:`~controller.board.compare` reads it).

        A hole lit dim stays lit through a gap in its reading shorter than ``settle_s`` (a
        bounce), the time the referee waits before it believes a marble gone, as long as the
        game expects what it did and the hole's block stands as the game has it: so a bouncing
        marble's light does not flicker, and one lifted for good goes dark ``settle_s`` after it
        left (:meth:`dim_ends_at`). Called on every event (the core's view is), at ``now``."""
        if not self._at_once(flow, spec):
            self.dim = {}
            return ()
        expected = self._follow(flow, now)
        read = self._read_new(flow, spec, expected)
        held = {hole: colour for hole, colour in self.dim.items() if hole not in read and self._holds(hole, now)}
        self.dim = {**held, **read}
        return tuple(sorted(self.dim.items()))

    def turning(self, flow: Flow, spec: GameSpec, now: float) -> tuple[tuple[int, bool], ...]:
        """The blocks the board reads turning for the twist due, each ``(block, clockwise)`` (the
        way its count stands off the game's orientation): what the LEDs show dim on the block's
        arrow until the twist is accepted (the turn light then moves on). Only where moves are
        judged at once (never in repair), while a twist is due (the mover's own turn: a block
        turning while a marble is awaited may be the last twist's end or the next seat's
        fiddling), and only for blocks stepped since it became due (a neutral block left a
        detent off before is no twist). Called at ``now`` on every event, as
        :meth:`unaccepted` is."""
        if not self._at_once(flow, spec):
            return ()
        self._follow(flow, now)
        if flow.game_in_play().phase is not Phase.TWIST:
            return ()
        physical = self.physical
        blocks = range(1, len(physical.steps) + 1)
        stepped = [(block, physical.count(block), physical.step_t[block - 1]) for block in blocks]
        since = self._stage_t  # a step before the twist was due belongs to no twist of the mover
        return tuple((block, count > 0) for block, count, t in stepped if count and t is not None and t >= since)

    def _follow(self, flow: Flow, now: float) -> Any:
        """The position the game expects; when it changed (a move accepted or taken back), the
        holes lit dim for the game before are forgotten and ``now`` is when this one began."""
        expected = flow.expected()
        if expected != self._stage:
            self.dim, self._stage, self._stage_t = {}, expected, now
        return expected

    def dim_ends_at(self) -> float | None:
        """When the first hole lit dim through a gap in its reading goes dark (None: none is)."""
        ends = [self._dim_end(hole) for hole in self.dim if self.physical.readings[hole] in (EMPTY, UNSURE)]
        return min((t for t in ends if t is not None), default=None)

    def _read_new(self, flow: Flow, spec: GameSpec, expected: Any) -> dict[int, str]:
        """The new marbles read now, as :meth:`unaccepted` lights them."""
        diff = compare(expected, self.physical, flow.colours)
        between = set(diff.torn) | set(diff.loose)
        names, due = sensed_colours(flow.colours), spec.next_colour(flow.game_in_play())
        read = [(hole, due if colour is None else colour) for hole, colour in diff.added
                if self.physical.geometry.block_of[hole] not in between]
        return {hole: names[colour] for hole, colour in read if colour is not None}  # None: none is due

    def _holds(self, hole: int, now: float) -> bool:
        """Whether ``hole``, lit dim and read no more, stays lit: its reading gone less than
        ``settle_s`` ago, its block standing as the game has it (no turn under way)."""
        end, physical = self._dim_end(hole), self.physical
        return (physical.readings[hole] in (EMPTY, UNSURE) and end is not None and now < end
                and physical.count(physical.geometry.block_of[hole]) == 0)

    def _dim_end(self, hole: int) -> float | None:
        changed = self.physical.read_t[hole]
        return None if changed is None else changed + self.settle_s

    def _confirm(self, now: float) -> None:
        """The oldest provisional moves whose evidence has stood for the guard are sure."""
        while self.provisional and self.provisional[0].is_sure(self.physical, now, self.settle_s, self.turn_settle_s):
            self.provisional.pop(0)

    @staticmethod
    def _applied(actions: tuple[Action, ...], records: list[dict[str, Any]]) -> tuple[Action, ...]:
        """The first of ``actions`` that ``records`` (their journal records) show applied."""
        return actions[:sum(r["kind"] != "end" for r in records)]

    # -- judging the settled board -------------------------------------------------------------

    def judge(self, flow: Flow, spec: GameSpec, computer: Computer, now: float, out: Outbox) -> None:
        """Judge the settled board of a game in play (or of one just ended by a provisional
        move): play on, accept actions, withdraw provisional moves, or mismatch."""
        game = flow.game_in_play()
        diff = compare(flow.expected(), self.physical, flow.colours)
        actions = None if self.hold else spec.explain(game, diff, flow.placed_hole, self.physical)
        if actions and not computer.follows(flow, actions):
            actions = None  # a marble where the computer did not play: guide it off
        if actions and self.reconciling and _takes_back(actions):
            actions = None  # a board found missing marbles after a resume is a repair, not a decision
        if diff.is_same() or spec.is_idle_turn(game, diff):
            self._matched(flow, diff, out)
        elif actions and not _takes_back(actions):
            self._play_on(flow, spec, actions, diff, now, out)
        elif self._withdraw(flow, spec, computer, now, out, forward=True):
            pass
        elif actions:
            self._play_on(flow, spec, actions, diff, now, out)
        elif self._withdraw(flow, spec, computer, now, out, forward=False):
            pass
        elif game.is_over():
            self.provisional = []  # the players are at the finished board: nothing to withdraw
        else:
            self._mismatch(flow, spec, diff, now, out)
        self.strict = False

    def _play_on(self, flow: Flow, spec: GameSpec, actions: tuple[Action, ...], diff: Diff, now: float,
                 out: Outbox) -> None:
        records = self.accept(flow, actions, now, out, diff)
        if len(self._applied(actions, records)) == len(actions) or flow.game_in_play().is_over():
            self._settle_blocks(diff)  # a refused twist's block stays counted: it is turned back
        self.reconciling = False  # the board showed the game plus a move: it is the players' again
        self.provisional = []  # the settled board shows what was accepted before
        self._recheck(flow, spec, now, out)

    def accept(self, flow: Flow, actions: tuple[Action, ...], now: float, out: Outbox,
               diff: Diff | None = None) -> list[dict[str, Any]]:
        """Apply ``actions`` (explaining ``diff``, if they were read on the board); their journal
        records (the first action the rules refuse stops them)."""
        earned, before = len(flow.game_in_play().places), flow.move_texts()
        times: list[float | None] = self._evidence_times(actions) if diff is not None else [None] * len(actions)
        placed_t = self.physical.last_change([flow.placed_hole]) if flow.placed_hole is not None else None
        records = flow.accept(actions, now)
        out.records.extend(records)
        out.notices.extend(describe(flow, r) for r in records)
        out.hear(flow)
        for number, place in enumerate(flow.game_in_play().places[earned:], start=earned + 1):
            if not flow.game_in_play().is_over():  # places earned while the others play on
                out.notices.append(f"{_seats(flow, place)} {'takes' if len(place) == 1 else 'share'} place {number}")
        self.repair, self.grace_at = [], None
        if any(a.kind == "take_back" for a in actions):
            self.provisional = []  # what was provisional is the players' to take back now
        self.timing.update(flow, before, self._applied(actions, records), times, now, placed_t)
        accepted: list[dict[str, Any]] = records
        return accepted

    def _evidence_times(self, actions: tuple[Action, ...]) -> list[float | None]:
        """For each action, when the readings (and counts) it rests on last changed."""
        physical, g = self.physical, self.physical.geometry
        sensed = iter(sensed_holes(actions, g))
        times: list[float | None] = []
        for action in actions:
            if action.kind in ("place", "drop") and action.hole is not None:  # where it landed, where it is
                times.append(physical.last_change([action.hole, next(sensed)]))
            elif action.kind == "twist" and action.twist is not None:
                times.append(physical.last_change(g.block_holes[action.twist.block - 1], [action.twist.block]))
            else:
                times.append(physical.last_change([action.hole]) if action.hole is not None else None)
        return times

    def _withdraw(self, flow: Flow, spec: GameSpec, computer: Computer, now: float, out: Outbox, *,
                  forward: bool) -> bool:
        """Withdraw the latest provisional moves if the game as it stood before them explains
        the settled board (the fewest that do; with ``forward``, by moves alone, else by a
        take-back too); True if it did."""
        blocks = range(1, len(self.physical.steps) + 1)
        if not self.provisional or not all(self.physical.quarters(block) for block in blocks):
            return False  # a block between quarters proves nothing: its marbles are between sensors
        game = flow.game_in_play()
        trial = copy.deepcopy(game, {id(game.geometry): game.geometry})
        turns: list[tuple[int, int]] = []
        for index in range(len(self.provisional) - 1, -1, -1):
            entry = self.provisional[index]
            rewind(trial, entry.stage, entry.placed)
            turns.extend(entry.turns)
            physical = self.physical.unturned(turns)
            diff = compare(trial.position, physical, flow.colours)
            actions: tuple[Action, ...] | None = ()
            if not (diff.is_same() or spec.is_idle_turn(trial, diff)):
                actions = spec.explain(trial, diff, entry.placed, physical)
                if not actions or (forward and _takes_back(actions)):
                    continue
            self._take_back_to(flow, index, turns, now, out)
            self.judge(flow, spec, computer, now, out)  # the board judged against the game as it was
            return True
        return False

    def _take_back_to(self, flow: Flow, index: int, turns: list[tuple[int, int]], now: float, out: Outbox) -> None:
        """Take the game back to before provisional acceptance ``index``; ``turns`` are the
        (block, steps) the acceptances since took off the encoder counts."""
        entry, withdrawn = self.provisional[index], [a for e in self.provisional[index:] for a in e.actions]
        before = flow.move_texts()
        out.records.extend(flow.rewind(*entry.stage, entry.placed, now))
        out.hear(flow)
        self.physical.unturned(turns, copy=False)
        del self.provisional[index:]
        self.retractions += len(withdrawn)
        self.timing.update(flow, before, (), [], now)
        out.notices.append(f"withdrawn: {', '.join(_action_words(a, flow.game_in_play().geometry) for a in withdrawn)} "
                           "(a later reading showed otherwise)")

    def enter_repair(self, flow: Flow, out: Outbox) -> None:
        self.grace_at = None
        if flow.state in flow.at_once_states:
            flow.broke()
            out.notices.append("the board does not match the game: repair mode")

    def _sensed_the_game(self, flow: Flow) -> bool:
        game = flow.game
        return game is not None and compare(flow.expected(), self.physical, flow.colours).is_same()

    def _recheck(self, flow: Flow, spec: GameSpec, now: float, out: Outbox) -> None:
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

    def _matched(self, flow: Flow, diff: Diff, out: Outbox) -> None:
        self._settle_blocks(diff)
        self.grace_at, self.repair, self.hold, self.reconciling = None, [], False, False
        self.provisional = []  # the settled board shows what was accepted at once
        if flow.state in flow.repair_states:
            flow.mended()
            out.notices.append("the board matches again: play on")
            out.hear(flow)  # what mending set off (Picture-Puzzle's next round)

    def _mismatch(self, flow: Flow, spec: GameSpec, diff: Diff, now: float, out: Outbox) -> None:
        game, expected = flow.game, flow.expected()
        self.repair = repair_steps(diff, expected, self.physical, flow.colours, spec.next_colour(game))
        if self.strict:
            self.enter_repair(flow, out)
        elif self.grace_at is None and flow.state not in flow.repair_states:
            self.grace_at = now + self.grace_s
        if flow.state in flow.repair_states:
            out.notices.append(f"repair: {self.repair[0].text(expected)}")

    def occupied(self) -> set[int]:
        return {h for h, reading in enumerate(self.physical.readings) if reading != EMPTY}


def _takes_back(actions: tuple[Action, ...]) -> bool:
    return any(a.kind == "take_back" for a in actions)


def _action_words(action: Action, g: Any) -> str:
    """An action in a notice: the hole placed, the twist, or a skipped twist."""
    if action.kind == "twist":
        return str(action.twist)
    return hole_name(action.hole, g) if action.hole is not None else f"the {action.kind.replace('_', '-')}"


def describe(flow: Flow, record: dict[str, Any]) -> str:
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


def _ending(flow: Flow, record: dict[str, Any]) -> str:
    winners, standings, why = record["winners"], record.get("standings") or [], record["termination"]
    if not winners:
        return f"draw ({why})"
    if len(standings) > 2 or len(winners) > 1:
        return f"standings: {'; '.join(_seats(flow, place) for place in standings)} ({why})"
    return f"{flow.seat_name(winners[0])} wins ({why})"


def _seats(flow: Flow, seats: Any) -> str:
    return " & ".join(flow.seat_name(seat) for seat in seats)
