"""The functional core: events in, effects out.

One thread calls :meth:`Core.handle` with every event in order; it returns the :class:`Effects`
(a new LED frame, journal records to write durably before showing it, and notices for people).
The core never reads a clock or touches hardware: time comes from the events, so a tape replays
exactly as it was played and tests drive the core with a fake clock.

Judging: the board is judged once it has been still for ``settle_s`` (hole changes and encoder
steps both count as movement). A settled board that matches the game or is one legal step from
it (a placement, a twist, both, a skipped twist, a take-back) plays on; anything else starts a
grace timer of ``grace_s``, after which repair mode guides the players back, step by step.

>>> from controller.profile import load_profile
>>> from controller.events import HoleReading, Tick, Command
>>> core = Core(load_profile("virtual-6x6"))
>>> effects = core.handle(Command(0.0, "new_game", {"game": "classic"}))
>>> effects.records[0]["kind"], core.state()["state"]
('start', 'awaiting_placement')
>>> _ = core.handle(HoleReading(1.0, 8, "marble"))
>>> core.handle(Tick(1.2)).notices
('c2 placed by seat 1',)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from .board import BoardInputError, Diff, Physical, Step, compare, repair_steps
from .events import EMPTY, ButtonPress, Command, EncoderSteps, HoleReading, LinkChange, Tick
from .flow import PLAYING, Action, ClassicFlow, Menu, explain, is_idle_turn
from .flow.classic import Resume
from .flow.classic_records import option_problem
from .errors import ProfileError
from .flow.classic_steps import next_colour
from .flow.scene import scene
from .lights.render import next_change, render
from .lights.view import PALETTE, View
from .rules import ClassicGame, Move, Phase, Position, Twist, hole_name, parse_move

RGB = tuple[int, int, int]
DEFAULT_COLOURS = ("white", "black")
SYMBOLS = "xoyz"
COMPUTER_SEAT = 2  # the computer opponent plays the second seat  # the physical board's colours, as the rules' text boards print them
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Effects:
    """What the runtime must do after one event, in order: write ``records``, show ``frame``."""

    frame: tuple[RGB, ...] | None  # new LED frame, None when unchanged
    records: tuple[dict[str, Any], ...] = ()  # journal records to write BEFORE showing the frame
    notices: tuple[str, ...] = ()  # human messages for the log and the web console
    think: Think | None = None  # a position for the computer opponent (answered by a Command)


@dataclass(frozen=True)
class Think:
    """A request for the computer opponent's move, answered with ``Command("computer_move",
    {"key": key, "move": "<classic notation>"})``. The search is slow, so the runtime runs it
    off the core thread; ``game`` is the core's own copy, free to search on."""

    key: str  # names the turn; an answer for any other turn is ignored
    game: ClassicGame
    level: int = 2


