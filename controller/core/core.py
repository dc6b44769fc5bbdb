"""The Core: one thread hands it every event in order; it returns the effects.

The contract is :meth:`Core.handle` (an event in, :class:`~controller.core.effects.Effects`
out) and :meth:`Core.state` (a JSON-able snapshot for the web console). Everything else lives in
its own room: the :class:`~controller.core.referee.Referee` judges the settled board, the
:class:`~controller.core.menu.MenuRoom` runs the board's menu, the
:class:`~controller.core.computer.Computer` prompts the computer opponent, the
:class:`~controller.core.display.Display` turns scenes into frames and
:mod:`~controller.core.snapshot` writes the state and the record. Games come from the
registry (:mod:`controller.games`): the core drives any game's flow through the small
protocol of :class:`~controller.games.spec.Flow` and names no game.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from collections.abc import Mapping
from typing import Any

from .. import games
from ..errors import ProfileError
from ..events import ButtonPress, Command, EncoderSteps, Event, HoleReading, LinkChange, Tick
from ..board import Physical, Step
from ..flow.published import Repaired, RepairBegun, Started
from ..flow import AWAITING_PLACEMENT, AWAITING_TWIST, BETWEEN_GAMES, CHOOSING, GAME_OVER, REPAIR, Action, Menu, Resume
from ..games import Flow, GameOptions, GameSpec, OptionError
from ..lights.render import next_change, render
from ..lights.scenes import overlay, paused_scene, sensed_scene, turning_scene
from ..lights.view import PALETTE, View
from ..rules import Phase, Twist
from . import snapshot
from .computer import Computer
from .display import Display
from .effects import Effects, Outbox, SavePicture
from .menu import MenuRoom
from .referee import Referee, describe

DEFAULT_COLOURS = ("white", "black")  # the board's marbles when the profile names none
KNOWN = (HoleReading, EncoderSteps, ButtonPress, LinkChange, Command, Tick)  # the events the core handles
COMMANDS = ("new_game", "take_back", "abort", "menu", "hint", "computer_move", "hint_move", "save_picture",
            "picture_saved")
# How notices name the commands and the flow's states: in words, never the identifiers.
COMMAND_WORDS = {"new_game": "new game", "take_back": "take back", "computer_move": "computer's move",
                 "hint_move": "hint", "save_picture": "save picture", "picture_saved": "picture saved"}
WHILE = {AWAITING_PLACEMENT: "while a marble is awaited", AWAITING_TWIST: "while a twist is awaited",
         REPAIR: "while the board is being repaired", GAME_OVER: "once the game is over",
         BETWEEN_GAMES: "between the games of a match"}
log = logging.getLogger(__name__)


class Core:
    """The referee: physical events in, moves, lights and journal records out.

    ``profile`` gives the board size, sensing, encoder detents, polarity colours and LED chain.
    ``journal_records`` resumes an earlier game (the first settled board is reconciled with it).
    ``colours`` names the board's own marbles (a tape's); ``start`` the readings at start-up.
    ``catalogue`` offers the games with the board's picture library (by default, the shipped
    pictures only; see :class:`controller.games.Catalogue`).
    The profile's hint gesture (a button pressed during a game) asks for a hint. The runtime
    tells it the board's configured level (:meth:`set_level`), which names a computer seat in a
    game whose options name none ("Computer (normal)").
    """

    def __init__(self, profile: Any, *, journal_records: list[dict[str, Any]] | None = None,
                 start_time: float = 0.0, settle_s: float = 0.15, grace_s: float = 2.0, turn_settle_s: float = 0.4,
                 colours: tuple[str, ...] | None = None, start: tuple[tuple[int, str], ...] = (),
                 steady_s: float = 0.05, catalogue: games.Catalogue | None = None) -> None:
        self.chain = profile.leds
        self.hint_button = profile.gestures.hint
        self.sensing = profile.sensing
        self.colour_input = profile.colour_input  # how a chosen marble colour is confirmed (Triple)
        self.colours = colours or tuple(profile.colours.values()) or DEFAULT_COLOURS
        unlit = [c for c in self.colours if c not in PALETTE]
        if unlit:
            raise ProfileError(f"marble colour {unlit[0]!r} has no light (colours: {', '.join(PALETTE)})")
        self.geometry = profile.geometry
        self.games = catalogue or games.SHIPPED  # the games as this board offers them, with its picture library
        self.level: int | None = None  # the board's configured level of the computer (the runtime's)
        self.pictures_saved = 0  # pictures saved from this board since it started
        self.saving: SavePicture | None = None  # the picture this event asks the daemon to keep
        self.games_started = 0  # new games started since it started (the page's messages start afresh with each)
        self.now = start_time
        self.referee = Referee(profile, settle_s, grace_s, turn_settle_s, start, steady_s)
        self.spec: GameSpec = self.games.get(games.DEFAULT)  # the game in play (or the last, or the default's at the menu)
        self.flow: Flow = self._flow_for(self.spec)
        self.rooms = MenuRoom(self.games.offered(profile.size), profile.size)
        self.computer = Computer()
        self.display = Display(self.chain, start_time)
        self.out = Outbox()  # notices from start-up go out with the first effects
        self.resume = Resume(0, 0)  # how much of the journal the start-up used
        if journal_records:
            self._resume(journal_records, start_time)

    # -- the contract --------------------------------------------------------------------------

    def handle(self, event: Event) -> Effects:
        """Handle one event; never raises for bad input (it becomes a notice)."""
        if isinstance(event, KNOWN):  # anything else is said to be ignored
            self.now = max(self.now, event.t)
        repairing = bool(snapshot.repair_texts(self))
        self._dispatch(event)
        self._run_timers()
        self.out.hear(self.flow)  # anything the flow has yet to tell
        self._tell_repair(repairing)
        frame = self.display.render(self._view(), self.now)
        think = self.computer.think(self.flow, self.now)
        if think is not None:
            think = replace(think, opponent=self.spec.opponent)  # the spec says who plays the game
        records, notices, events = self.out.take()
        save, self.saving = self.saving, None
        return Effects(frame, records, notices, think, self.next_deadline(), events, save)

    def _tell_repair(self, repairing: bool) -> None:
        """A repair begun or ended in this event (whether the board shows a game it does not
        match is known once every room has judged the event, so told here, once per event)."""
        steps = snapshot.repair_texts(self)
        if steps and not repairing:
            self.out.events.append(RepairBegun(steps))
        elif repairing and not steps:
            self.out.events.append(Repaired())

    def next_deadline(self, frames: bool = True) -> float | None:
        """When the core wants a Tick: a settle or grace timer, the computer's wait on an open
        twist, the next change of the LEDs, or the flow's own next moment (a flow that keeps time).
        ``frames=False`` leaves out the LEDs' animation: what a replay needs, since a frame
        changes what is lit, never what is refereed (a won game's animation asks for a Tick
        every 0.12 s for as long as the tape is silent)."""
        times = [self.referee.grace_at, self.referee.settles_at(), self.referee.steady_at(self.now),
                 next_change(self._view(), self.now) if frames else None,
                 self.referee.dim_ends_at() if frames else None,  # a bounce's light held, then dark
                 self.computer.wake_at(), self.flow.deadline()]
        return min((t for t in times if t is not None), default=None)

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot for the web console and the simulator (see :mod:`.snapshot`)."""
        return snapshot.state(self)

    def set_level(self, level: int | None) -> None:
        """The board's configured level changed (the config reloaded): it names the computer now."""
        self.level = level
        self.flow.use_board_level(level)

    def tell(self, notice: str) -> None:
        """Send ``notice`` out with the next effects (the daemon's own news from start-up)."""
        self.out.notices.append(notice)

    def view(self) -> View:
        """What the LEDs show now (before animation), for tests and tools."""
        return self._view()

    def paused_frame(self) -> tuple[tuple[int, int, int], ...]:
        """The LEDs while the board cannot save its moves (the runtime's pause)."""
        return render(paused_scene(self.geometry.hole_count), self.chain, self.now)

    # -- what the rooms hold, for tools and tests -----------------------------------------------

    @property
    def menu(self) -> Menu:
        return self.rooms.menu

    @property
    def physical(self) -> Physical:
        return self.referee.physical

    @property
    def repair(self) -> list[Step]:
        return self.referee.repair

    @property
    def settle_s(self) -> float:
        return self.referee.settle_s

    @property
    def turn_settle_s(self) -> float:
        return self.referee.turn_settle_s

    # -- events --------------------------------------------------------------------------------

    def _dispatch(self, event: Event) -> None:
        if isinstance(event, (HoleReading, EncoderSteps)):
            self.referee.sense(event, self.flow, self.out)
        elif isinstance(event, ButtonPress):
            self._button(event.button)
        elif isinstance(event, LinkChange):
            self.referee.link(event, self.out)
        elif isinstance(event, Command):
            self._command(event.name, event.args)
        elif not isinstance(event, Tick):  # a caller's mistake (it is typed out): said, never raised
            self.out.notices.append(f"ignored {event!r}: not an event the core knows")

    def _button(self, button: str) -> None:
        if self.flow.state == CHOOSING:
            options, notice = self.rooms.button(button)
            if notice:
                self.out.notices.append(notice)
            if options:
                self._start(options)
        elif self._colour_button(button):
            pass
        elif button == "back":
            self._command("take_back", {})
        elif button == self.hint_button and self.flow.state in self.flow.playing_states:
            self._command("hint", {})
        elif button == "ok" and self.flow.state == GAME_OVER:
            self._command("menu", {})
        else:
            self.out.notices.append(f"button {button!r} does nothing {WHILE.get(self.flow.published_state(), 'now')}")

    def _colour_button(self, button: str) -> bool:
        """While the flow awaits a new marble's colour, the profile's cycle button steps it and
        its confirm button plays it; True if ``button`` was one of them."""
        role = {self.colour_input.cycle: "cycle", self.colour_input.confirm: "confirm"}.get(button)
        if role is None or self.flow.awaits_colour() is None:
            return False
        records = self.flow.colour_button(role, self.now)
        self.out.records.extend(records)
        self.out.notices.extend(describe(self.flow, r) for r in records)
        self.out.hear(self.flow)
        self.physical.judge_again(self.now)  # a twist made meanwhile counts now
        return True

    # -- commands ------------------------------------------------------------------------------

    def _command(self, name: str, args: Mapping[str, Any]) -> None:
        handler = {"new_game": self._new_game, "take_back": self._take_back, "abort": self._abort,
                   "menu": self._abort, "hint": self._hint, "computer_move": self._computer_move,
                   "hint_move": self._hint_move, "save_picture": self._save_picture,
                   "picture_saved": self._picture_saved}.get(name)
        if handler is None:
            self.out.notices.append(f"unknown command {name!r}; commands: {', '.join(COMMANDS)}")
        elif not isinstance(args, Mapping):
            self.out.notices.append(f"{COMMAND_WORDS.get(name, name)}: arguments must be an object, not {args!r}")
        else:
            handler(args)

    def _new_game(self, args: Mapping[str, Any]) -> None:
        """Start the game ``args`` name ("game", "players", "twist", "names", "computer",
        "match", ...): options the daemon checked for this board already (a GameOptions) are
        trusted, others are checked by the registry here."""
        try:
            options = args if isinstance(args, GameOptions) and args.size == self.geometry.size else \
                self.games.options(args, self.geometry.size)
        except OptionError as error:
            self.out.notices.append(f"new game: {error}")
            return
        if self.flow.state != CHOOSING:
            self.out.records.append(self.flow.to_menu(self.now))
        self._start(options)
        self.referee.guide_off_leftovers()

    def _take_back(self, args: Mapping[str, Any]) -> None:
        if not self.flow.may_take_back():
            self.out.notices.append("nothing to take back: " + {
                CHOOSING: "no game is running", GAME_OVER: "the game is over",
                BETWEEN_GAMES: "the game is over"}.get(self.flow.state, "no move has been played yet"))
            return
        twist = self._last_twist()
        self.referee.accept(self.flow, (Action("take_back"),), self.now, self.out)
        if twist is not None:  # the block still stands turned: its count says so again
            self.physical.undo_turn(twist.block, 1 if twist.clockwise else -1)
        self.referee.guide_back(self.now)  # the board still shows the move

    def _last_twist(self) -> Twist | None:
        """The twist a take-back would undo now, if the last half-move was one."""
        game = self.flow.game
        if game is None or game.phase is not Phase.PLACE or not game.moves:
            return None
        twist: Twist | None = game.moves[-1].twist
        return twist

    def _abort(self, args: Mapping[str, Any]) -> None:
        if self.flow.state != CHOOSING:
            self.out.records.append(self.flow.to_menu(self.now))
            self.out.notices.append("back to the menu")
        self.menu.reset()
        self.referee.clear()

    def _computer_move(self, args: Mapping[str, Any]) -> None:
        self.out.notices.append(self.computer.answer(self.flow, args))

    def _hint(self, args: Mapping[str, Any]) -> None:
        self.out.notices.append(self.computer.ask_hint(self.flow, self.spec.title))

    def _hint_move(self, args: Mapping[str, Any]) -> None:
        self.out.notices.append(self.computer.answer_hint(self.flow, args))

    def _save_picture(self, args: Mapping[str, Any]) -> None:
        """Capture the board as the sensors read it now, titled ``args["title"]`` (see
        :func:`controller.games.capture_picture`), and ask the daemon to keep it: its store
        writes off the core thread and answers with ``picture_saved``. A capture refused (a bad
        title, an empty board, a marble of no picture colour) is a notice at once."""
        try:
            picture = games.capture_picture(self.physical.readings, self.geometry, args.get("title"))
        except ValueError as error:
            self.out.notices.append(f"save picture: {error}")
            return
        self.saving = SavePicture(picture)

    def _picture_saved(self, args: Mapping[str, Any]) -> None:
        """The store's answer to a save: what happened, said as a notice."""
        notice = args.get("notice")
        if isinstance(notice, str):
            self.out.notices.append(notice)
        self.pictures_saved += args.get("saved") is True  # the page reads the library afresh when this changes

    def _start(self, options: GameOptions) -> None:
        """Start checked ``options``' game (with its own flow if it has another)."""
        self.referee.clear()
        self.computer = Computer()  # nothing asked, answered or hinted in the game before carries over
        self.physical.rest(tuple(range(1, len(self.physical.steps) + 1)))  # every block is empty to the new game
        self.spec = self._spec_of(options)
        if type(self.flow) is not self.spec.flow:  # a subclass is another game's flow
            self.flow = self._flow_for(self.spec)
        self.out.records.append(self.flow.new_game(options, self.now))
        self._started()
        self.games_started += 1
        self.referee.sees(self.flow.colours, self.colours, self.sensing)
        match = " (a match)" if options.get("match") else ""
        game = self.flow.game
        assert game is not None  # the new game just started
        self.out.notices.append(f"new game of {self.spec.title}{match}: {self.flow.seat_name(game.to_move)} to move")
        self.out.hear(self.flow)  # what the game says before it starts
        self.physical.judge_again(self.now)

    def _started(self) -> None:
        """Tell the game just begun (a start or a match's next game): its name, seats and options."""
        self.out.events.append(Started(self.flow.options["game"], snapshot.seats(self.flow), dict(self.flow.options)))

    def _flow_for(self, spec: GameSpec) -> Flow:
        flow = spec.flow(self.games, self.colours, self.geometry.size)
        flow.use_board_level(self.level)
        return flow

    def _spec_of(self, options: Mapping[str, Any]) -> GameSpec:
        """The spec that checked ``options`` (the default game's before any game was chosen)."""
        spec = options.spec if isinstance(options, GameOptions) else self.games.get(games.DEFAULT)
        assert isinstance(spec, GameSpec)  # the registry's specs check every game's options
        return spec

    # -- judging -------------------------------------------------------------------------------

    def _run_timers(self) -> None:
        if self.referee.settled(self.now):
            self._judge()
        else:
            self.referee.judge_at_once(self.flow, self.spec, self.computer, self.now, self.out)
        if self.referee.grace_over(self.now):
            self.referee.enter_repair(self.flow, self.out)
        if self.flow.keeps_time:  # a show, a time limit
            records = self.flow.tick(self.now)
            if records:  # the game moved on by the clock: what the board must show has changed
                self.referee.look_again(self.now)
            self.out.records.extend(records)
            self.out.hear(self.flow)

    def _judge(self) -> None:
        state = self.flow.state
        if state == CHOOSING:
            options = self.menu.see(self.referee.occupied())
            if options:
                self._start(options)
            return
        if state in self.flow.playing_states or self.referee.provisional:  # a move that ended the game may be withdrawn
            self.referee.judge(self.flow, self.spec, self.computer, self.now, self.out)
            if self.flow.state == AWAITING_TWIST and self.computer.skips(self.flow):
                self.referee.accept(self.flow, (Action("skip"),), self.now, self.out)
        state = self.flow.state
        # game over or between games, the end sure: the players cleared the board (it may be
        # cleared before a win accepted at once was sure, and is not judged again once still)
        if state not in (*self.flow.playing_states, CHOOSING) and not self.referee.provisional and not self.referee.occupied():
            if state == BETWEEN_GAMES:
                self.out.records.append(self.flow.next_game(self.now))
                self._started()
            else:
                self.out.records.append(self.flow.to_menu(self.now))
            self.computer = Computer()  # the next game's turns are its own (their keys may repeat the last game's)
            self.physical.rest(())

    # -- journal -------------------------------------------------------------------------------

    def _resume(self, records: list[dict[str, Any]], t: float) -> None:
        """Rebuild the game from the longest prefix of ``records`` that replays cleanly; what
        follows is not used (``self.resume`` says where and why, so the daemon can set the
        journal aside). With no game left in play the board starts at the menu."""
        try:
            self.flow, self.resume = self.games.resumed(records, self.colours, self.geometry.size)
            self.flow.use_board_level(self.level)
        except Exception as error:  # a replay bug must not stop the board starting: use nothing
            log.exception("journal replay failed")
            self.flow = self._flow_for(self.games.get(games.DEFAULT))
            self.resume = Resume(0, len(records), f"replay failed: {error!r}")
        self.spec = self._spec_of(self.flow.options)
        if self.resume.problem is not None:
            self.out.notices.append(f"journal {self.resume.problem}; {self._resumed_from()}")
        self.referee.sees(self.flow.colours, self.colours, self.sensing)
        self.referee.resumed(t, playing=self.flow.state in self.flow.playing_states)

    def _resumed_from(self) -> str:
        if self.flow.state == CHOOSING:
            return "starting at the menu"
        return f"resumed the game from the {self.resume.used} record(s) before it"

    # -- output --------------------------------------------------------------------------------

    def _view(self) -> View:
        """The game's scene with the new marbles read and not yet accepted glowing dim over it
        (:meth:`Referee.unaccepted`, held through a bounce) and the arrows of the blocks read
        turning for the twist due (:meth:`Referee.turning`), rebuilt only when something it
        shows has changed."""
        flow, game, menu = self.flow, self.flow.game, self.menu
        prompt = self.computer.shown(flow)
        sensed = self.referee.unaccepted(flow, self.spec, self.now) if game else ()
        turning = self.referee.turning(flow, self.spec, self.now) if game else ()
        key = (flow.state, flow.colours, game and flow.expected(), game and game.phase, game and game.to_move, sensed,
               turning, menu.page_name(), tuple(menu.option_holes()), menu.pick, self.repair[:1],
               flow.match and len(flow.match.outcomes), prompt, flow.awaits_colour(),
               flow.left_s,  # a flow's countdown, where it keeps one
               self.referee.link_up)
        def build() -> View:
            scene = self.spec.scene(flow, menu, self.repair, prompt)
            mover = scene.turn  # while a twist is due, the turn light is in the mover's colour
            scene = overlay(scene, sensed_scene(sensed), turning_scene(turning, mover) if mover else View())
            return replace(scene, no_sensors=not self.referee.link_up)
        return self.display.view(key, build)
