"""Picture-Puzzle (the Multiplayer rulebook's memory game): the referee of dismantles and restores.

The rules (issue 12):

- The picture (:mod:`~controller.rules.puzzle.pictures`) stands on the board. Each round one player
  (the restorer) looks away and the next player still in (the dismantler) removes k stones and
  makes k quarter twists, in any order, any blocks, either way, the same block more than once if
  they like. Then the restorer places one stone and twists one block, k times in that order. A
  placed stone stays. The restored board is judged against the picture; if it differs the
  restorer is out. Either way the board is set back to the picture for the next round (on the
  board, the repair guidance does that).
- Round order: seat 1 restores first with seat 2 dismantling; then seat 2 restores with the next
  seat still in dismantling, and so on round the table; seats that are out are skipped in both
  roles. A stage ends when every player in at its start has had a restore turn; then k grows by
  one. k starts at 1 (or ``start_k``) and never exceeds the picture's stones. The last player in
  wins.
- Time limits (optional, ``restore_limit_s`` and ``dismantle_limit_s``): times are passed in with
  each step (``t``, seconds on any clock; the rules never read a clock). A restore not finished in
  time fails. The stopwatch keeps each restore's time for the fastest restorer.
- The judge checks what the board can sense (:class:`Check`): every colour (the virtual board),
  two colours (a polarity board: white and black, W and B), or only where stones are (presence).

Where the rulebook and the issue are silent, this module decides:

- *A dismantle not finished in time* fails like a restore: the dismantler is out, the board is
  set back to the picture and the same restorer restores next, with the next player still in
  dismantling. (The timer cannot run out in the command-line game: its steps carry no times.)
- *When a phase's clock starts*: at :meth:`PuzzleGame.begin` (the flow calls it as it cues
  "dismantle now" or "restore now"); otherwise the restore's clock starts at the dismantle's last
  step and a dismantle's at the end of the round before it, or at its own first step.
  A step after the limit is not played: the phase has failed by the timer. Exactly at the limit
  is in time.
- *A stage's end* counts a player who went out before their restore turn (a dismantler out of
  time) as done, so every stage ends.
- *Polarity checking* tells W from B; a red or green stone (its magnet reads as one pole or the
  other) counts as any stone in its hole, and any stone counts for a red or green one.
- *The placement's colour* may be any of the four colours; a stone of a colour the picture has
  not is simply wrong. With a one-colour picture the colour may be left out (it is the picture's).
- *start_k above the picture's stones* is refused (the teacher asked for the impossible); k
  growing past them stops at the stones.
- *The fastest restorer* is the one with the quickest passed restore per stone (seconds divided by
  k), so a quick k=3 restore is not beaten by any slow k=1 one; ties share.
- *Players*: 2 to 4, the product's seats; 1 in practice.
- *Practice* (``practice``, issue 13): one child practises alone. The child (seat 1) always
  restores and the computer always dismantles, as seat 2 (its status colour is seat 2's; see
  :mod:`controller.ai.puzzle`). Each stage is one round, so k grows by one after every passed
  restore and stops at the picture's stones. The game ends at the first failed restore, or
  after the restore passed at k equal to the picture's stones; either way the child is placed
  first (``practice over``: the rounds say how far they came). The computer dismantles without
  a time limit (``dismantle_limit_s`` is refused with practice); a restore limit may be set.
- *Standings*: the winner, then the others in reverse order of going out.

>>> from controller.rules.puzzle.pictures import library_picture
>>> game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=3))
>>> game.restorer, game.dismantler, game.k, game.stage
(1, 2, 1, 1)
>>> for step in ("-c2", "5R", "c2"):
...     game.push_text(step)
>>> game.push_text("5L").passed
True
>>> game.restorer, game.dismantler
(2, 3)
>>> game.push_text("e5")
Traceback (most recent call last):
...
controller.rules.errors.IllegalMoveError: e5: seat 3 is dismantling (1 removal and 1 twist to go); stones are placed in the restore
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, ClassVar

from ..errors import IllegalMoveError, NotationError
from ..geometry import Geometry, bits
from ..notation import Twist, hole_name
from ..outcome import Outcome, Places, Termination
from .pictures import LETTERS, Picture, letter_of, parse_picture
from ..position import Position
from .notation import Kind, Step, parse_step, step_name

if TYPE_CHECKING:
    from ..record import Record

MIN_PLAYERS, MAX_PLAYERS = 2, 4
PRACTICE_DISMANTLER = 2  # the computer's seat in practice


class Check(Enum):
    """What the judge compares: where stones are, two colours (W, B) too, or every colour."""

    PRESENCE = "presence"
    POLARITY = "polarity"
    COLOUR = "colour"


class Phase(Enum):
    DISMANTLE = "dismantle"
    PLACE = "place"  # the restore awaits a placement
    TWIST = "twist"  # the restore awaits the twist after its placement
    OVER = "over"


class Reason(Enum):
    """How a round ended."""

    RESTORED = "restored"
    DIFFERS = "the board differs from the picture"
    RESTORE_TIME = "the restore ran out of time"
    DISMANTLE_TIME = "the dismantle ran out of time"


def differences(board: Position, picture: Position, check: Check = Check.COLOUR) -> tuple[int, ...]:
    """The holes where ``board`` differs from ``picture`` as ``check`` sees them, lowest first.

    >>> from controller.rules.puzzle.pictures import parse_picture
    >>> picture = parse_picture("P\\n" + ". . . . . .\\n" * 5 + "W B R . . .").position
    >>> swapped = picture.lift(0).lift(1).place(0, 1).place(1, 0)  # W and B swapped
    >>> differences(swapped, picture), differences(swapped, picture, Check.PRESENCE)
    ((0, 1), ())
    >>> differences(picture.lift(2).place(2, 3), picture, Check.POLARITY)  # green for red
    ()
    """
    moved = board.occupied ^ picture.occupied  # a stone where none is due, or none where one is
    if check is Check.PRESENCE:
        return tuple(bits(moved))
    if check is Check.POLARITY:  # the two poles swapped; a red or green stone reads as either
        (b_white, b_black), (p_white, p_black) = board.stones[:2], picture.stones[:2]
        return tuple(bits(moved | (b_white & p_black) | (b_black & p_white)))
    for ours, theirs in zip(board.stones, picture.stones):
        moved |= ours ^ theirs
    return tuple(bits(moved))


@dataclass(frozen=True)
class PuzzleOptions:
    """The settings of a Picture-Puzzle game; ValueError names a bad one.

    >>> PuzzleOptions(players=3, start_k=2, restore_limit_s=30).text()
    'players=3 start-k=2 restore-limit=30 dismantle-limit=off check=colour'
    >>> PuzzleOptions.parse("players=4 dismantle-limit=12.5 check=presence")
    PuzzleOptions(players=4, start_k=1, restore_limit_s=None, dismantle_limit_s=12.5, check=<Check.PRESENCE: 'presence'>, practice=False)
    >>> PuzzleOptions(players=5)
    Traceback (most recent call last):
    ...
    ValueError: players must be 2 to 4, not 5
    """

    players: int = 2
    start_k: int = 1
    restore_limit_s: float | None = None
    dismantle_limit_s: float | None = None
    check: Check = Check.COLOUR
    practice: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.practice, bool):
            raise ValueError(f"practice must be true or false, not {self.practice!r}")
        if self.practice and self.players != 1:
            raise ValueError(f"practice is for 1 player (the computer dismantles), not {self.players!r}")
        if self.practice and self.dismantle_limit_s is not None:
            raise ValueError("in practice the computer dismantles: it has no dismantle time limit")
        if not self.practice and (not _is_int(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS):
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players!r}")
        if not _is_int(self.start_k) or self.start_k < 1:
            raise ValueError(f"the starting k must be a whole number of at least 1, not {self.start_k!r}")
        for name, limit in (("restore", self.restore_limit_s), ("dismantle", self.dismantle_limit_s)):
            if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int | float) or not limit > 0):
                raise ValueError(f"the {name} time limit must be a number of seconds above 0, not {limit!r}")
        if not isinstance(self.check, Check):
            raise ValueError(f"check must be one of {', '.join(c.value for c in Check)}, not {self.check!r}")

    def text(self) -> str:
        """The canonical ``key=value`` form, as record headers write it (``practice=on`` only
        in practice, so the records of other games read as they always have)."""
        limits = (_limit_text(self.restore_limit_s), _limit_text(self.dismantle_limit_s))
        return (f"players={self.players} start-k={self.start_k} restore-limit={limits[0]} "
                f"dismantle-limit={limits[1]} check={self.check.value}" + (" practice=on" if self.practice else ""))

    @classmethod
    def parse(cls, text: str) -> PuzzleOptions:
        """Read :meth:`text`'s form back; unknown keys or values raise ValueError naming them."""
        keys = ("players", "start-k", "restore-limit", "dismantle-limit", "check", "practice")
        values = {"players": "2", "start-k": "1", "restore-limit": "off", "dismantle-limit": "off", "check": "colour",
                  "practice": "off"}
        for word in text.split():
            key, sep, value = word.partition("=")
            if not sep or key not in keys:
                raise ValueError(f"option {word!r} is not one of {', '.join(k + '=...' for k in keys)}")
            values[key] = value
        for key in ("players", "start-k"):
            if not values[key].isdigit():
                raise ValueError(f"option {key} must be a number, not {values[key]!r}")
        checks = {c.value: c for c in Check}
        if values["check"] not in checks:
            raise ValueError(f"option check must be one of {', '.join(checks)}, not {values['check']!r}")
        if values["practice"] not in ("on", "off"):
            raise ValueError(f"option practice must be on or off, not {values['practice']!r}")
        return cls(int(values["players"]), int(values["start-k"]), _parse_limit("restore-limit", values["restore-limit"]),
                   _parse_limit("dismantle-limit", values["dismantle-limit"]), checks[values["check"]],
                   values["practice"] == "on")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _limit_text(limit: float | None) -> str:
    return "off" if limit is None else f"{limit:g}"