class Core:
    """The referee: physical events in, moves, lights and journal records out.

    ``profile`` gives the board size, sensing, encoder detents, polarity colours and LED chain.
    ``journal_records`` resumes an earlier game (the first settled board is reconciled with it).
    """

    def __init__(self, profile: Any, *, journal_records: list[dict[str, Any]] | None = None,
                 start_time: float = 0.0, settle_s: float = 0.15, grace_s: float = 2.0, turn_settle_s: float = 0.4,
                 colours: tuple[str, ...] | None = None, start: tuple[tuple[int, str], ...] = ()) -> None:
        self.chain = profile.leds
        self.colours = colours or tuple(profile.colours.values()) or DEFAULT_COLOURS
        unlit = [c for c in self.colours if c not in PALETTE]
        if unlit:
            raise ProfileError(f"marble colour {unlit[0]!r} has no light (colours: {', '.join(PALETTE)})")
        self.settle_s, self.grace_s, self.turn_settle_s = settle_s, grace_s, turn_settle_s
        self.now = start_time
        self.physical = Physical(profile.geometry, profile.detents_per_quarter)
        for hole, reading in start:
            self.physical.readings[hole] = reading
        self.flow = ClassicFlow(self.colours, profile.size)
        self.menu = Menu(profile.size)
        self.link_up = True
        self.grace_at: float | None = None
        self.repair: list[Step] = []
        self.strict = False  # the next mismatch means repair at once (after a resume or a command)
        self.hold = False  # accept no move until the board matches (after a commanded change)
        self.frame: tuple[RGB, ...] | None = None
        self.prompt: tuple[str, Move] | None = None  # the computer's move for its turn's key
        self._asked: str | None = None  # the turn a Think went out for
        self._shown: View | None = None  # the view the last frame was rendered from
        self._view_key: tuple[Any, ...] | None = None
        self._view_cache = View()
        self._shown_t = start_time
        self._records: list[dict[str, Any]] = []
        self._notices: list[str] = []  # notices from start-up go out with the first effects
        self.resume = Resume(0, 0)  # how much of the journal the start-up used
        self.reconciling = False  # resumed, the board not yet seen to match: no take-back
        if journal_records:
            self._resume(journal_records, start_time)

    # -- the contract --------------------------------------------------------------------------

    def handle(self, event: Any) -> Effects:
        """Handle one event; never raises for bad input (it becomes a notice)."""
        self.now = max(self.now, getattr(event, "t", self.now))
        self._dispatch(event)
        self._run_timers()
        effects = Effects(self._render(), tuple(self._records), tuple(self._notices), self._think())
        self._records, self._notices = [], []
        return effects

    def next_deadline(self) -> float | None:
        """When the core wants a Tick: a settle or grace timer, or the next change of the LEDs."""
        times = [self.grace_at]
        if self.link_up:
            times.append(self.physical.settles_at(self.settle_s, self.turn_settle_s))
        times.append(next_change(self._view(), self.now))
        return min((t for t in times if t is not None), default=None)

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot for the web console and the simulator."""
        flow, game = self.flow, self.flow.game
        return {
            "state": flow.state,
            "board": (game.position if game else Position.empty(self.physical.geometry.size)).rows(),
            "physical": self._physical_rows(),
            "to_move": game.to_move if game and not game.is_over() else None,
            "phase": game.phase.value if game else None,
            "moves": flow.move_texts(),
            "outcome": self._outcome(),
            "repair": [step.text(game.position) for step in self.repair] if game else [],
            "match": self._match(),
            "menu": self._menu() if flow.state == "choosing" else None,
            "options": dict(flow.options) if game else None,  # the game's: computer, match, ...
            "frame": [list(rgb) for rgb in self.frame or ()],
        }

    # -- events --------------------------------------------------------------------------------

    def _dispatch(self, event: Any) -> None:
        if isinstance(event, (HoleReading, EncoderSteps)):
            self._sense(event)
        elif isinstance(event, ButtonPress):
            self._button(event.button)
        elif isinstance(event, LinkChange):
            self._link(event)
        elif isinstance(event, Command):
            self._command(event.name, event.args)
        elif not isinstance(event, Tick):
            self._notices.append(f"ignored {event!r}: not an event the core knows")

    def _sense(self, event: HoleReading | EncoderSteps) -> None:
        try:
            self.physical.apply(event)
        except BoardInputError as error:
            self._notices.append(f"ignored sensor event {event!r}: {error}")
        if self.reconciling and self._sensed_the_game():
            self.reconciling = False  # the board holds the resumed game: what changes next is a player's

    def _sensed_the_game(self) -> bool:
        game = self.flow.game
        return game is not None and compare(game.position, self.physical, self.colours).is_same()

    def _button(self, button: str) -> None:
        if self.flow.state == "choosing":
            self._menu_button(button)
        elif button == "back":
            self._command("take_back", {})
        elif button == "ok" and self.flow.state == "game_over":
            self._command("menu", {})
        else:
            self._notices.append(f"button {button!r} does nothing in {self.flow.state}")

    def _menu_button(self, button: str) -> None:
        if button == "ok":
            options = self.menu.ok()
            if options:
                self._start(options)
        elif button == "back":
            self.menu.back()
        else:
            self._notices.append(f"button {button!r} does nothing in the menu")

    def _link(self, event: LinkChange) -> None:
        self.link_up = event.up
        self.grace_at = None  # the clock pauses while the sensors are away
        if event.up:
            self.physical.changed_t = event.t  # judge afresh once the snapshot has settled
        self._notices.append(f"sensor link {'up' if event.up else 'down'}{': ' + event.reason if event.reason else ''}")

    # -- commands ------------------------------------------------------------------------------

    def _command(self, name: str, args: dict[str, Any]) -> None:
        handler = {"new_game": self._new_game, "take_back": self._take_back,
                   "abort": self._abort, "menu": self._abort, "computer_move": self._computer_move}.get(name)
        if handler is None:
            self._notices.append(
                f"unknown command {name!r}; commands: new_game, take_back, abort, menu, computer_move")
        elif not isinstance(args, dict):
            self._notices.append(f"{name}: arguments must be an object, not {args!r}")
        else:
            handler(args)

    def _new_game(self, args: dict[str, Any]) -> None:
        options = {"game": args.get("game", "classic"), "players": args.get("players", 2),
                   "computer": args.get("computer", False), "match": args.get("match", False)}
        problem = option_problem(options)
        if problem:
            self._notices.append(f"new_game: {problem}")
            return
        if self.flow.state != "choosing":
            self._records.append(self.flow.to_menu(self.now))
        self._start(options)
        # Marbles left from before are no one's move: guide them off at once, accept nothing first.
        self.strict = self.hold = bool(self._occupied())

    def _take_back(self, args: dict[str, Any]) -> None:
        if not self.flow.may_take_back():
            self._notices.append("nothing to take back: " + {
                "choosing": "no game is running", "game_over": "the game is over",
                "between_games": "the game is over"}.get(self.flow.state, "no move has been played yet"))
            return
        twist = self._last_twist()
        self._accept_records(self.flow.accept((Action("take_back"),), self.now))
        if twist is not None:  # the block still stands turned: its count says so again
            self.physical.undo_turn(twist.block, 1 if twist.clockwise else -1)
        self.strict = self.hold = True  # the board still shows the move: guide it back
        self.physical.changed_t = self.now

    def _last_twist(self) -> Twist | None:
        """The twist a take-back would undo now, if the last half-move was one."""
        game = self.flow.game
        if game is None or game.phase is not Phase.PLACE or not game.moves:
            return None
        return game.moves[-1].twist

    def _abort(self, args: dict[str, Any]) -> None:
        if self.flow.state != "choosing":
            self._records.append(self.flow.to_menu(self.now))
            self._notices.append("back to the menu")
        self.menu.reset()
        self.repair, self.grace_at = [], None
        self.strict = self.hold = False

    def _start(self, options: dict[str, Any]) -> None:
        self.strict = self.hold = False
        self.repair, self.grace_at = [], None  # nothing of the game before is left to mend
        self.physical.rest(tuple(range(1, len(self.physical.steps) + 1)))  # every block is empty to the new game
        self._records.append(self.flow.new_game(options, self.now))
        self._notices.append(f"new {options['game']} game{' (match)' if options.get('match') else ''}: seat 1 to move")
        self.physical.changed_t = self.now

    # -- the computer opponent ------------------------------------------------------------------

    def _turn_key(self) -> str | None:
        """Names the computer's turn by the move number and the position it began from, or None
        when it is not the computer's turn."""
        game, flow = self.flow.game, self.flow
        if game is None or game.is_over() or not flow.options.get("computer") or game.to_move != COMPUTER_SEAT:
            return None
        start = game.position
        if game.phase is Phase.TWIST and flow.placed_hole is not None:
            start = start.lift(flow.placed_hole)
        return f"{len(game.moves)} {start.text()}"

    def _think(self) -> Think | None:
        key = self._turn_key()
        game = self.flow.game
        if key is None or key == self._asked or game is None or game.phase is not Phase.PLACE:
            return None
        self._asked = key
        return Think(key, ClassicGame(game.geometry.size, game.players, game.position, game.to_move))

    def _computer_move(self, args: dict[str, Any]) -> None:
        key, game = self._turn_key(), self.flow.game
        if key is None or game is None or args.get("key") != key:
            self._notices.append("computer_move: not for the turn in play; ignored")
            return
        try:
            move = parse_move(str(args.get("move")), game.geometry)
        except ValueError as error:
            self._notices.append(f"computer_move: {error}")
            return
        self.prompt = (key, move)
        colour = self.colours[COMPUTER_SEAT - 1]
        then = f", then turn block {move.twist.block} {'clockwise' if move.twist.clockwise else 'counter-clockwise'}" if move.twist else ""
        self._notices.append(f"computer plays {game.move_name(move)}: put a {colour} marble on {hole_name(move.hole, game.geometry)}{then}")

    def _prompted(self) -> Move | None:
        """The computer's move while its turn lasts."""
        key = self._turn_key()
        return self.prompt[1] if self.prompt is not None and self.prompt[0] == key else None

    def _follows_prompt(self, actions: tuple[Action, ...]) -> bool:
        """The computer's turn accepts only the move it chose (take-backs of the last move too)."""
        if self._turn_key() is None:
            return True
        move = self._prompted()
        for action in actions:
            if action.kind == "take_back":
                continue
            if move is None or (action.kind == "place" and action.hole != move.hole):
                return False
            if action.kind == "twist" and action.twist != move.twist:
                return False
            if action.kind == "skip" and move.twist is not None:
                return False
        return True

    # -- judging -------------------------------------------------------------------------------

    def _run_timers(self) -> None:
        settles_at = self.physical.settles_at(self.settle_s, self.turn_settle_s)
        if self.link_up and settles_at is not None and self.now >= settles_at:
            self.physical.judged()
            self._judge()
        if self.grace_at is not None and self.now >= self.grace_at:
            self._enter_repair()

    def _judge(self) -> None:
        state = self.flow.state
        if state == "choosing":
            options = self.menu.see(self._occupied())
            if options:
                self._start(options)
        elif state in PLAYING:
            self._judge_game()
        elif not self._occupied():  # game over or between games: the players cleared the board
            self._records.append(self.flow.next_game(self.now) if state == "between_games" else self.flow.to_menu(self.now))
            self.physical.rest(())

    def _judge_game(self) -> None:
        game = self.flow.game
        assert game is not None
        diff = compare(game.position, self.physical, self.colours)
        actions = None if self.hold else explain(game, diff, self.flow.placed_hole, self.physical)
        if actions and not self._follows_prompt(actions):
            actions = None  # a marble where the computer did not play: guide it off
        if actions and self.reconciling and any(a.kind == "take_back" for a in actions):
            actions = None  # a board found missing marbles after a resume is a repair, not a decision
        if diff.is_same() or is_idle_turn(game, diff):
            self._matched(diff)
        elif actions:
            self._accept_records(self.flow.accept(actions, self.now))
            self._settle_blocks(diff)
            self.reconciling = False  # the board showed the game plus a move: it is the players' again
            self._recheck()
        else:
            self._mismatch(diff)
        self.strict = False

    def _recheck(self) -> None:
        """After accepting: anything the actions did not explain (the rules refused one) is a
        mismatch like any other. A game that just ended leaves the board to the players."""
        game = self.flow.game
        if game is None or game.is_over():
            return
        diff = compare(game.position, self.physical, self.colours)
        if not diff.is_same():
            self._mismatch(diff)

    def _accept_records(self, records: list[dict[str, Any]]) -> None:
        self._records.extend(records)
        self._notices.extend(self._describe(r) for r in records)
        self.repair, self.grace_at = [], None

    def _settle_blocks(self, diff: Diff) -> None:
        """The board matches the game: every block sits where the game expects it. Loose
        neutral blocks stay counted: one may be turning slowly, or have stopped a detent into
        a twist that comes with a placement not seen yet."""
        self.physical.rest(tuple(b for b in range(1, len(self.physical.steps) + 1) if b not in diff.loose))

    def _matched(self, diff: Diff) -> None:
        self._settle_blocks(diff)
        self.grace_at, self.repair, self.hold, self.reconciling = None, [], False, False
        if self.flow.state == "repair":
            self.flow.mended()
            self._notices.append("the board matches again: play on")

    def _mismatch(self, diff: Diff) -> None:
        game = self.flow.game
        assert game is not None
        self.repair = repair_steps(diff, game.position, self.physical, self.colours, next_colour(game))
        if self.strict:
            self._enter_repair()
        elif self.grace_at is None and self.flow.state != "repair":
            self.grace_at = self.now + self.grace_s
        if self.flow.state == "repair":
            self._notices.append(f"repair: {self.repair[0].text(game.position)}")

    def _enter_repair(self) -> None:
        self.grace_at = None
        if self.flow.state in ("awaiting_placement", "awaiting_twist"):
            self.flow.broke()
            self._notices.append("the board does not match the game: repair mode")

    # -- journal -------------------------------------------------------------------------------

    def _resume(self, records: list[dict[str, Any]], t: float) -> None:
        """Rebuild the game from the longest prefix of ``records`` that replays cleanly; what
        follows is not used (``self.resume`` says where and why, so the daemon can set the
        journal aside). With no game left in play the board starts at the menu."""
        try:
            self.flow, self.resume = ClassicFlow.resumed(records, self.colours, self.physical.geometry.size)
        except Exception as error:  # a replay bug must not stop the board starting: use nothing
            log.exception("journal replay failed")
            self.flow = ClassicFlow(self.colours, self.physical.geometry.size)
            self.resume = Resume(0, len(records), f"replay failed: {error!r}")
        if self.resume.problem is not None:
            self._notices.append(f"journal {self.resume.problem}; {self._resumed_from()}")
        self.physical.orientation_known = False  # the blocks may have turned while we were down
        self.physical.changed_t = t  # judge the board as found, even if no reading changes
        self.strict = self.reconciling = self.flow.state in PLAYING

    def tell(self, notice: str) -> None:
        """Send ``notice`` out with the next effects (the daemon's own news from start-up)."""
        self._notices.append(notice)

    def _resumed_from(self) -> str:
        if self.flow.state == "choosing":
            return "starting at the menu"
        return f"resumed the game from the {self.resume.used} record(s) before it"

    # -- output --------------------------------------------------------------------------------

    def view(self) -> View:
        """What the LEDs show now (before animation), for tests and tools."""
        return self._view()

    def _view(self) -> View:
        """The scene, rebuilt only when something it shows has changed (most events change
        nothing the LEDs show: a bounce, an encoder step, a tick)."""
        flow, game = self.flow, self.flow.game
        key = (flow.state, game and game.position, game and game.phase, self.menu.page, self.menu.pick,
               self.repair[:1], flow.match and len(flow.match.outcomes), self._prompted())
        if key != self._view_key:
            self._view_key, self._view_cache = key, scene(flow, self.menu, self.repair, self._prompted())
        return self._view_cache

    def _render(self) -> tuple[RGB, ...] | None:
        view = self._view()
        if view == self._shown and next_change(view, self._shown_t) is None:
            return None  # a still view already on the LEDs: nothing to render
        self._shown, self._shown_t = view, self.now
        frame = render(view, self.chain, self.now)
        if frame == self.frame:
            return None
        self.frame = frame
        return frame

    def _describe(self, record: dict[str, Any]) -> str:
        kind, game = record["kind"], self.flow.game
        if kind == "place":
            seat = game.to_move if game and game.phase.value == "twist" else None
            return f"{record['hole']} placed" + (f" by seat {seat}" if seat else "")
        if kind in ("twist", "skip"):
            return f"{self.flow.move_texts()[-1] if game and game.moves else kind} accepted"
        if kind == "take_back":
            return "take-back"
        if kind == "end":
            winners = record["winners"]
            return f"seat {winners[0]} wins ({record['termination']})" if winners else f"draw ({record['termination']})"
        return kind

    def _occupied(self) -> set[int]:
        return {h for h, reading in enumerate(self.physical.readings) if reading != EMPTY}

    def _physical_rows(self) -> list[str]:
        size = self.physical.geometry.size
        cells = [_symbol(r, self.colours) for r in self.physical.readings]
        return ["".join(cells[r * size:(r + 1) * size]) for r in reversed(range(size))]

    def _outcome(self) -> dict[str, Any] | None:
        outcome = self.flow.game.outcome if self.flow.game else None
        if outcome is None:
            return None
        return {"result": outcome.result, "winners": list(outcome.winners), "lines": [list(line) for line in outcome.lines]}

    def _match(self) -> dict[str, Any] | None:
        match = self.flow.match
        if match is None:
            return None
        return {"wins": {str(seat): n for seat, n in match.wins.items()}, "games": len(match.outcomes)}

    def _menu(self) -> dict[str, Any]:
        return {"page": self.menu.page_name(), "holes": [hole_name(h, self.physical.geometry) for h in self.menu.option_holes()],
                "pick": self.menu.pick, "chosen": dict(self.menu.chosen)}


def _symbol(reading: str, colours: tuple[str, ...]) -> str:
    if reading == EMPTY:
        return "."
    if reading in colours:
        return SYMBOLS[colours.index(reading)]
    return "*" if reading == "marble" else "?"
