"""A model of everything a user can do with a board: a hypothesis state machine over the real core.

:class:`BoardModel` drives a real :class:`~controller.core.Core` on a fake clock through a
:class:`~controller.drivers.virtual.VirtualBoard` of either size (6x6, 9x9) and any sensing kind
(colour, as the virtual profiles; presence, as reed switches; polarity, as linear Hall sensors),
the way people and the daemon do: every game and option of the registry started from any state,
in play or over; legal moves drawn from the rules (placements, twists, skips, Triple's colours
confirmed on the buttons and its move phase, Picture-Puzzle's build, dismantles and restores
that pass); marbles put and lifted anywhere, twists half-made, doubled or undone; the lights
followed (repairs, the computer's moves, hints); take back, menu, abort, hint, save picture;
the computer's answers as the runtime sends them (from :func:`controller.ai.choose_move` with a
tiny budget, any legal move, or nonsense, for the turn in play or a stale one); buttons, the
sensor link down and up, plain ticks, timers run out (a Tick far ahead), the config reloaded,
and a restart from the journal (a new core built from the records so far as the daemon starts
it, after a service restart or a power cut, or as the runtime rebuilds it).

What must hold (the invariants, after every step unless said):

- :meth:`Core.handle` never raises and always returns :class:`Effects` whose records the
  journal can write (JSON, no NaN), whose notices are text and whose frame fits the LED chain;
- :meth:`Core.state` never raises and is JSON;
- the core never asks for a Tick it has just been given (the runtime would spin), nor for one
  further ahead than the longest timer an option sets; no duration it reports is negative;
- a Tick far ahead changes nothing when the core asked for no Tick (no timer was forgotten);
- repair guidance is lit only while a game is played, and once the board has settled it is
  the guidance for the board as the sensors read it, not for a board gone by;
- the lights lead back to the game: players who straighten every block and do each repair
  step as lit have nothing left to mend within a few dozen steps (a rule);
- the journal, kept as the runtime keeps it (a start or a menu record begins it afresh),
  always replays with no problem to the game the board plays, and a core restarted from it by
  the daemon's own path holds the same game (:func:`game_of`).

:data:`TALLY` counts the steps and the games and states reached, for the long run in
``bench/robustness/core_model.py``; ``tests/core/test_core_model.py`` runs it in CI.
"""

from __future__ import annotations

import itertools
import json
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from controller import games
from controller.ai import choose_move
from controller.board import compare, repair_steps
from controller.core import Core, Effects, Think
from controller.core.core import COMMANDS
from controller.core.snapshot import match, outcome
from controller.daemon.resume import core_from_journal, sensed_by
from controller.drivers.virtual import VirtualBoard
from controller.events import MARBLE, UNSURE, ButtonPress, Command, EncoderSteps, HoleReading, Tick
from controller.flow import FRESH_KINDS, PlaceTwistFlow
from controller.games.puzzle.flow import PuzzleFlow
from controller.games.triple.flow import TripleFlow
from controller.games.puzzle import MAX_S, Setting
from controller.games.triple import FreeChoice
from controller.journal import Journal, decode_record, encode_record
from controller.profile import ColourInput, Profile, load_profile
from controller.rules import Phase, Twist
from controller.games import Catalogue, PictureStore
from controller.rules.puzzle.notation import Kind