def _parse_limit(key: str, text: str) -> float | None:
    if text == "off":
        return None
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"option {key} must be seconds or off, not {text!r}") from None


@dataclass(frozen=True)
class Round:
    """One finished round: who restored and dismantled, at which k and stage, and how it ended.

    ``passed`` is None when no restore was judged (the dismantle ran out of time); ``out`` is
    the seat that went out, if any; ``differences`` the holes the judged board had wrong;
    ``restore_s`` the restore's time when the steps carried times.
    """

    number: int
    stage: int
    restorer: int
    dismantler: int
    k: int
    passed: bool | None
    reason: Reason
    out: int | None = None
    steps: tuple[Step, ...] = ()
    differences: tuple[int, ...] = ()
    restore_s: float | None = None


@dataclass
class _Turn:
    """The round in progress: what the dismantler and the restorer have done so far."""

    restorer: int
    dismantler: int
    removals: int = 0
    twists: int = 0
    dismantle: list[Step] = field(default_factory=list)
    restore: list[Step] = field(default_factory=list)
    clock_from: float | None = None  # when the current phase's clock started
    restore_from: float | None = None  # when the restore's clock started


class PuzzleGame:
    """A game of Picture-Puzzle on ``picture`` (see the module doc for the rules and decisions)."""

    variant = "puzzle"  # as records name it
    colours = len(LETTERS)  # the colour planes of its boards: W, B, R, G
    ranked: ClassVar[bool] = True  # its record's Result gives the whole standings

    @classmethod
    def from_record(cls, record: Record, size: int | None = None) -> PuzzleGame:
        """The game a record's headers describe (its picture, on the picture's own board, and
        its options); NotationError naming the header that is wrong."""
        headers = record.headers
        title, board = headers.get("Picture", "").strip(), headers.get("Board", "")
        if not title or not board:
            raise NotationError("record: a puzzle record names its picture (Picture: title, Board: rows)")
        try:
            picture = parse_picture("\n".join([title, *board.split("/")]), "record Board")
            return cls(picture, PuzzleOptions.parse(headers.get("Options", "")))
        except ValueError as error:
            raise NotationError(f"record: {error}") from None

    def __init__(self, picture: Picture, options: PuzzleOptions | None = None) -> None:
        self.picture = picture
        self.options = options = options or PuzzleOptions()
        if options.start_k > picture.stone_count:
            raise ValueError(f"the starting k {options.start_k} is more than the picture's "
                             f"{picture.stone_count} stones")
        self.players = options.players
        self.geometry: Geometry = picture.position.geometry
        self.position: Position = picture.position
        self.k = options.start_k
        self.stage = 1
        self.rounds: list[Round] = []
        self.eliminated: list[int] = []
        self.outcome: Outcome | None = None
        self._stage_left = set(range(1, self.players + 1))  # in at the stage's start, no restore yet
        self._turn = _Turn(1, 2)
        self._last_t: float | None = None

    # -- reading -------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        turn = self._turn
        if self.outcome is not None:
            return Phase.OVER
        if turn.removals < self.k or turn.twists < self.k:
            return Phase.DISMANTLE
        return Phase.TWIST if len(turn.restore) % 2 else Phase.PLACE

    @property
    def restorer(self) -> int | None:
        return None if self.outcome else self._turn.restorer

    @property
    def dismantler(self) -> int | None:
        return None if self.outcome else self._turn.dismantler

    @property
    def standings(self) -> Places:
        return self.outcome.standings if self.outcome else ()

    def playing(self) -> tuple[int, ...]:
        """The seats still in, in seat order."""
        return tuple(s for s in range(1, self.players + 1) if s not in self.eliminated)

    def is_over(self) -> bool:
        return self.outcome is not None

    def steps(self) -> tuple[Step, ...]:
        """The steps of the round in progress, in order (removals and twists of the dismantle,
        then the restore's placements and twists)."""
        return (*self._turn.dismantle, *self._turn.restore)

    def to_do(self) -> tuple[int, int]:
        """The removals and twists the dismantle still needs, or the placements and twists the
        restore still needs (a placement then a twist, k times)."""
        turn = self._turn
        if self.phase is Phase.DISMANTLE:
            return self.k - turn.removals, self.k - turn.twists
        done = len(turn.restore)
        return self.k - (done + 1) // 2, self.k - done // 2

    def time_left(self, t: float) -> float | None:
        """Seconds left at ``t`` for the phase in hand, or None when it has no limit or no clock."""
        limit, start = self._limit(), self._turn.clock_from
        if limit is None or start is None or self.outcome:
            return None
        return limit - (t - start)

    def stopwatch(self) -> list[tuple[int, float]]:
        """Each seat's quickest passed restore in seconds per stone, quickest first."""
        best: dict[int, float] = {}
        for r in self.rounds:
            if r.passed and r.restore_s is not None:
                per_stone = r.restore_s / r.k
                best[r.restorer] = min(best.get(r.restorer, per_stone), per_stone)
        return sorted(best.items(), key=lambda item: (item[1], item[0]))

    def fastest(self) -> tuple[int, ...]:
        """The fastest restorer(s) of the game so far (see the module doc); empty without times."""
        times = self.stopwatch()
        return tuple(seat for seat, s in times if s == times[0][1]) if times else ()

    # -- its record (controller.rules.record asks these; the format is .record's, which reads
    # this module's classes, hence each import in its method) --------------------------------

    def record_headers(self) -> dict[str, str]:
        """The headers that make the game again: variant, options and the picture itself."""
        from .record import puzzle_headers
        return puzzle_headers(self)

    def record_starter(self) -> dict[str, str]:
        """None: the rounds say who dismantles and who restores."""
        return {}

    def record_lines(self) -> list[str]:
        """One line per round played, then the round in progress if it has begun."""
        from .record import record_lines
        return record_lines(self)

    def record_line(self, line: str, number: int) -> str:
        """Line ``number`` of a record (a round) read as canonical steps; NotationError naming it."""
        from .record import canonical_line
        return canonical_line(line, self, number)

    def play_record_line(self, text: str, number: int) -> None:
        """Play a record's line ``number`` (a round's steps); IllegalMoveError naming it."""
        from .record import play_line
        play_line(self, text, number)

    # -- playing -------------------------------------------------------------------------------

    def begin(self, t: float) -> None:
        """Start the clock of the phase in hand (dismantle or restore) at ``t``."""
        self._start_clock(t)

    def expire(self, t: float) -> Round | None:
        """End the round if the phase in hand has run out of time at ``t``; the round, or None."""
        left = self.time_left(t)
        if left is None or left >= 0:
            return None
        reason = Reason.DISMANTLE_TIME if self.phase is Phase.DISMANTLE else Reason.RESTORE_TIME
        return self._end(reason, t)

    def time_out(self) -> Round:
        """End the phase in hand by the timer, whatever the clock says (a record's ``time``)."""
        if self.outcome is not None:
            raise IllegalMoveError("time: the game is over")
        return self._end(Reason.DISMANTLE_TIME if self.phase is Phase.DISMANTLE else Reason.RESTORE_TIME, None)

    def push_text(self, text: str, t: float | None = None) -> Round | None:
        """Play the step written ``text`` (see :func:`parse_step`); the round it ended, if any."""
        return self.push(parse_step(text, self.geometry), t)

    def push(self, step: Step, t: float | None = None) -> Round | None:
        """Play ``step`` at time ``t``; the round it ended, if any.

        Raises :class:`IllegalMoveError` naming the step and the rule when it is not this
        moment's kind of step or cannot be done; a step after the phase's time limit is not
        played: the round ends by the timer and is returned.
        """
        if t is not None and self.outcome is None:
            if self._turn.clock_from is None:
                self._start_clock(self._last_t if self._last_t is not None else t)
            if (late := self.expire(t)) is not None:
                return late
        self._check(step)
        if t is not None:
            self._last_t = t
        return self._play(step, t)

    def _check(self, step: Step) -> None:
        """Raise IllegalMoveError naming ``step`` and the rule it breaks, if it breaks one (the
        step's text is only written for a refusal: legal steps are the many)."""
        phase = self.phase
        if phase is Phase.OVER:
            rule: str | None = "the game is over"
        elif phase is Phase.DISMANTLE:
            rule = self._dismantle_rule(step)
        else:
            rule = self._restore_rule(step, phase)
        if rule is not None:
            raise IllegalMoveError(f"{step_name(step, self.geometry)}: {rule}")

    def _dismantle_rule(self, step: Step) -> str | None:
        removals, twists = self.to_do()
        if step.kind is Kind.PLACE:
            return (f"seat {self._turn.dismantler} is dismantling ({_count(removals, 'removal')} and "
                    f"{_count(twists, 'twist')} to go); stones are placed in the restore")
        if step.kind is Kind.REMOVE and not removals:
            return f"the dismantle has its {_count(self.k, 'removal')} at k = {self.k}; {_count(twists, 'twist')} to go"
        if step.kind is Kind.TWIST and not twists:
            return f"the dismantle has its {_count(self.k, 'twist')} at k = {self.k}; {_count(removals, 'removal')} to go"
        if step.kind is Kind.REMOVE and not self.position.occupied >> _hole(step) & 1:
            return f"hole {hole_name(_hole(step), self.geometry)} is empty; nothing to remove"
        return None

    def _restore_rule(self, step: Step, phase: Phase) -> str | None:
        seat = self._turn.restorer
        if step.kind is Kind.REMOVE:
            return (f"seat {seat} is restoring (a placement then a twist, {_count(self.k, 'time')}); "
                    "a placed stone is never taken back")
        if step.kind is Kind.TWIST and phase is Phase.PLACE:
            return f"the restore places a stone before each twist; seat {seat} places next"
        if step.kind is Kind.PLACE and phase is Phase.TWIST:
            return f"a twist follows each placement; seat {seat} twists next"
        return self._placement_rule(step) if step.kind is Kind.PLACE else None

    def _placement_rule(self, step: Step) -> str | None:
        hole = _hole(step)
        if self.position.occupied >> hole & 1:
            return f"hole {hole_name(hole, self.geometry)} is taken"
        used = self.picture.colours_used
        if step.colour is None and len(used) > 1:
            letters = ", ".join(letter_of(c) for c in used)
            return (f"the picture has the colours {letters}: write the colour before the hole, "
                    f"e.g. {letter_of(used[0])}{hole_name(hole, self.geometry)}")
        return None

    def _play(self, step: Step, t: float | None) -> Round | None:
        turn = self._turn
        if self.phase is Phase.DISMANTLE:
            turn.dismantle.append(step)
            turn.removals += step.kind is Kind.REMOVE
            turn.twists += step.kind is Kind.TWIST
        else:
            turn.restore.append(step)
        self.position = _apply(self.position, step, self.picture.colours_used[0])
        if self.phase is Phase.PLACE and not turn.restore:  # the dismantle is done: the restore's clock starts
            turn.clock_from = turn.restore_from = t
            return None
        if len(turn.restore) == 2 * self.k:
            return self._judge(t)
        return None

    def _start_clock(self, t: float) -> None:
        self._turn.clock_from = t
        if self.phase is not Phase.DISMANTLE:
            self._turn.restore_from = t

    def _limit(self) -> float | None:
        options = self.options
        return options.dismantle_limit_s if self.phase is Phase.DISMANTLE else options.restore_limit_s

    def _judge(self, t: float | None) -> Round:
        wrong = differences(self.position, self.picture.position, self.options.check)
        return self._end(Reason.DIFFERS if wrong else Reason.RESTORED, t, wrong)

    def _end(self, reason: Reason, t: float | None, wrong: tuple[int, ...] = ()) -> Round:
        """Record the round, put the loser out, set the picture back and set up the next round."""
        turn = self._turn
        out = {Reason.RESTORED: None, Reason.DISMANTLE_TIME: turn.dismantler}.get(reason, turn.restorer)
        passed = None if reason is Reason.DISMANTLE_TIME else reason is Reason.RESTORED
        took = None if t is None or turn.restore_from is None or reason is not Reason.RESTORED else t - turn.restore_from
        done = Round(len(self.rounds) + 1, self.stage, turn.restorer, turn.dismantler, self.k, passed, reason, out,
                     self.steps(), wrong, took)
        self.rounds.append(done)
        self.position = self.picture.position
        self._turn = _Turn(turn.restorer, turn.dismantler)  # no steps in hand, even once the game is over
        self._last_t = t
        if out is not None:
            self.eliminated.append(out)
            self._stage_left.discard(out)
        if passed is not None:
            self._stage_left.discard(turn.restorer)
        self._next_round(turn.restorer if passed is not None else None)
        return done

    def _next_round(self, restored: int | None) -> None:
        if self.options.practice:
            self._next_practice(restored is not None and not self.eliminated)
            return
        playing = self.playing()
        if len(playing) == 1:
            self.outcome = Outcome(Termination.LAST_PLAYER, playing, (), self._standings(playing[0]))
            return
        if not self._stage_left:
            self.stage += 1
            self.k = min(self.k + 1, self.picture.stone_count)
            self._stage_left = set(playing)
        restorer = self._turn.restorer if restored is None else self._after(restored)
        self._turn = _Turn(restorer, self._after(restorer))

    def _next_practice(self, passed: bool) -> None:
        """Practice: the next stage after a passed restore (k one more), or the end."""
        if not passed or self.k == self.picture.stone_count:
            self.outcome = Outcome(Termination.PRACTICE_OVER, (1,), (), ((1,),))
            return
        self.stage += 1
        self.k += 1
        self._turn = _Turn(1, PRACTICE_DISMANTLER)

    def _after(self, seat: int) -> int:
        """The next seat still in after ``seat``, round the table."""
        for step in range(1, self.players + 1):
            nxt = (seat - 1 + step) % self.players + 1
            if nxt not in self.eliminated:
                return nxt
        raise AssertionError("a game with players still in has a next seat")

    def _standings(self, winner: int) -> Places:
        return ((winner,), *((seat,) for seat in reversed(self.eliminated)))


def _hole(step: Step) -> int:
    assert step.hole is not None, "removals and placements name a hole"
    return step.hole


def _apply(position: Position, step: Step, only_colour: int) -> Position:
    """``position`` after ``step`` (a placement without a colour is of ``only_colour``)."""
    if step.kind is Kind.REMOVE:
        return position.lift(_hole(step))
    if step.kind is Kind.PLACE:
        return position.place(_hole(step), only_colour if step.colour is None else step.colour)
    twist: Twist | None = step.twist
    assert twist is not None, "a twist step has its twist"
    return position.rotate(twist.block, twist.clockwise)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
