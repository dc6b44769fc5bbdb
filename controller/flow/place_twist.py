"""The flow of every place-then-twist game as a `transitions` state machine.

States: choosing (the menu), awaiting_placement, awaiting_twist, repair, game_over and
between_games (a match between two games). The flow applies accepted actions to the game's
rules object (a :class:`~controller.rules.PlaceTwistGame`, which enforces legality) and then
fires the trigger named for the action; guards from the rules route it (the game is over, the
match goes on, a twist is due). Every accepted action yields a journal record, and
:meth:`PlaceTwistFlow.replay` rebuilds the same game from those records after a power cut.

The flow plays classic, multiplayer and team Pentago alike: which game, with which options and
seat colours, comes from a :class:`Catalogue` (the registry, :mod:`controller.games`). In a
multiplayer game a five on placement ends the turn, not the game: the next seat still playing
places next. Other families (Triple, Picture-Puzzle) get their own flow module with the same
trigger names for the shared states.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar, cast

from transitions import Machine, MachineError

from ..rules import IllegalMoveError, Match, Phase, PlaceTwistGame, Position, hole_name, move_name, parse_hole, parse_twist
from .contract import GameRules
from .options import GameOptions
from .published import Event, Moved, Outcome, TookBack
from .records import record_problem
from .seats import named, seat_names
from .steps import Action

log = logging.getLogger(__name__)

# The states of the machine every flow builds on (the other flows name theirs beside them).
CHOOSING = "choosing"  # the menu: no game in play
AWAITING_PLACEMENT = "awaiting_placement"
AWAITING_TWIST = "awaiting_twist"
REPAIR = "repair"
GAME_OVER = "game_over"
BETWEEN_GAMES = "between_games"  # a match's game over, the next to come
STATES = [CHOOSING, AWAITING_PLACEMENT, AWAITING_TWIST, REPAIR, GAME_OVER, BETWEEN_GAMES]
PLAYING = [AWAITING_PLACEMENT, AWAITING_TWIST, REPAIR]
ENDED = [GAME_OVER, BETWEEN_GAMES]
# What each state asks of the players, in words for people (the web page, the MQTT summary,
# Home Assistant); "to ..." follows the name of the seat to move.
STATE_WORDS = {
    CHOOSING: "Choose a game: put a marble on a lit hole, or start one here",
    AWAITING_PLACEMENT: "to place a marble",
    AWAITING_TWIST: "to turn a block",
    REPAIR: "Repair the board as lit",
    GAME_OVER: "Game over: clear the board for the next game",
    BETWEEN_GAMES: "Clear the board for the next game of the match",
}


def _routed(trigger: str, sources: list[str], then: str) -> list[dict[str, Any]]:
    """After an accepted half-move: the game may be over (in a match or not), else ``then``."""
    return [
        {"trigger": trigger, "source": sources, "dest": BETWEEN_GAMES, "conditions": ["is_over", "match_goes_on"]},
        {"trigger": trigger, "source": sources, "dest": GAME_OVER, "conditions": "is_over"},
        {"trigger": trigger, "source": sources, "dest": then},
    ]


TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "start", "source": [CHOOSING, GAME_OVER, BETWEEN_GAMES], "dest": AWAITING_PLACEMENT},
    # A placement awaits its twist, unless it made five: the turn (multiplayer) or game ends there.
    {"trigger": "placed", "source": [AWAITING_PLACEMENT, REPAIR], "dest": AWAITING_TWIST,
     "conditions": "awaits_twist"},
    *_routed("placed", [AWAITING_PLACEMENT, REPAIR], AWAITING_PLACEMENT),
    *_routed("twisted", [AWAITING_TWIST, REPAIR], AWAITING_PLACEMENT),
    *_routed("skipped", [AWAITING_TWIST, REPAIR], AWAITING_PLACEMENT),
    # Taking back a twist leaves its placement awaiting a twist again; taking back a placement
    # (or a move without a twist) awaits a placement. A game's last move is taken back only
    # when the referee withdraws it (a later reading proved it wrong, see :meth:`rewind`).
    {"trigger": "took_back", "source": [AWAITING_PLACEMENT, REPAIR, *ENDED], "dest": AWAITING_TWIST,
     "conditions": "awaits_twist"},
    {"trigger": "took_back", "source": [*PLAYING, *ENDED], "dest": AWAITING_PLACEMENT},
    {"trigger": "broke", "source": [AWAITING_PLACEMENT, AWAITING_TWIST], "dest": REPAIR},
    {"trigger": "mended", "source": REPAIR, "dest": AWAITING_TWIST, "conditions": "awaits_twist"},
    {"trigger": "mended", "source": REPAIR, "dest": AWAITING_PLACEMENT},
    {"trigger": "abort", "source": STATES[1:], "dest": CHOOSING},
]


# A record of these kinds starts everything afresh (a new game or match, or back to the menu):
# the journal restarts with it, so it holds only what a resume needs and never grows for ever.
FRESH_KINDS = frozenset({"start", "menu"})


class Catalogue(Protocol):
    """What the flow needs of the registry of games (:mod:`controller.games` is one): the check
    of a journal's start record, when it replays one."""

    def options(self, args: dict[str, Any], size: int) -> GameOptions:
        """A new game's options, complete and checked; ValueError names a bad one."""
        ...