SIZES = (6, 9)
SENSINGS = ("colour", "presence", "polarity")
POLES = {"north": "white", "south": "black"}  # a polarity board's two colours, as on the B builds
TRIPLE_POLES = {"blue": "white", "yellow": "black"}  # the pole each Triple colour is fitted with
BUTTONS = ("ok", "back")
PAUSES = (0.05, 0.5, 2.5)  # under the settle time, a person's pause, past the grace time
FAR_S = 3600.0  # a Tick this far ahead: every timer has run out
MEND_STEPS = 200  # repair steps that mend any board the model can make (a 9x9 board holds 81 marbles)
BOOT_S = (2.0, 30.0)  # the clock when the daemon starts after a reboot (monotonic, from the boot)
TWISTS = {size: tuple(Twist(b, cw) for b in range(1, (size // 3) ** 2 + 1) for cw in (True, False)) for size in SIZES}
STAGES = {"choosing": "menu", "game_over": "over", "between_games": "between"}  # the rest: in play

# Values for the options whose values cannot be listed (typed on the web page), refusals included.
FREE: dict[str, tuple[Any, ...]] = {
    "cards": ("", "", "BYRYB,RRYBB", "BBBBY,RRRRY,YYYYB", "BYRYB", "RRRRR,BBBBB,YYYYY,BYRYB"),
    "seed": (None, 0, 7, 2**31 - 1),
    "start_k": (1, 1, 2, 3, 4, 7),
    "restore_limit_s": (None, None, 1, 4, 30),
    "dismantle_limit_s": (None, None, 1, 5),
    "show_s": (0, 0, 0.5, 3),
}
NONSENSE = {"game": "chess", "players": 7, "twist": "sideways", "computer": [9], "level": 99, "picture": "mona-lisa",
            "names": ["", "x" * 40], "match": "yes", "mode": "solo", "cards": "BYRYX", "seed": -1, "start_k": 0,
            "show_s": -1, "check": "smell", "hints": 3}
TITLES = (None, "", "Dots", "Dots", "Two Rows", "x" * 60)  # save picture: taken titles and bad ones too
_boards = itertools.count(1)  # each model's pictures are its own: a title names one picture only


@dataclass
class Tally:
    """What the model has done (one tally for a whole run): steps, restarts, and how many
    steps ended in each (game, flow state)."""

    steps: int = 0
    restarts: int = 0
    reached: Counter[tuple[str, str]] = field(default_factory=Counter)
    records: Counter[tuple[str, str]] = field(default_factory=Counter)  # (game, record kind) written

    def clear(self) -> None:
        self.steps, self.restarts = 0, 0
        self.reached.clear()
        self.records.clear()


TALLY = Tally()


def profile_for(size: int, sensing: str) -> Profile:
    """The virtual profile of ``size``, sensing as asked (a real build's colour buttons where
    the sensors cannot see every colour)."""
    profile = load_profile(f"virtual-{size}x{size}")
    if sensing == "colour":
        return profile
    return replace(profile, sensing=sensing, colours=POLES if sensing == "polarity" else {}, colour_input=ColourInput())


def game_of(flow: Any) -> dict[str, Any]:
    """The game a flow holds, as "the same game" is judged across a restart: where play stands
    (menu, in play, over, between games), the options, the game's position, moves, phase, seat
    to move and outcome, the match; Picture-Puzzle adds its step, k, stage and the build so far.

    Not in it, as no record holds them: a repair in progress (the resumed board is judged
    afresh), a Triple marble awaiting its colour (confirmed again), and where Picture-Puzzle
    stands between two rounds (a failed round's picture guided back, shown, the next dismantle
    begun with no step yet: the restarted core sees the board mended and moves on).
    """
    game = flow.game
    if game is None:
        return {"stage": STAGES.get(flow.state, flow.state)}
    held = {"stage": STAGES.get(flow.state, "playing"), "options": dict(flow.options), "position": game.position.rows(),
            "moves": flow.move_texts(), "phase": game.phase.value, "outcome": outcome(game), "match": match(flow),
            "to_move": None if game.is_over() else game.to_move}
    if isinstance(flow, PuzzleFlow):  # between rounds: guided back, shown, or the dismantle yet to begin
        fresh = game.step in ("guide", "show") or (game.step == "dismantle" and not game.steps())
        held.update(step="next round" if fresh else game.step, k=game.k, stage_k=game.stage, built=game.built.rows(),
                    eliminated=list(game.eliminated))
        if fresh:
            held["to_move"] = None
    return held


class BoardModel(RuleBasedStateMachine):
    """One board, its core and its journal; people, the runtime and the clock act on them."""

    def __init__(self) -> None:
        super().__init__()
        self.pictures = tempfile.mkdtemp(prefix="pentago-model-pictures-")
        self.serial = next(_boards)
        self.store = PictureStore(self.pictures)  # save_picture writes here, never into a user's folder
        self.games = Catalogue(self.store)  # the board's games read it, as the daemon's do
        self.t = 0.0
        self.thinks: list[Think] = []
        self.journal: list[bytes] = []  # the lines the runtime would have written
        self.plugged = True
        self.hand: str | None = POLES["north"]  # the colour of the marble lifted last

    def teardown(self) -> None:
        shutil.rmtree(self.pictures, ignore_errors=True)

    @initialize(size=st.sampled_from(SIZES), sensing=st.sampled_from(SENSINGS), data=st.data())
    def boot(self, size: int, sensing: str, data: st.DataObject) -> None:
        self.start(size, sensing, data)

    def start(self, size: int, sensing: str, data: st.DataObject) -> None:
        """A board of ``size`` and ``sensing`` starts; mostly someone starts a game at once."""
        self.profile = profile_for(size, sensing)
        self.geometry = self.profile.geometry
        self.board = VirtualBoard.from_profile(self.profile, clock=lambda: self.t, buttons=BUTTONS)
        self.detents = self.board.detents_per_quarter
        self.offsets = [0] * self.geometry.block_count  # detents each block stands off its rest
        self.core = Core(self.profile, start_time=self.t, catalogue=self.games)
        self.feed(Tick(self.t))  # as the runtime starts: a first Tick, then the inputs
        self.board.start(self.feed)
        if data.draw(st.integers(0, 5), label="at the menu"):
            spec = data.draw(st.sampled_from(games.offered(size)), label="game")
            self.command("new_game", draw_options(data, spec, size))

    # -- the daemon's side: events in, effects out ------------------------------------------------

    def feed(self, event: Any) -> Effects:
        effects = self.core.handle(event)
        assert isinstance(effects, Effects), effects
        for record in effects.records:
            line = encode_record(record)  # raises for a record the journal cannot write
            TALLY.records[(self.core.flow.options.get("game", "-"), _kind(record))] += 1
            self.journal = [line] if record.get("kind") in FRESH_KINDS else [*self.journal, line]
        assert all(isinstance(notice, str) for notice in effects.notices), effects.notices
        if effects.frame is not None:
            assert len(effects.frame) == len(self.profile.leds.pixels)
            assert all(len(rgb) == 3 and all(0 <= c <= 255 for c in rgb) for rgb in effects.frame)
        if effects.think is not None:
            self.thinks = [*self.thinks[-4:], effects.think]
        if effects.save is not None:  # the runtime's pictures thread, at once
            notice, saved = self.store.keep(effects.save.picture)
            self.feed(Command(self.t, effects.save.answer, {"notice": notice, "saved": saved}))
        return effects

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass, ticking the core at every deadline it asks for, as the runtime does."""
        end = self.t + seconds
        while (due := self.core.next_deadline()) is not None and due <= end:
            self.t = max(self.t, due)
            self.feed(Tick(self.t))
            again = self.core.next_deadline()
            assert again is None or again > self.t, f"the core asks again for the Tick at {again} it was given at {self.t}"
        self.t = end

    def command(self, name: str, args: Any = None) -> Effects:
        return self.feed(Command(self.t, name, {} if args is None else args))

    def records(self) -> list[dict[str, Any]]:
        return [decode_record(line.rstrip(b"\n")) for line in self.journal]

    # -- hands on the board ------------------------------------------------------------------------

    def aligned(self, hole: int) -> bool:
        return self.offsets[self.board.grid.block_of(hole) - 1] == 0

    def put(self, hole: int, colour: str | None) -> bool:
        if hole in self.board.marbles() or not self.aligned(hole):
            return False
        self.board.place(hole, colour)
        return True

    def take(self, hole: int) -> str | None:
        """Lift the marble on ``hole`` if hands can (its colour, kept as the marble in hand)."""
        if hole in self.board.marbles() and self.aligned(hole):
            self.hand = self.board.lift(hole)
            return self.hand
        return None

    def turn(self, block: int, steps: int, pause: float = 0.0) -> None:
        """Turn ``block`` by ``steps`` detents, one by one (``pause`` between them); the virtual
        board turns the marbles once a quarter adds up, as its offsets here say."""
        sign = 1 if steps > 0 else -1
        for _ in range(abs(steps)):
            self.board.turn(block, sign)
            offset = self.offsets[block - 1] + sign
            self.offsets[block - 1] = 0 if abs(offset) == self.detents else offset
            if pause:
                self.wait(pause)

    def quarter(self, twist: Twist, pause: float = 0.0) -> None:
        self.turn(twist.block, self.detents if twist.clockwise else -self.detents, pause)

    def marble(self, data: st.DataObject, colour: str | None) -> str | None:
        """The marble a player puts down for a game colour, as this board's sensors read it: a
        polarity board's pole (Triple's red and a third or fourth seat's colour read as either)."""
        if self.profile.sensing != "polarity" or colour in POLES.values():
            return colour
        return TRIPLE_POLES.get(colour or "") or data.draw(st.sampled_from(tuple(POLES.values())), label="pole")

    def any_marble(self, data: st.DataObject) -> str | None:
        colours = {"colour": (None, "white", "black", "red", "green", "blue", "yellow"),
                   "polarity": tuple(POLES.values()), "presence": (None,)}[self.profile.sensing]
        return data.draw(st.sampled_from(colours), label="marble")

    def pause(self, data: st.DataObject, choices: tuple[float, ...] = PAUSES) -> None:
        self.wait(data.draw(st.sampled_from(choices), label="pause"))

    # -- starting games ----------------------------------------------------------------------------

    @rule(data=st.data())
    def new_game(self, data: st.DataObject) -> None:
        """Any game offered for the board, with options drawn from its spec (now and then a
        refused one), from whatever state the board is in."""
        spec = data.draw(st.sampled_from(games.offered(self.geometry.size)), label="game")
        args = draw_options(data, spec, self.geometry.size)
        if data.draw(st.integers(0, 9), label="spoil") == 0:
            key = data.draw(st.sampled_from(sorted(NONSENSE)), label="spoilt")
            args[key] = NONSENSE[key]
        self.command("new_game", args)
        self.pause(data)

    @precondition(lambda self: self.core.flow.state == "choosing")
    @rule(data=st.data())
    def choose_on_the_menu(self, data: st.DataObject) -> None:
        """The board's own menu: a marble on a lit option, lifted again; or ok, or back."""
        how = data.draw(st.sampled_from(("marble", "marble", "ok", "back")), label="menu")
        holes = self.core.menu.option_holes()
        if how != "marble" or not holes:
            self.board.press("ok" if how == "marble" else how)
        else:
            hole = data.draw(st.sampled_from(holes), label="option")
            if self.put(hole, self.any_marble(data)):
                self.wait(0.5)
                self.take(hole)
        self.pause(data)

    # -- playing by the rules and the lights -------------------------------------------------------

    @precondition(lambda self: self.core.flow.state not in ("choosing", "game_over", "between_games"))
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """A few turns of what the rules allow, made on the board, the repairs the lights ask
        for in between: a move of the game (or the computer's, as lit), Triple's colour
        confirmed, Picture-Puzzle's next step (a restore that passes)."""
        if not self.plugged:  # the board answers nothing: someone plugs the cable back first
            self.board.replug("the players put the cable back")
            self.plugged = True
        for _ in range(data.draw(st.sampled_from((1, 4, 12, 300, 300)), label="turns")):
            flow = self.core.flow
            if flow.state in ("choosing", "game_over", "between_games"):
                break
            if self.core.repair:
                self.mend()
            elif self.thinks and self.core.computer.shown(flow) is None and (
                    self.core.computer.computer_turn(flow) or self.core.computer.upcoming(flow)):
                self.answer(data, self.thinks[-1])  # the runtime's search answers
            elif flow.awaits_colour() is not None:
                self.confirm(data, None)
            elif isinstance(flow, PuzzleFlow):
                self.puzzle_step(data, flow)
            elif isinstance(flow, TripleFlow):
                self.triple_move(data, flow)
            else:
                self.place_twist_move(data, flow)
            self.pause(data, PAUSES[:2])

    def place_twist_move(self, data: st.DataObject, flow: PlaceTwistFlow) -> None:
        game = flow.game
        if game.phase is Phase.TWIST:
            twist = data.draw(st.sampled_from(game.twists()), label="twist")
            self.quarter(twist, data.draw(st.sampled_from((0.0, 0.03)), label="detent pause"))
            return
        move = self.core.computer.shown(flow) or data.draw(st.sampled_from(game.legal_moves()), label="move")
        if self.put(move.hole, self.marble(data, flow.colours[game.colour])) and move.twist is not None:
            self.pause(data, PAUSES[:2])
            self.quarter(move.twist)

    def triple_move(self, data: st.DataObject, flow: TripleFlow) -> None:
        game = flow.game
        if game.phase is Phase.TWIST:
            self.quarter(data.draw(st.sampled_from(game.twists()), label="twist"))
            return
        if game.lifted is not None:  # a marble in hand: put it down where the rules allow
            moves = [m for m in game.legal_moves() if m.origin == game.lifted] or game.legal_moves()
        else:
            moves = game.legal_moves()
        if not moves:
            return
        move = self.core.computer.shown(flow) or data.draw(st.sampled_from(moves), label="move")
        if move.origin is not None and game.lifted is None:
            if move.origin not in self.board.marbles() or not self.aligned(move.origin):
                return  # the board does not show the game: the lights will say what to mend
            colour = self.take(move.origin)
            self.pause(data, PAUSES[:2])
        elif move.origin is not None:
            colour = self.hand  # the marble in hand since a lift before
        else:
            colour = self.marble(data, flow.colours[move.colour])
        if not self.put(move.hole, colour):
            return
        self.pause(data, PAUSES[:2])
        if move.origin is None and self.core.flow.awaits_colour() is not None:
            self.confirm(data, flow.colours[move.colour])
        if move.twist is not None:
            self.quarter(move.twist)

    def confirm(self, data: st.DataObject, colour: str | None) -> None:
        """Cycle the pending marble's colour to ``colour`` (any, when None), then confirm it."""
        ask = self.profile.colour_input
        presses = 0 if colour is None else 3
        if colour is None:
            presses = data.draw(st.integers(0, 3), label="cycles")
        for _ in range(presses):
            if self.core.flow.awaits_colour() in (colour, None):
                break
            self.board.press(ask.cycle)
            self.wait(0.2)
        if self.core.flow.awaits_colour() is not None:
            self.board.press(ask.confirm)
            self.wait(0.2)

    def puzzle_step(self, data: st.DataObject, flow: PuzzleFlow) -> None:
        game = flow.game
        if game.is_over():
            return
        if game.step == "build":
            missing = [h for h in range(self.geometry.hole_count)
                       if game.picture.position.colour_at(h) is not None and game.built.colour_at(h) is None]
            hole = data.draw(st.sampled_from(missing), label="stone")
            self.put(hole, self.marble(data, flow.colours[game.picture.position.colour_at(hole)]))
        elif game.step in ("show", "guide"):
            self.mend() if self.core.repair else self.wait(flow.options.get("show_s", 0) + 0.2)
        elif game.step == "dismantle":
            self.dismantle(data, game)
        else:
            self.restore(data, flow, game)

    def dismantle(self, data: st.DataObject, game: Any) -> None:
        removals, twists = game.to_do()
        if game.plan:
            step = game.plan[0]
        else:
            kinds = [Kind.REMOVE] * bool(removals) + [Kind.TWIST] * bool(twists)
            kind = data.draw(st.sampled_from(kinds), label="dismantle")
            stones = [h for h in range(self.geometry.hole_count) if game.position.colour_at(h) is not None]
            step = (data.draw(st.sampled_from(stones), label="remove") if kind is Kind.REMOVE
                    else data.draw(st.sampled_from(TWISTS[game.geometry.size]), label="twist"))
            if kind is Kind.REMOVE:
                self.take(step)
                return
            self.quarter(step)
            return
        if step.kind is Kind.REMOVE:
            self.take(step.hole)
        else:
            self.quarter(step.twist)

    def restore(self, data: st.DataObject, flow: PuzzleFlow, game: Any) -> None:
        """The next step of a restore that passes: each placement puts back a stone as the
        picture stands turned by the dismantle's twists not yet undone; each twist undoes the
        last of them."""
        dismantle = game.steps()[:2 * game.k]
        undone = sum(s.kind is Kind.TWIST for s in game.steps()[2 * game.k:])
        twists = [s.twist for s in dismantle if s.kind is Kind.TWIST]
        twists = twists[:len(twists) - undone]
        if game.phase.value == "twist":
            last = twists[-1]
            self.quarter(Twist(last.block, not last.clockwise))
            return
        frame = game.picture.position
        for twist in twists:
            frame = frame.rotate(twist.block, twist.clockwise)
        missing = [h for h in range(self.geometry.hole_count)
                   if frame.colour_at(h) is not None and game.position.colour_at(h) is None]
        if missing:
            hole = data.draw(st.sampled_from(missing), label="stone")
            self.put(hole, self.marble(data, flow.colours[frame.colour_at(hole)]))

    @precondition(lambda self: bool(self.core.repair))
    @rule(data=st.data())
    def follow_the_repair(self, data: st.DataObject) -> None:
        """Do what the lights ask: the first repair step."""
        self.mend()
        self.pause(data)

    @precondition(lambda self: (bool(self.core.repair) or any(self.offsets)) and self.plugged)
    @rule()
    def tidy_up_as_lit(self) -> None:
        """The lights lead back to the game: the players straighten every block standing
        crooked and do every repair step as lit; in a few dozen steps the board is straight
        and nothing is left to mend."""
        for _ in range(MEND_STEPS):
            crooked = [block for block, off in enumerate(self.offsets, start=1) if off]
            if crooked:
                self.turn(crooked[0], -self.offsets[crooked[0] - 1])
            elif self.core.repair:
                self.mend()
            else:
                self.wait(2.5)  # past the grace time: whatever is still wrong is lit
                if not self.core.repair:
                    return
            self.wait(0.5)
        assert not self.core.repair, [step.text(self.core.flow.expected()) for step in self.core.repair]

    def mend(self) -> None:
        """Do the first repair step as its words say: turn a block a quarter back, or on to the
        next quarter where the core counts it between two; take out, put in, swap or settle a
        marble (straightening its block first where it stands crooked, as hands would)."""
        step = self.core.repair[0]
        if step.kind == "turn":
            physical, block = self.core.physical, step.block
            torn = block in compare(self.core.flow.expected(), physical, self.core.flow.colours).torn
            self.turn(block, physical.nearest(block) * self.detents - physical.count(block) if torn
                      else (1 if step.clockwise else -1) * self.detents)
            return
        block = self.board.grid.block_of(step.hole)
        if self.offsets[block - 1]:
            self.turn(block, -self.offsets[block - 1])
            return
        if step.kind in ("remove", "swap", "check") and step.hole in self.board.marbles():
            colour = self.take(step.hole)
            if step.kind == "check":  # lift it and put it down again, settled
                self.wait(0.3)
                self.put(step.hole, colour)
        if step.kind in ("put", "swap"):
            self.put(step.hole, self.marble_named(step.colour))

    def marble_named(self, colour: str | None) -> str | None:
        if self.profile.sensing != "polarity" or colour in POLES.values():
            return colour
        return TRIPLE_POLES.get(colour or "", POLES["north"])

    @precondition(lambda self: self.core.flow.state in ("game_over", "between_games"))
    @rule(data=st.data())
    def clear_the_board(self, data: st.DataObject) -> None:
        """The game is over: every marble back in the box (the next game, or the menu)."""
        for block, off in enumerate(self.offsets, start=1):
            if off:
                self.turn(block, -off)
        for hole in sorted(self.board.marbles()):
            self.take(hole)
        self.pause(data)

    # -- hands doing anything ---------------------------------------------------------------------

    @rule(data=st.data())
    def put_a_marble(self, data: st.DataObject) -> None:
        free = [h for h in range(self.geometry.hole_count) if h not in self.board.marbles() and self.aligned(h)]
        if free:
            self.put(data.draw(st.sampled_from(free), label="hole"), self.any_marble(data))
        self.pause(data)

    @precondition(lambda self: bool(self.board.marbles()))
    @rule(data=st.data())
    def lift_a_marble(self, data: st.DataObject) -> None:
        held = [h for h in sorted(self.board.marbles()) if self.aligned(h)]
        if held:
            self.take(data.draw(st.sampled_from(held), label="hole"))
        self.pause(data)

    @rule(data=st.data())
    def turn_a_block(self, data: st.DataObject) -> None:
        """A quarter, a half turn, or a twist half-made (left so, for now)."""
        block = data.draw(st.integers(1, len(self.offsets)), label="block")
        steps = data.draw(st.sampled_from((self.detents, -self.detents, 2 * self.detents, 1, -2, self.detents // 2 + 1)),
                          label="detents")
        self.turn(block, steps, data.draw(st.sampled_from((0.0, 0.03, 0.3)), label="detent pause"))
        self.pause(data)

    @precondition(lambda self: any(self.offsets))
    @rule(data=st.data())
    def finish_or_undo_a_twist(self, data: st.DataObject) -> None:
        block = data.draw(st.sampled_from([b for b, off in enumerate(self.offsets, start=1) if off]), label="block")
        off = self.offsets[block - 1]
        finish = data.draw(st.booleans(), label="finish")
        self.turn(block, (self.detents - abs(off)) * (1 if off > 0 else -1) if finish else -off)
        self.pause(data)

    @rule(data=st.data())
    def press_a_button(self, data: st.DataObject) -> None:
        self.board.press(data.draw(st.sampled_from(BUTTONS), label="button"))
        self.pause(data, PAUSES[:2])

    @rule(data=st.data())
    def flicker(self, data: st.DataObject) -> None:
        """A sensor misreads a moment (unsure, or a colour no marble has), or the core gets an
        event no board sends (a hole or block off the board, no steps, an unknown button)."""
        hole = data.draw(st.integers(0, self.geometry.hole_count - 1), label="hole")
        odd = data.draw(st.sampled_from(("unsure", "hole", "reading", "block", "steps", "button", "thing")), label="odd")
        if odd in ("unsure", "reading") and self.plugged:  # then the sensor reads true again
            self.feed(HoleReading(self.t, hole, UNSURE if odd == "unsure" else "purple"))
            self.wait(0.05)
            self.feed(HoleReading(self.t, hole, self.board.reading(hole)))
        elif odd == "hole":
            self.feed(HoleReading(self.t, self.geometry.hole_count + hole, MARBLE))
        elif odd in ("block", "steps"):
            self.feed(EncoderSteps(self.t, len(self.offsets) + 1 if odd == "block" else 1, 0 if odd == "steps" else 1))
        elif odd == "button":
            self.feed(ButtonPress(self.t, "power"))
        elif odd == "thing":
            self.feed(object())
        self.pause(data, PAUSES[:2])

    # -- people's commands and the computer's answers ---------------------------------------------

    @rule(data=st.data())
    def give_a_command(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(("take_back", "take_back", "hint", "hint", "save_picture", "abort", "menu")),
                         label="command")
        title = data.draw(st.sampled_from(TITLES), label="title")
        args = {"title": f"{title} {self.serial}" if title and len(title) < 40 else title} if name == "save_picture" else {}
        self.command(name, args)
        self.pause(data)

    @rule(data=st.data())
    def give_a_bad_command(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from((*COMMANDS, "fly")), label="command")
        self.command(name, data.draw(st.sampled_from(([], "x", None, {"key": 3, "move": None}, {"game": None})),
                                     label="args"))
        self.pause(data, PAUSES[:1])

    @precondition(lambda self: bool(self.thinks))
    @rule(data=st.data())
    def answer_for_the_computer(self, data: st.DataObject) -> None:
        """The runtime's answer to a request, as it sends it: the search's move with a tiny
        budget, or any legal move, or nonsense; for the turn asked about, or for one past."""
        think = self.thinks[-1] if data.draw(st.booleans(), label="latest") else data.draw(
            st.sampled_from(self.thinks), label="request")
        self.answer(data, think, data.draw(st.sampled_from(("search", "legal", "nonsense")), label="answer"))
        self.pause(data)

    def answer(self, data: st.DataObject, think: Think, how: str = "search") -> None:
        game = think.game
        if how == "search":
            level = think.level if think.level is not None else data.draw(st.integers(0, 3), label="level")
            text: Any = game.move_name(choose_move(game, level=level, deadline=lambda: True, nodes=50))
        elif how == "legal":
            text = game.move_name(data.draw(st.sampled_from(game.legal_moves()), label="move"))
        else:
            text = data.draw(st.sampled_from(("", "z9 9R", None, 5, "a1")), label="move")
        self.command(think.answer, {"key": think.key, "move": text})

    # -- the link, the clock and the daemon --------------------------------------------------------

    @rule(data=st.data())
    def unplug_or_replug(self, data: st.DataObject) -> None:
        if self.plugged:
            self.board.unplug("the model pulled the cable")
        else:
            self.board.replug("the model put it back")
        self.plugged = not self.plugged
        self.pause(data)

    @rule(data=st.data())
    def let_time_pass(self, data: st.DataObject) -> None:
        self.wait(data.draw(st.sampled_from((0.1, 1.0, 5.0, 40.0)), label="seconds"))

    @rule(level=st.sampled_from((None, 0, 1, 2, 3)))
    def reload_the_config(self, level: int | None) -> None:
        """The config is edited and reloaded (SIGHUP): the board's computer level changes."""
        self.core.set_level(level)

    @rule()
    def let_every_timer_run_out(self) -> None:
        """A Tick far ahead, as after the board stood idle: when the core asked for no Tick,
        nothing may happen (a timer it forgot to ask for)."""
        asked = self.core.next_deadline()
        before, lines = game_of(self.core.flow), list(self.journal)
        self.t += FAR_S
        effects = self.feed(Tick(self.t))
        if asked is None:
            assert not effects.records, f"a Tick no one asked for wrote {effects.records}"
            assert game_of(self.core.flow) == before and self.journal == lines

    @rule(data=st.data())
    def restart_from_the_journal(self, data: st.DataObject) -> None:
        """A new core from the journal so far, by the daemon's own path
        (:func:`~controller.daemon.resume.core_from_journal` over the journal file): a start
        (the service restarted, its clock going on, or a power cut: the Pi's monotonic clock
        begins anew at the boot), then the first Tick and every hole's reading; or the runtime's
        rebuild after an event it could not handle, with what the sensors read."""
        how = data.draw(st.sampled_from(("start", "power cut", "rebuild")), label="restart")
        held = game_of(self.core.flow)
        journal = Journal(Path(self.pictures) / "journal")
        journal.clear(self.records())
        if how == "power cut":
            self.t = data.draw(st.sampled_from(BOOT_S), label="clock at boot")
        sensed = sensed_by(self.core) if how == "rebuild" else ()
        core = core_from_journal(self.profile, journal, self.t, sensed=sensed, games=self.games)
        assert core.resume.problem is None and core.resume.used == len(self.journal), core.resume
        assert game_of(core.flow) == held, (game_of(core.flow), held)
        TALLY.restarts += 1
        self.core, self.thinks = core, []
        if how == "rebuild":
            return
        self.feed(Tick(self.t))  # as the runtime starts: a first Tick, then the inputs
        self.board.stop()
        self.board.start(self.feed)
        if not self.plugged:  # a new process opens the link afresh
            self.board.replug("the daemon started")
            self.plugged = True

    # -- what must always hold ---------------------------------------------------------------------

    @invariant()
    def state_is_json(self) -> None:
        json.dumps(self.core.state(), allow_nan=False)

    @invariant()
    def timers_stay_within_their_options(self) -> None:
        """No timer runs longer than the longest an option can set; no duration is negative."""
        due = self.core.next_deadline()
        assert due is None or due - self.core.now <= MAX_S + 1, (due, self.core.now)
        detail = self.core.state()["detail"] or {}
        assert all(r["seconds"] is None or r["seconds"] >= 0 for r in detail.get("rounds", ())), detail["rounds"]

    @invariant()
    def repair_is_for_the_board_as_it_stands(self) -> None:
        """Guidance is lit only for a game in play, and once the board has settled it is the
        guidance for the board as the sensors read it now (never for a board gone by)."""
        core, flow = self.core, self.core.flow
        if flow.state not in flow.playing_states:
            assert not core.repair, f"{flow.state}: {core.repair}"
        elif core.referee.settles_at() is None and core.referee.link_up and core.repair:
            diff = compare(flow.expected(), core.physical, flow.colours)
            fresh = repair_steps(diff, flow.expected(), core.physical, flow.colours, core.spec.next_colour(flow.game))
            assert core.repair == fresh, (core.repair, fresh)

    @invariant()
    def journal_replays(self) -> None:
        flow, resume = games.resumed(self.records(), self.core.colours, self.geometry.size)
        assert resume.problem is None and resume.used == len(self.journal), resume
        assert game_of(flow) == game_of(self.core.flow), "the journal holds another game than the board plays"

    @invariant()
    def tally(self) -> None:
        TALLY.steps += 1
        TALLY.reached[(self.core.flow.options.get("game", "-") if self.core.flow.game else "-", self.core.flow.state)] += 1


def _kind(record: dict[str, Any]) -> str:
    """A record's kind, and how a Picture-Puzzle round it ended went."""
    done = record.get("round")
    return record["kind"] if not isinstance(done, dict) else f"{record['kind']} (round {done.get('reason')})"


def model_for(size: int, sensing: str) -> type[BoardModel]:
    """The model on one board only: ``size`` and ``sensing``."""

    class OneBoard(BoardModel):
        @initialize(data=st.data())
        def boot(self, data: st.DataObject) -> None:
            self.start(size, sensing, data)

    OneBoard.__name__ = OneBoard.__qualname__ = f"Board{size}x{size}{sensing.title()}"
    return OneBoard


def draw_options(data: st.DataObject, spec: games.GameSpec, size: int) -> dict[str, Any]:
    """New-game arguments for ``spec`` on a ``size`` board: each option drawn from the values
    its menu page offers after the ones drawn before it (typed options from :data:`FREE`),
    or left out for its default; now and then the seats' names."""
    args: dict[str, Any] = {"game": spec.name}
    chosen: dict[str, Any] = {"size": size, "game": spec.name}
    for choice in spec.choices:
        free = isinstance(choice, (FreeChoice, Setting)) or choice.name in FREE and not choice.values_for(chosen)
        values = FREE[choice.name] if free and choice.name in FREE else tuple(choice.values_for(chosen))
        if not data.draw(st.integers(0, 3), label=f"give {choice.name}"):
            continue  # the default
        value = data.draw(st.sampled_from(values), label=choice.name)
        args[choice.name] = chosen[choice.name] = value
    if spec.name == "triple" and data.draw(st.integers(0, 5), label="flag") == 0:
        args[data.draw(st.sampled_from(("personal", "bonus")), label="flag name")] = True
    if data.draw(st.integers(0, 4), label="names") == 0:
        players = args.get("players", next((c.default for c in spec.choices if c.name == "players"), 2))
        args["names"] = [f"Kid {seat}" for seat in range(1, players + 1)]
    return args
