"""The flow of Picture-Puzzle on the board: build the picture, show it, dismantle, restore, judge.

States: choosing, the four phases below, each phase ``..._in_repair`` (the board differs from
what the phase expects: the repair guidance puts it back, and the phase goes on under it: its
clock runs, its steps are taken), guiding (a round failed: the picture is guided back) and
game_over. The phases, in order:

- ``building``: each hole of the picture is lit in its stone's colour until the picture stands;
  stones go in any order, several at once; a stone in a hole the picture leaves empty (or of the
  wrong colour, where the sensors tell) is no step, and the repair guidance lights it;
- ``showing``: the picture in light for ``show_s`` seconds (the teacher's setting; 0 skips it);
- ``dismantling``: "look away" for the restorer and "dismantle now" for the dismantler: the board
  accepts removals and quarter twists, up to k of each, in any order;
- ``restoring``: "restore now", with a countdown on the status pixels when a limit is set: a
  placement then a twist, k times (a placement and its twist may settle together);
- after the k-th pair the rules judge the board. Passed: the next round shows the picture.
  Failed (or a phase out of time): ``guiding``: the holes that differ blink, the player is out,
  and the repair guidance puts the picture back; once it stands, the next round shows it. The
  last player in: the winner's colour and the picture.

*Published state.* The page, MQTT, Home Assistant, the classroom and the tapes see the states
they saw before the phases were states of the machine: ``awaiting_placement`` for a phase,
``repair`` for a phase in repair and for guiding (:attr:`PuzzleFlow.published`); the phase is
the ``step`` of :meth:`PuzzleFlow.detail` (``build``, ``show``, ``dismantle``, ``restore``,
``guide``), as before. A journal holds no state: a resume replays its records into the phase.

Practice (the ``practice`` option, one child): the computer dismantles
(:func:`controller.ai.puzzle.dismantle` at the game's ``level`` option, seeded by the round's
number, so a replay of the journal plans alike). Its steps are lit one at a time: the stone to take out
blinks as a removal, a twist is the prompt's chasing arrow, over the computer's seat colour on
the status pixels; only the lit step is accepted (anything else is refused, and the repair
guidance puts it back). Whoever helps the child does them while the child looks away, or the
child on the sim page with the board hidden. Then the child restores as usual.

Time comes from the core's clock: :meth:`PuzzleFlow.tick` ends the show, counts down and fails
a restore (or dismantle) whose time has run out; a step made late fails it too (the rules judge
the time each step carries).

The judge checks what the board senses (:class:`~controller.rules.puzzle.Check`, from the
``check`` option: the virtual board checks colours; presence boards only where stones are, and
say so before the game; polarity boards W and B).

The core sees the running game through :class:`BoardPuzzle`, the rules' game with the few
attributes every flow's game has (``to_move``: the seat acting now, ``places``, ``moves``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...ai.puzzle import DEFAULT_LEVEL, dismantle
from ...board import Diff, Physical, Step
from ...colours import SEAT_COLOURS
from ...lights.scenes import eliminated_scene, menu_scene, overlay, prompt_scene, repair_scene, turn_scene
from ...lights.view import HoleLight, View
from ...rules import IllegalMoveError, Position, Twist, hole_name, parse_hole, parse_twist
from ...rules.geometry import geometry
from ...rules.puzzle.pictures import LETTERS, Picture, picture_of
from ...rules.puzzle import PRACTICE_DISMANTLER, Check, Phase, PuzzleGame, PuzzleOptions, Reason, Round
from ...rules.puzzle.notation import Kind
from ...rules.puzzle.notation import Step as PuzzleStep
from ...rules.puzzle.notation import step_name
from ...flow.menu import Menu
from ...flow.options import GameOptions
from ...flow.place_twist import AWAITING_PLACEMENT, CHOOSING, GAME_OVER, REPAIR, PlaceTwistFlow
from ...flow.seats import COMPUTER
from .summary import summary_csv
from .events import Dismantled, Out, Restored, RoundBegun, StageBegun
from ...flow.steps import Action

BUILDING = "building"  # the picture is built, a lit hole at a time
SHOWING = "showing"  # the picture in light for the restorer
DISMANTLING = "dismantling"  # the restorer looks away, the dismantler (or the computer) dismantles
RESTORING = "restoring"  # the restorer puts the picture back
GUIDING = "guiding"  # a round failed: the repair guidance puts the picture back
PHASES = [BUILDING, SHOWING, DISMANTLING, RESTORING]
ROUNDS = (DISMANTLING, RESTORING)  # the phases a round ends in (judged, or out of time)
IN_REPAIR = {phase: f"{phase}_in_repair" for phase in PHASES}  # the phase goes on while the board is mended
PHASE_OF = {**{phase: phase for phase in PHASES}, **{state: phase for phase, state in IN_REPAIR.items()},
            GUIDING: GUIDING}  # a state in play -> the phase in hand
STEPS = {BUILDING: "build", SHOWING: "show", DISMANTLING: "dismantle", RESTORING: "restore",
         GUIDING: "guide"}  # the phase as the state's ``detail`` says it (its ``step``)
STATES = [CHOOSING, *PHASES, *IN_REPAIR.values(), GUIDING, GAME_OVER]
COUNTED = "on_enter_repair"  # the base flow's count of repairs, kept for the phases' own repair states


def _phase(trigger: str, source: str, dest: str) -> list[dict[str, Any]]:
    """``trigger`` moves the game on from phase ``source`` to ``dest``, in repair or not (a repair
    under way goes on in the next phase)."""
    return [{"trigger": trigger, "source": source, "dest": dest},
            {"trigger": trigger, "source": IN_REPAIR[source], "dest": IN_REPAIR[dest]}]


TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "start", "source": [CHOOSING, GAME_OVER], "dest": BUILDING},
    *_phase("stood", BUILDING, SHOWING),  # the picture is built
    *_phase("shown", SHOWING, DISMANTLING),
    *_phase("dismantled", DISMANTLING, RESTORING),
    *_phase("passed", RESTORING, SHOWING),  # the next round shows the picture
    {"trigger": "failed", "source": ROUNDS, "dest": GUIDING, "after": COUNTED},
    {"trigger": "failed", "source": [IN_REPAIR[phase] for phase in ROUNDS], "dest": GUIDING},
    *({"trigger": "broke", "source": phase, "dest": IN_REPAIR[phase], "after": COUNTED} for phase in PHASES),
    *({"trigger": "mended", "source": IN_REPAIR[phase], "dest": phase} for phase in PHASES),
    {"trigger": "mended", "source": GUIDING, "dest": SHOWING, "after": "_guided_back"},
    {"trigger": "ended", "source": [*ROUNDS, *(IN_REPAIR[phase] for phase in ROUNDS)], "dest": GAME_OVER},
    {"trigger": "abort", "source": STATES[1:], "dest": CHOOSING},
]
STATUS_PIXELS = 4  # the countdown's resolution: as many steps as a board has status pixels
PICTURE_COLOURS = SEAT_COLOURS  # colour index -> marble colour name: W white, B black, R red, G green


class BoardPuzzle(PuzzleGame):
    """The rules' game as the core sees any flow's game: the seat acting now and no moves of
    the place-twist kind (the steps are the puzzle's own, in :meth:`steps` and :attr:`rounds`)."""

    places: tuple[tuple[int, ...], ...] = ()
    starter = 1

    def __init__(self, picture: Picture, options: PuzzleOptions) -> None:
        super().__init__(picture, options)
        self.moves: list[Any] = []
        self.in_hand: Callable[[], str] = lambda: BUILDING  # its flow's state (PuzzleFlow.new_game sets it)
        self.built = Position(picture.position.geometry, (0, 0, 0, 0))  # the stones of the build so far
        self.plan: list[PuzzleStep] = []  # practice: the computer's dismantle steps still to do

    @property
    def to_move(self) -> int:
        """The seat acting now: the dismantler while dismantling, else the restorer."""
        if self.outcome is not None:
            return self.outcome.winners[0]
        seat = self.dismantler if self.phase is Phase.DISMANTLE and self.step == "dismantle" else self.restorer
        assert seat is not None
        return seat

    @property
    def step(self) -> str:
        """The phase in hand, as the flow's machine says it (see :data:`STEPS`); once the game is
        over, the phase its last round ended in (a dismantle out of time, else a restore)."""
        phase = PHASE_OF.get(self.in_hand())
        if phase is not None:
            return STEPS[phase]
        last = self.rounds[-1] if self.rounds else None
        return "dismantle" if last is not None and last.reason is Reason.DISMANTLE_TIME else "restore"

    def colour_of(self, seat: int) -> int:
        return seat - 1

    def expected(self) -> Position:
        """What the board should show: the build so far, or the game's board."""
        return self.built if self.step == "build" else self.position


class PuzzleFlow(PlaceTwistFlow[BoardPuzzle]):
    """Model of Picture-Puzzle's machine (see the module doc)."""

    machine_states = STATES
    machine_transitions = TRANSITIONS
    playing_states = tuple(STATES[1:-1])
    at_once_states = tuple(PHASES)
    repair_states = (*IN_REPAIR.values(), GUIDING)
    published = {**{phase: AWAITING_PLACEMENT for phase in PHASES}, **{state: REPAIR for state in repair_states}}
    # its own triggers, set on the model by the Machine
    stood: Callable[[], bool]
    shown: Callable[[], bool]
    dismantled: Callable[[], bool]
    passed: Callable[[], bool]
    failed: Callable[[], bool]
    ended: Callable[[], bool]
    keeps_time = True  # the show and the time limits
    logs_refusals = False  # the refusal is told in the news only
    ends_after_a_record = True  # the end comes with the step (or the time) that ended the last round
    knocks_out = True  # a failed restore or a dismantle out of time puts a seat out
    tells_moves = False  # its move texts are round lines, growing within a round: its rounds are its events

    def __init__(self, catalogue: Any, colours: tuple[str, ...] = ("white", "black"), size: int = 9) -> None:
        super().__init__(catalogue, colours, size)
        self.show_until: float | None = None
        self.left_s = None  # the countdown at the last tick
        self.last_round: Round | None = None
        self.told_stage = 0  # the last stage told (see controller.games.puzzle.events)
        self.now = 0.0  # the latest time the flow was told (a guided-back picture is shown from then)

    # -- starting ------------------------------------------------------------------------------

    def new_game(self, options: GameOptions, t: float) -> dict[str, Any]:
        record = super().new_game(options, t)
        game = self._game()
        game.in_hand = lambda: self.state  # the phase is the machine's: the game reads it there
        self.show_until = self.left_s = None
        self.last_round = None
        self.told_stage = 0
        self._tell_stage(game)
        check = game.options.check
        if check is not Check.COLOUR:
            self.news.append(f"this board checks {'only where stones are' if check is Check.PRESENCE else 'white and black only'}, "
                             "not every colour")
        self.news.append(f"build {game.picture.title}: put a stone on each lit hole, in its colour")
        return record

    def next_game(self, t: float) -> dict[str, Any]:
        raise IllegalMoveError("Picture-Puzzle has no match: a game is followed by the menu")

    def expected(self) -> Position:
        return self._game().expected()

    def seat_colour(self, seat: int) -> str:
        return PICTURE_COLOURS[seat - 1]

    def may_take_back(self) -> bool:
        return False  # a placed stone is never taken back; a dismantle is not a move to undo

    def phase(self) -> str | None:
        """The phase in hand (one of :data:`PHASES`, or guiding), in repair or not; None out of play."""
        return PHASE_OF.get(self.state)

    # -- playing -------------------------------------------------------------------------------

    def apply(self, action: Action, t: float) -> dict[str, Any]:
        """Apply one action; its journal record, one per action (what a step set off, a round's
        end or the next dismantle, rides on it). Raises IllegalMoveError."""
        self.now = max(self.now, t)
        game = self._game()
        if game.is_over():
            raise IllegalMoveError("the game is over")
        phase = self.phase()
        if phase == BUILDING:
            return self._build(game, action, t)
        if phase not in ROUNDS:
            raise IllegalMoveError("the board is showing the picture: wait for the cue")
        record = {"t": t, "kind": action.kind, **_fields(action, game)}  # as sensed: a replay decides alike
        if action.kind == "place" and action.colour is None and len(game.picture.colours_used) > 1:
            action = self._colourless(game, action)
        step = _puzzle_step(action)
        if game.plan and phase == DISMANTLING:
            if step != game.plan[0]:
                raise IllegalMoveError(f"the computer dismantles: {step_name(game.plan[0], game.geometry)} "
                                       f"is lit, not {step_name(step, game.geometry)}")
            game.plan.pop(0)
        ended = game.push(step, t)
        if ended is None and phase == DISMANTLING and game.phase is not Phase.DISMANTLE:
            self._restore(game, t)
        if ended is not None:
            record.update(self._round_over(game, ended, t))
        return record

    def _colourless(self, game: BoardPuzzle, action: Action) -> Action:
        """A stone placed whose colour the sensors cannot tell (a presence board, or a picture
        of more colours than a polarity board's two) in a picture of several colours: from then
        on the judge checks where stones are, and the stone takes the picture's colour for its
        hole (else its first). In a one-colour picture every stone is of that colour."""
        if game.options.check is not Check.PRESENCE:
            game.options = replace(game.options, check=Check.PRESENCE)
            self.news.append("this board cannot tell the stones' colours: the judge checks where stones are")
        assert action.hole is not None
        colour = game.picture.position.colour_at(action.hole)
        return Action("place", action.hole, colour=game.picture.colours_used[0] if colour is None else colour)

    def _build(self, game: BoardPuzzle, action: Action, t: float) -> dict[str, Any]:
        hole = action.hole
        want = None if hole is None else game.picture.position.colour_at(hole)
        if action.kind != "place" or hole is None or want is None:
            raise IllegalMoveError("while the picture is built, stones go only on the lit holes")
        if action.colour is not None and action.colour != want and game.options.check is Check.COLOUR:
            raise IllegalMoveError(f"{hole_name(hole, game.geometry)} takes a {PICTURE_COLOURS[want]} stone")
        game.built = game.built.place(hole, want)
        record: dict[str, Any] = {"t": t, "kind": "build", "hole": hole_name(hole, game.geometry)}
        if game.built == game.picture.position:
            self.stood()
            record.update(self._show(game, t))
        return record

    def _show(self, game: BoardPuzzle, t: float) -> dict[str, Any]:
        """The picture stands (the machine is showing): show it, or dismantle at once when there
        is no show. What it set off, for the record of the step that made the picture stand."""
        show_s = self.options.get("show_s", 0)
        self.show_until = t + show_s
        self.news.append(f"look at the picture, {self._name(game.restorer)}" + (f" ({show_s:g} s)" if show_s else ""))
        if show_s:
            return {}
        self._dismantle(game, t)
        return {"dismantle": True}

    def _dismantle(self, game: BoardPuzzle, t: float) -> None:
        self.shown()
        self.show_until = None
        game.begin(t)
        self.events.append(RoundBegun(len(game.rounds) + 1, game.stage, game.k, game.picture.title,
                                      game.restorer, game.dismantler))
        if game.options.practice:
            game.plan = list(dismantle(game, seed=len(game.rounds), level=self.options.get("level", DEFAULT_LEVEL)))
            self.news.append(f"look away! the computer dismantles ({_count(game.k, 'stone')} out, "
                             f"{_count(game.k, 'twist')}): do the lit steps")
            return
        self.news.append(f"{self._name(game.restorer)}: look away! {self._name(game.dismantler)}: dismantle now "
                         f"({_count(game.k, 'stone')} out, {_count(game.k, 'twist')})")

    def _restore(self, game: BoardPuzzle, t: float) -> None:
        self.dismantled()
        game.begin(t)
        self.events.append(Dismantled(len(game.rounds) + 1, game.restorer))
        limit = game.options.restore_limit_s
        self.news.append(f"{self._name(game.restorer)}: restore now" + (f" ({limit:g} s)" if limit else ""))

    def _round_over(self, game: BoardPuzzle, ended: Round, t: float) -> dict[str, Any]:
        """A round ended: say how, put the picture back in play; what it set off, for the record."""
        self.last_round, self.left_s = ended, None
        self._tell_result(game, ended)
        self._tell_stage(game)
        said: dict[str, Any] = {"round": {"passed": ended.passed, "reason": ended.reason.value, "out": ended.out}}
        if ended.passed:
            self.news.append(f"{self._name(ended.restorer)} restored the picture")
        else:
            wrong = f"{_count(len(ended.differences), 'hole')} differ" if ended.differences else ended.reason.value
            self.news.append(f"{wrong}: {self._name(ended.out)} is out")
        if game.is_over():
            outcome = game.outcome
            assert outcome is not None
            reached = max((r.k for r in game.rounds if r.passed), default=0)
            self.news.append(f"practice over: restored up to k = {reached}" if game.options.practice
                             else f"{self._name(outcome.winners[0])} wins: the last player in")
            self.ended()
        elif ended.passed:
            self.passed()
            said.update(self._show(game, t))
        else:
            self.failed()  # the board differs from the picture: the repair guidance puts it back
        return said

    def _tell_result(self, game: BoardPuzzle, ended: Round) -> None:
        """The restore judged (none when the dismantle ran out of time), and who went out."""
        reason = ended.reason.value
        if ended.passed is not None:
            self.events.append(Restored(ended.number, ended.restorer, ended.dismantler, ended.k, ended.passed,
                                        reason, ended.restore_s))
        if ended.passed is not True:
            seat = ended.restorer if ended.passed is False else ended.dismantler
            names = self.seat_names()[:game.players]  # as the state's seats (a practice's computer has none)
            self.events.append(Out(ended.number, seat, names[seat - 1] if seat <= len(names) else "", reason))

    def _tell_stage(self, game: BoardPuzzle) -> None:
        """A stage begun: the game's first, or the next (k rising with it)."""
        if game.stage != self.told_stage:
            self.told_stage = game.stage
            self.events.append(StageBegun(game.stage, game.k, game.picture.title))

    def _guided_back(self) -> None:
        """After a failed round the picture stands again: show it (from the next tick), or with
        no show, dismantle at once."""
        self.show_until = None
        if not self.options.get("show_s", 0):
            self._dismantle(self._game(), self.now)

    def tick(self, t: float) -> list[dict[str, Any]]:
        """The core's clock: end the show, count down, fail a phase whose time ran out; the
        journal records of what happened."""
        self.now = max(self.now, t)
        game = self.game
        phase = self.phase()
        if game is None or game.is_over() or phase is None:
            return []
        if phase == SHOWING:
            if self.show_until is None:
                self.show_until = t + self.options.get("show_s", 0)
            if t < self.show_until:
                return []
            self._dismantle(game, t)
            return [{"t": t, "kind": "dismantle"}]
        if phase not in ROUNDS:
            return []
        self.left_s = game.time_left(t)
        ended = game.expire(t)
        if ended is None:
            return []
        record = {"t": t, "kind": "time", **self._round_over(game, ended, t)}
        return [record, self._end_record(t)] if game.is_over() else [record]

    def deadline(self) -> float | None:
        """When the flow next wants a tick: the end of the show, or the next countdown step."""
        game = self.game
        if game is None or game.is_over():
            return None
        phase = self.phase()
        if phase == SHOWING and self.show_until is not None:
            return self.show_until
        limit = game.options.restore_limit_s if phase == RESTORING else game.options.dismantle_limit_s
        left = game.time_left(self.now) if phase in ROUNDS else None
        if limit is None or left is None:
            return None
        quarter = limit / STATUS_PIXELS
        return self.now + min(left % quarter or quarter, left) + 1e-3  # the next pixel goes out

    # -- resuming ------------------------------------------------------------------------------

    def _replay_one(self, record: dict[str, Any]) -> None:
        kind, game = record["kind"], self.game
        t = float(record.get("t", 0.0))
        self.now = max(self.now, t)
        if kind in ("start", "menu"):
            super()._replay_one(record)
            return
        if game is None:
            raise IllegalMoveError("no game is running")
        if self.state == GUIDING and kind in ("remove", "place", "twist", "dismantle", "time"):
            self.mended()  # the picture was guided back before this round (no record says so)
        if kind == "build":
            self.apply(Action("place", parse_hole(_text(record, "hole"), game.geometry)), t)
        elif kind == "dismantle" and self.phase() == SHOWING:
            self._dismantle(game, t)
        elif kind in ("remove", "place", "twist"):
            self.apply(self._action(record), t)
        elif kind == "time":
            if self.phase() not in ROUNDS:
                raise IllegalMoveError(f"no dismantle or restore is running out of time while the board is at '{game.step}'")
            self._round_over(game, game.time_out(), t)

    def _action(self, record: dict[str, Any]) -> Action:
        g = self._game().geometry
        if record["kind"] == "twist":
            return Action("twist", twist=parse_twist(_text(record, "twist"), g))
        letter = record.get("colour")
        if letter is not None and (not isinstance(letter, str) or letter not in LETTERS):
            raise ValueError(f"field 'colour' = {letter!r} must be a colour letter ({', '.join(LETTERS)})")
        colour = None if letter is None else LETTERS.index(letter)
        return Action(record["kind"], parse_hole(_text(record, "hole"), g), colour=colour)

    # -- reading -------------------------------------------------------------------------------

    def detail(self) -> dict[str, Any]:
        """The round in hand and the game so far, for the web console's live view: the step,
        k, the stage, the roles, what is still to do, the seconds left, every round, and the
        teacher's summary (CSV text, names from the options)."""
        game = self._game()
        names = self.seat_names()
        return {
            "picture": game.picture.title, "step": game.step, "k": game.k, "stage": game.stage,
            "restorer": game.restorer, "dismantler": game.dismantler, "to_do": list(game.to_do()),
            "left_s": self.left_s, "eliminated": list(game.eliminated), "fastest": list(game.fastest()),
            "rounds": [{"restorer": r.restorer, "dismantler": r.dismantler, "k": r.k, "passed": r.passed,
                        "reason": r.reason.value, "seconds": r.restore_s} for r in game.rounds],
            "summary_csv": summary_csv(game, names),
        }

    def own_state(self) -> dict[str, Any]:
        """The seats out so far and the :meth:`detail` of the game."""
        game = self.game
        if game is None:
            return super().own_state()
        return {"cards": [], "eliminated": list(game.eliminated), "taken": None, "detail": self.detail()}

    def seat_names(self) -> list[str]:
        """A name for every seat a round can name: the players' and, in practice, the computer
        that dismantles as seat :data:`~controller.rules.puzzle.PRACTICE_DISMANTLER`."""
        game = self._game()
        names = super().seat_names()
        if game.options.practice:
            names += [COMPUTER] * (PRACTICE_DISMANTLER - len(names))
        return names

    def _name(self, seat: int | None) -> str:
        return self.seat_name(seat) if seat is not None else "no one"

    def doing(self) -> str | None:
        """The step in hand, in words: who does what, and how much is still to do (the headline
        of the page, the MQTT summary); None in repair and once the game is over."""
        game = self.game
        if game is None or game.is_over() or self.state not in PHASES:
            return None
        restorer = self._name(game.restorer)
        if self.state == BUILDING:
            return f"Build {game.picture.title}: put a stone on each lit hole, in its colour"
        if self.state == SHOWING:
            return f"{restorer}: look at the picture; {self._name(game.dismantler)} dismantles next"
        removals, twists = game.to_do()
        if self.state == DISMANTLING:
            work = " and ".join(part for part in (
                f"take {_count(removals, 'stone')} out" if removals else "",
                f"make {_count(twists, 'twist')}" if twists else "") if part)
            if game.plan:
                return f"The computer dismantles: do the lit steps ({work} to go) while {restorer} looks away"
            return f"{self._name(game.dismantler)}: {work} ({restorer} looks away)"
        return f"{restorer} restores: {_count(removals, 'placement')} and {_count(twists, 'twist')} to go"

    def move_texts(self) -> list[str]:
        """The rounds so far, one line each (as the record writes them)."""
        from ...rules.puzzle.record import record_lines

        game = self.game
        return [] if game is None else record_lines(game)


def _text(record: dict[str, Any], name: str) -> str:
    """A journal record's text field, or ValueError naming it (a resume stops there)."""
    value = record.get(name)
    if not isinstance(value, str):
        raise ValueError(f"field {name!r} = {value!r} must be text")
    return value


def _puzzle_step(action: Action) -> PuzzleStep:
    if action.kind == "twist":
        assert action.twist is not None
        return PuzzleStep.turn(action.twist)
    if action.kind not in ("remove", "place") or action.hole is None:
        raise IllegalMoveError(f"a {action.kind} is no step of Picture-Puzzle")
    if action.kind == "remove":
        return PuzzleStep.remove(action.hole)
    return PuzzleStep.place(action.hole, action.colour)


def _fields(action: Action, game: BoardPuzzle) -> dict[str, Any]:
    if action.kind == "twist":
        return {"twist": str(action.twist)}
    assert action.hole is not None
    fields: dict[str, Any] = {"hole": hole_name(action.hole, game.geometry)}
    if action.kind == "place" and action.colour is not None:
        fields["colour"] = LETTERS[action.colour]
    return fields


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def captured(title: str, readings: list[str], size: int) -> tuple[Picture, int]:
    """The picture of a board as it stands (its sensors' ``readings``, a hole each, colour names
    or "marble"/"empty"), and how many stones had no colour the picture format has: a presence
    board's marbles, or a colour other than the four, are captured white (W). ValueError for an
    empty board or a blank title (see :func:`~controller.rules.puzzle.pictures.picture_of`)."""
    stones = [0] * len(PICTURE_COLOURS)
    guessed = 0
    for hole, reading in enumerate(readings):
        if reading == "empty":
            continue
        colour = PICTURE_COLOURS.index(reading) if reading in PICTURE_COLOURS else 0
        guessed += reading not in PICTURE_COLOURS
        stones[colour] |= 1 << hole
    return picture_of(title, Position(geometry(size), tuple(stones))), guessed


# -- how a settled board is read ----------------------------------------------------------------

def explain(game: BoardPuzzle, diff: Diff, placed: int | None, physical: Physical) -> tuple[Action, ...] | None:
    """The actions that turn the expected board into the sensed one for the step in hand, or
    None (the referee then guides the board back)."""
    if game.is_over() or diff.is_same() or diff.recoloured or diff.unsure or diff.torn:
        return None
    if game.step == "build":
        return _build(game, diff)
    if game.step == "dismantle" and not diff.added and len(diff.turns) <= 1:
        return _dismantle(diff)
    twist = _twist(diff)
    if len(diff.turns) > 1 or (diff.turns and twist is None):
        return None
    if game.step == "restore" and not diff.removed and len(diff.added) <= 1:
        return _restore(game, diff, twist)
    return None


def _dismantle(diff: Diff) -> tuple[Action, ...]:
    """Removals and turns: a block turned a half turn (or more) between two settled boards is
    that many quarter twists (the same block may be twisted again); the turns come first, as
    the removed holes are named where the turned board has them."""
    twists: tuple[Action, ...] = ()
    for block, quarters in diff.turns:
        twists += (Action("twist", twist=Twist(block, quarters > 0)),) * abs(quarters)
    return twists + tuple(Action("remove", h) for h in diff.removed)


def _build(game: BoardPuzzle, diff: Diff) -> tuple[Action, ...] | None:
    if diff.turns or diff.removed or not diff.added:
        return None
    picture = game.picture.position
    actions = []
    for hole, sensed in diff.added:
        want = picture.colour_at(hole)
        if want is None or (sensed is not None and sensed != want and game.options.check is Check.COLOUR):
            return None
        actions.append(Action("place", hole, colour=sensed))
    return tuple(actions)


def _restore(game: BoardPuzzle, diff: Diff, twist: Twist | None) -> tuple[Action, ...] | None:
    if not diff.added:
        return (Action("twist", twist=twist),) if twist else None
    hole, sensed = diff.added[0]
    colour = sensed if sensed is not None and sensed < len(LETTERS) else None
    if twist is None:
        return (Action("place", hole, colour=colour),)
    before = game.geometry.rotate(1 << hole, twist.block, not twist.clockwise).bit_length() - 1
    return (Action("place", before, colour=colour), Action("twist", twist=twist))


def _twist(diff: Diff) -> Twist | None:
    if len(diff.turns) == 1 and abs(diff.turns[0][1]) == 1:
        block, quarters = diff.turns[0]
        return Twist(block, quarters > 0)
    return None


def is_idle_turn(game: BoardPuzzle, diff: Diff) -> bool:
    """Never: every turned block is a step of the dismantle or the restore, or to be put back."""
    return False


def next_colour(game: BoardPuzzle) -> int | None:
    """No one colour is due: the picture says which stone goes where."""
    return None


# -- what the LEDs show -------------------------------------------------------------------------

def scene(flow: PuzzleFlow, menu: Menu, repair: list[Step], prompt: Any = None) -> View:
    """The view for the puzzle's step (see the module doc); ``prompt`` is unused."""
    if flow.state == CHOOSING:
        holes = menu.option_holes()
        return menu_scene(holes, [holes[menu.pick]] if menu.pick is not None else [])
    game = flow.game
    assert game is not None
    if game.is_over():
        return overlay(_picture(game.picture.position), turn_scene(flow.seat_colour(game.to_move)))
    if game.step == "build":
        missing = Position(game.geometry, tuple(p & ~game.built.occupied for p in game.picture.position.stones))
        return overlay(_picture(missing), repair_scene(repair[:1]) if repair else View())
    if game.step == "guide":
        return _guide(flow, game, repair)
    if game.step == "show":
        return overlay(_picture(game.picture.position), turn_scene(flow.seat_colour(game.restorer or 1)))
    if flow.state in flow.repair_states and repair:
        return repair_scene(repair[:1])
    if game.plan and game.step == "dismantle":
        return overlay(_planned(game.plan[0]), turn_scene(flow.seat_colour(game.to_move)))
    return _countdown(flow, flow.seat_colour(game.to_move), game)


def _planned(step: PuzzleStep) -> View:
    """The computer's next dismantle step: the stone to take out blinking, or the twist's arrow."""
    if step.kind is Kind.REMOVE:
        assert step.hole is not None
        return View(holes=(HoleLight(step.hole, "remove", blink=True),))
    return prompt_scene(None, step.twist)


def _picture(position: Position) -> View:
    """Each stone of ``position`` lit in its colour on its hole."""
    return View(holes=tuple(HoleLight(hole, PICTURE_COLOURS[colour])
                            for colour, stones in enumerate(position.stones)
                            for hole in range(position.geometry.hole_count) if stones >> hole & 1))


def _guide(flow: PuzzleFlow, game: BoardPuzzle, repair: list[Step]) -> View:
    """A failed round: the holes that differed blink, the seat out on the status pixels, then
    the repair guidance step by step."""
    ended = flow.last_round
    out = eliminated_scene(flow.seat_colour(ended.out)) if ended and ended.out else View()
    if repair:
        return overlay(repair_scene(repair[:1]), out)
    wrong = ended.differences if ended else ()
    return overlay(View(holes=tuple(HoleLight(h, "remove", blink=True) for h in wrong)), out)


def _countdown(flow: PuzzleFlow, colour: str, game: BoardPuzzle) -> View:
    """The acting seat's colour on the status pixels; with a limit, as many lit as time is left."""
    limit = game.options.restore_limit_s if game.step == "restore" else game.options.dismantle_limit_s
    if limit is None or flow.left_s is None:
        return turn_scene(colour)
    lit = max(0, min(STATUS_PIXELS, math.ceil(flow.left_s / limit * STATUS_PIXELS)))
    return View(status=(colour,) * lit + ("off",) * (STATUS_PIXELS - lit))