@dataclass(frozen=True)
class Resume:
    """How much of a journal a resume used: its first ``used`` of ``total`` records, and why it
    stopped there (None when it used them all)."""

    used: int
    total: int
    problem: str | None = None


G = TypeVar("G", bound=GameRules, covariant=True)  # the rules object of a flow's game


class PlaceTwistFlow(Generic[G]):
    """Model of the machine: the game, the match, and what the board awaits.

    ``catalogue`` checks the games a journal replays (see :class:`Catalogue`); a new game's
    checked options make its rules object (:class:`~.options.GameOptions`); ``colours`` are the board's own
    marble colours (a polarity board's two), and :attr:`colours` the running game's, by colour
    index. The flow of every game builds on this one: ``G`` is its game's rules object
    (a :class:`~controller.rules.PlaceTwistGame` here; the place-then-twist steps of
    :meth:`apply` are this flow's, and the other flows apply their own).
    """

    machine_states = STATES  # a family's flow built on this one names its own (games/triple/flow.py)
    machine_transitions = TRANSITIONS
    playing_states: tuple[str, ...] = tuple(PLAYING)  # a game is played and the board judged in these
    at_once_states: tuple[str, ...] = (AWAITING_PLACEMENT, AWAITING_TWIST)  # moves accepted at once; a mismatch breaks
    repair_states: tuple[str, ...] = (REPAIR,)  # the board is guided back to the game (``mended`` leaves them)
    published: dict[str, str] = {}  # a state of the machine -> the state subscribers see, where the two differ
    state_words: dict[str, str] = STATE_WORDS  # a flow with published states of its own adds their words

    # The hooks a flow of a game may have, each with its default here: none keeps time, counts
    # down, knocks seats out or adds keys of its own to the state.
    keeps_time = False  # True: the core calls tick() on every event (a show, a time limit)
    logs_refusals = True  # a move the rules refuse is logged as well as told in the news
    ends_after_a_record = False  # True: accept adds the end record only after a record of its own (none once over)
    knocks_out = False  # True: seats go out during the game (own_state's "eliminated" names them)
    left_s: float | None = None  # a countdown's seconds left, as the LEDs show it
    tells_moves = True  # False: its move texts are no moves to tell (see _apply_and_tell)

    # Set on each model by the Machine: the current state and one method per trigger.
    state: str
    trigger: Callable[..., bool]
    start: Callable[[], bool]
    abort: Callable[[], bool]
    broke: Callable[[], bool]
    mended: Callable[[], bool]

    def __init__(self, catalogue: Catalogue, colours: tuple[str, ...] = ("white", "black"), size: int = 6) -> None:
        self.catalogue = catalogue
        self.board_colours = self.colours = colours
        self.size = size
        self.game: G | None = None
        self.match: Match | None = None
        self.options: Mapping[str, Any] = {}  # the game's checked options (a GameOptions) once one starts
        self.placed_hole: int | None = None  # the placement awaiting its twist
        self.repairs = 0
        self.news: list[str] = []  # the rules' refusals in words, for the notices
        self.events: list[Event] = []  # what happened, for the subscribers (see controller.flow.published)
        self._board_level: int | None = None  # the board's configured level (see use_board_level)
        self.machine = Machine(model=self, states=self.machine_states, transitions=self.machine_transitions,
                               initial=CHOOSING, auto_transitions=False)

    # -- guards --------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.game is not None and self.game.is_over()

    def match_goes_on(self) -> bool:
        return self.match is not None and not self.match.is_over()

    def awaits_twist(self) -> bool:
        return self.game is not None and self.game.phase is Phase.TWIST

    def on_enter_repair(self) -> None:
        self.repairs += 1

    # -- starting ------------------------------------------------------------------------------

    def new_game(self, options: GameOptions, t: float) -> dict[str, Any]:
        """Start a game (and a match if ``options["match"]``) of ``options``, checked for this
        board's size and trusted here; returns its journal record."""
        self.options = options
        self.colours = options.colours(self.board_colours)
        self.match = Match(players=options["players"]) if options.get("match") else None
        return self._begin("start", t)

    def next_game(self, t: float) -> dict[str, Any]:
        """The next game of the running match; the starter alternates."""
        return self._begin("next_game", t)

    def _begin(self, kind: str, t: float) -> dict[str, Any]:
        starter = self.match.starter() if self.match else 1
        self.game = self.fresh_game(starter)
        self.placed_hole = None
        self.start()
        options = self.options if kind == "start" else {}  # a match's next game keeps its options
        return {"t": t, "kind": kind, **options, "starter": starter}

    def fresh_game(self, starter: int) -> G:
        """A new rules object of the running game's options, ``starter`` first (the game itself
        when it starts, the computer's copy to replay its moves on)."""
        assert isinstance(self.options, GameOptions), "no game has started"
        return cast(G, self.options.make(starter))  # the options' game is its flow's

    def to_menu(self, t: float) -> dict[str, Any]:
        self.abort()
        self.game, self.match, self.placed_hole = None, None, None
        return {"t": t, "kind": "menu"}

    # -- playing -------------------------------------------------------------------------------

    def accept(self, actions: tuple[Action, ...], t: float) -> list[dict[str, Any]]:
        """Apply ``actions`` in order (stopping when the game ends); their journal records (an
        action :meth:`apply` journals nothing for adds none), then the end record if the game
        is over (see :attr:`ends_after_a_record`).

        An action the rules refuse stops the sequence: what was applied before it stands (and
        is recorded), the refusal goes to the news (and the log, see :attr:`logs_refusals`), and
        the board tracker sees the rest as a mismatch.
        """
        records = []
        for action in actions:
            if self.is_over():
                break
            try:
                record = self._apply_and_tell(action, t)
            except IllegalMoveError as error:
                if self.logs_refusals:
                    log.warning("the rules refused %s: %s", action, error)
                self.refused(error)
                break
            if record is not None:
                records.append(record)
        if self.is_over() and (records or not self.ends_after_a_record):
            records.append(self._end_record(t))
        return records

    def _apply_and_tell(self, action: Action, t: float) -> Any:
        """:meth:`apply` ``action``, and tell the move it played or took back (an action plays
        or takes back one move at most; a placement awaiting its twist, or taken back, is none)."""
        if not self.tells_moves:
            return self.apply(action, t)
        before = len(self.move_texts())
        record = self.apply(action, t)
        texts = self.move_texts()
        if len(texts) < before:
            self.events.append(TookBack(len(texts)))
        elif len(texts) > before:
            self.events.append(Moved(len(texts), texts[-1]))
        return record

    def apply(self, action: Action, t: float) -> dict[str, Any]:
        """Apply one action to the game and fire its trigger; raises IllegalMoveError."""
        game = self._place_twist()
        g = game.geometry
        if action.kind == "place":
            game.place(action.hole)  # type: ignore[arg-type]
            self.placed_hole = action.hole if game.phase is Phase.TWIST else None
            record = {"t": t, "kind": "place", "hole": hole_name(action.hole, g)}  # type: ignore[arg-type]
        elif action.kind == "twist":
            game.twist(action.twist)  # type: ignore[arg-type]
            self.placed_hole = None
            record = {"t": t, "kind": "twist", "twist": str(action.twist)}
        elif action.kind == "skip":
            game.skip_twist()
            self.placed_hole = None
            record = {"t": t, "kind": "skip"}
        else:
            self._take_back()
            record = {"t": t, "kind": "take_back"}
        self._fire(action.kind)
        return record

    def _fire(self, kind: str) -> None:
        if self.match is not None and self.is_over():
            self.match.record(self._game().outcome)  # type: ignore[arg-type]
        self.trigger({"place": "placed", "twist": "twisted", "skip": "skipped", "take_back": "took_back"}[kind])

    def _take_back(self) -> None:
        game = self._place_twist()
        if game.phase is Phase.TWIST:
            game.pop()
            self.placed_hole = None
            return
        if self.match is not None and game.is_over():
            self.match.take_back()  # the game goes on: its outcome was not the match's after all
        move = game.pop()  # raises IllegalMoveError when there is none
        if move.twist is not None:
            game.place(move.hole)
            self.placed_hole = move.hole

    def rewind(self, moves: int, twist_due: bool, placed: int | None, t: float) -> list[dict[str, Any]]:
        """Take back half-moves until the game stands where it stood with ``moves`` moves played
        and, if ``twist_due``, ``placed`` awaiting its twist; their journal records (take-backs,
        and the placement again when a move without a twist went back whole). The referee's
        way to withdraw moves a later reading proved wrong: it works after the game's end too.
        """
        game, records = self._place_twist(), []
        while _stage(game) > (moves, twist_due):
            records.append(self._apply_and_tell(TAKE_BACK, t))
        if _stage(game) < (moves, twist_due) and placed is not None:
            records.append(self._apply_and_tell(Action("place", placed), t))
        return records

    def may_take_back(self) -> bool:
        game = self.game
        return self.state in PLAYING and game is not None and bool(game.moves or self.placed_hole is not None)

    def _end_record(self, t: float) -> dict[str, Any]:
        """The game's end: its journal record, and its outcome told."""
        game = self._game()
        outcome = game.outcome
        assert outcome is not None
        names = self.seat_names()
        winners = " & ".join(names[seat - 1] for seat in outcome.winners) if outcome.winners else "draw"
        self.events.append(Outcome(outcome.result, list(outcome.winners), [list(line) for line in outcome.lines],
                                   winners, [list(place) for place in game.standings]))
        return {"t": t, "kind": "end", "result": outcome.result, "winners": list(outcome.winners),
                "termination": outcome.termination.value, "standings": [list(p) for p in outcome.standings]}

    def _game(self) -> G:
        return self.game_in_play()

    def game_in_play(self) -> G:
        """The game in play (for the rooms that act only while one is); IllegalMoveError if none."""
        if self.game is None:
            raise IllegalMoveError("no game is running")
        return self.game

    def _place_twist(self) -> PlaceTwistGame:
        """The game as this flow's own steps play it: a place-then-twist game (the flows of
        other games override every step that would ask for one)."""
        return cast(PlaceTwistGame, self._game())

    # -- resuming ------------------------------------------------------------------------------

    @classmethod
    def resumed(cls, records: list[dict[str, Any]], catalogue: Catalogue, colours: tuple[str, ...] = ("white", "black"),
                size: int = 6) -> tuple[Self, Resume]:
        """A flow rebuilt from journal records (the end of a power cut), and how much of them
        it used: the longest prefix that replays cleanly (see :meth:`replay`)."""
        flow = cls(catalogue, colours, size)
        resume = flow.replay(records)
        if resume.problem is not None:  # the refused record may have changed part of the flow
            flow = cls(catalogue, colours, size)
            flow.replay(records[:resume.used])
        flow.take_events()  # what the replay went through happened before: nothing to tell now
        return flow, resume

    def replay(self, records: list[dict[str, Any]]) -> Resume:
        """Apply journal records in order until one cannot be used: a wrong shape (see
        :func:`~controller.flow.records.record_problem`), a move the rules refuse, or a
        step the flow does not take from where it is (a next game outside a match). Returns how
        many were used and why it stopped; kinds this version does not know are skipped.

        After a refusal the flow may be half-changed by the refused record: use
        :meth:`resumed` for a flow that is exactly what the used records made.
        """
        for index, record in enumerate(records):
            problem = self._replay_problem(record)
            if problem is not None:
                return Resume(index, len(records), f"record {index + 1} cannot be used: {problem} "
                                                   f"(the record: {_brief(record)})")
        return Resume(len(records), len(records))

    def _replay_problem(self, record: Any) -> str | None:
        if not isinstance(record, dict):
            return "a record must be a JSON object"
        problem = record_problem(record)
        if problem is not None:
            return problem
        try:
            self._replay_one(record)
        except MachineError:  # its text names states and triggers: say it in words
            return "the record does not fit the game at that point"
        except (IllegalMoveError, ValueError) as error:  # NotationError is a ValueError
            return str(error)
        return None

    def _replay_one(self, record: dict[str, Any]) -> None:
        kind = record["kind"]
        if kind == "start":
            args = {k: v for k, v in record.items() if k not in ("t", "kind", "starter")}
            self.new_game(self.catalogue.options(args, self.size), 0.0)
        elif kind == "next_game":
            if self.state != BETWEEN_GAMES:
                raise IllegalMoveError("a next game of a match can only follow a finished game of the match")
            self.next_game(0.0)
        elif kind == "menu":
            if self.state != CHOOSING:  # already at the menu: e.g. a journal of only "menu"
                self.to_menu(0.0)
        elif kind in ("place", "twist", "skip", "take_back"):
            self.apply(self._action(record), 0.0)

    def _action(self, record: dict[str, Any]) -> Action:
        g = self._game().geometry
        if record["kind"] == "place":
            return Action("place", parse_hole(record["hole"], g))
        if record["kind"] == "twist":
            return Action("twist", twist=parse_twist(record["twist"], g))
        return Action(record["kind"])

    # -- reading -------------------------------------------------------------------------------

    def move_texts(self) -> list[str]:
        game = self.game
        return [] if game is None else [move_name(m, game.geometry) for m in game.moves]

    def expected(self) -> Position:
        """The position the board should show (the game's)."""
        return self._game().position

    def seat_colour(self, seat: int) -> str:
        """The colour a seat is shown in: its marbles' colour."""
        return self.colours[self._place_twist().colour_of(seat)]

    def awaits_colour(self) -> str | None:
        """The colour of a new marble awaiting confirmation: never here (a seat's colour is its own)."""
        return None

    def colour_button(self, role: str, t: float) -> list[dict[str, Any]]:
        """Nothing to cycle or confirm (see :meth:`awaits_colour`): no records."""
        return []

    def use_board_level(self, level: int | None) -> None:
        """The board's configured level (None: none said), which names a computer seat whose game
        names no level of its own: the core tells each flow it makes, and every flow again when
        the config changes."""
        self._board_level = level

    def seat_names(self) -> list[str]:
        """Every seat's name, seat 1 first, as notices, the page and the record say it (see
        :mod:`controller.flow.seats`)."""
        return seat_names(self.options, self._game().players, self._board_level)

    def seat_name(self, seat: int) -> str:
        return self.seat_names()[seat - 1]

    def doing(self) -> str | None:
        """What the game asks of the players now, in words, where the flow says more than its
        state's shared words (None: the shared words, after the name of the seat to move)."""
        return None

    def refused(self, error: Exception) -> None:
        """Tell the rules' refusal, the seats by name."""
        self.news.append(named(f"refused: {error}", self.seat_names()))

    def take_news(self) -> list[str]:
        """What happened that no journal record says (the rules' refusals), once."""
        news, self.news = self.news, []
        return news

    def published_state(self) -> str:
        """The state the page, MQTT, Home Assistant and the classroom see (the ``state`` key of
        :mod:`controller.core.snapshot`): the machine's, unless :attr:`published` says otherwise."""
        return self.published.get(self.state, self.state)

    def take_events(self) -> list[Event]:
        """What happened since the last take, for the subscribers, once (oldest first)."""
        events, self.events = self.events, []
        return events

    # -- the hooks of a flow that keeps time or says more (defaults: it does not) --------------

    def tick(self, t: float) -> list[dict[str, Any]]:
        """The clock reached ``t`` (called only where :attr:`keeps_time`): the journal records
        of what the time changed."""
        return []

    def deadline(self) -> float | None:
        """When the flow next wants a Tick (a show's end, a time limit), or None."""
        return None

    def own_state(self) -> dict[str, Any]:
        """The state's keys that a game's flow fills in (see :mod:`controller.core.snapshot`):
        its face-up ``cards``, the seats ``eliminated``, the cards each seat has ``taken`` and
        the ``detail`` of its play; here, none of them."""
        return {"cards": [], "eliminated": [], "taken": None, "detail": None}


TAKE_BACK = Action("take_back")


def _stage(game: PlaceTwistGame) -> tuple[int, bool]:
    """How far ``game`` has come: the moves played and whether a placement awaits its twist."""
    return len(game.moves), game.phase is Phase.TWIST


def _brief(record: Any, limit: int = 80) -> str:
    """A record for a message, cut to ``limit`` characters (a journal line can be long)."""
    text = repr(record)
    return text if len(text) <= limit else text[:limit - 3] + "..."
