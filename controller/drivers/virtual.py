"""The virtual board: the input and pixel interfaces in memory, with verbs to play on it.

It keeps the physical truth of a board with no hardware: which marble sits over which sensor of
the base, and how far each block has been turned. The web simulator, the recipes and the tests
drive it with ``place`` / ``lift`` / ``turn`` / ``press`` / ``unplug`` / ``replug``; it emits the
same events a real board does, with times from an injectable clock.

>>> events = []
>>> board = VirtualBoard(6, clock=lambda: 1.5)
>>> board.place("a1")
>>> board.start(events.append)
>>> events[0], len(events)
(HoleReading(t=1.5, hole=0, reading='marble'), 36)
>>> board.turn(3, 1)
>>> for event in events[-3:]: print(event)
EncoderSteps(t=1.5, block=3, steps=1)
HoleReading(t=1.5, hole=0, reading='empty')
HoleReading(t=1.5, hole=12, reading='marble')
>>> board.name(12)
'a3'
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..colours import MARBLE_COLOURS
from ..errors import PentagoError
from ..events import EMPTY, MARBLE, ButtonPress, EncoderSteps, HoleReading, LinkChange
from .base import RGB, Emit
from .grid import Grid
from .pixels import FrameProcessor, blank, check_frame

if TYPE_CHECKING:
    from ..profile import Profile

Clock = Callable[[], float]
DEFAULT_COLOURS = ("white", "black")
DEFAULT_BUTTONS = ("ok", "back")
SENSINGS = ("presence", "polarity", "colour")


class VirtualBoardError(PentagoError, ValueError):
    """A verb the physical board could not do, e.g. placing a marble on a full hole."""


class VirtualBoard:
    """An input driver whose hardware is a board in memory.

    Wiring: none. Holes are read as ``"marble"`` (presence sensing) or the marble's colour
    (polarity sensing: one of the board's two; colour sensing: any marble colour, so the game
    can check every marble; a marble placed with no colour, a test's shorthand, reads
    ``"marble"`` there). A block turn emits one ``EncoderSteps`` per detent; when the turn adds up
    to a quarter, the marbles above the block move with it and its holes report the rotated
    readings. Between detents of a quarter the block's holes are off their sensors: with a
    ``garbage`` random source they read random values, as a real board does mid-twist; without
    one they hold their last reading until the quarter completes.

    Thread-safe: every verb takes one lock, and ``emit`` is called with it held, in order, so
    ``emit`` must not block (the daemon's emit puts the event on a queue).
    """

    def __init__(
        self,
        size: int = 6,
        *,
        sensing: str = "presence",
        colours: Sequence[str] = DEFAULT_COLOURS,
        buttons: Iterable[str] = DEFAULT_BUTTONS,
        detents_per_quarter: int = 1,
        clock: Clock = time.monotonic,
        garbage: random.Random | None = None,
    ) -> None:
        if sensing not in SENSINGS:
            raise VirtualBoardError(f"sensing {sensing!r} is not one of {', '.join(SENSINGS)}")
        if detents_per_quarter < 1:
            raise VirtualBoardError(f"detents_per_quarter {detents_per_quarter} is not >= 1")
        self.grid = Grid(size)
        self.sensing = sensing
        self.colours = tuple(colours)
        self.buttons = tuple(buttons)
        self.detents_per_quarter = detents_per_quarter
        self._clock = clock
        self._garbage = garbage
        self._lock = threading.RLock()
        self._marbles: dict[int, str | None] = {}  # hole over a sensor -> colour (None: unknown)
        self._offset = [0] * self.grid.block_count  # detents away from the aligned position
        self._reported: dict[int, str] = {}
        self._emit: Emit | None = None
        self._plugged = True
        self._unsent = [0] * self.grid.block_count  # detents turned while unplugged, per block

    @classmethod
    def from_profile(cls, profile: Profile, **overrides: object) -> VirtualBoard:
        """The virtual board for ``profile``; ``overrides`` replace constructor arguments."""
        options: dict[str, object] = dict(
            sensing=profile.sensing,
            colours=tuple(profile.colours.values()) or DEFAULT_COLOURS,
            buttons=tuple(profile.buttons) or DEFAULT_BUTTONS,
            detents_per_quarter=profile.detents_per_quarter,
        )
        options.update(overrides)
        return cls(profile.size, **options)  # type: ignore[arg-type]

    # -- the InputDriver interface ------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        """Begin reporting: emits the current reading of every hole, then every change."""
        with self._lock:
            self._emit = emit
            self._report_all()

    def stop(self) -> None:
        """Stop reporting. Safe to call twice; the physical truth is kept."""
        with self._lock:
            self._emit = None

    # -- test verbs ---------------------------------------------------------------------------

    def place(self, hole: int | str, colour: str | None = None) -> None:
        """Drop a marble into ``hole`` (index or name such as ``"c4"``)."""
        with self._lock:
            index = self._hole(hole)
            self._check_aligned(index, "place a marble in")
            if index in self._marbles:
                raise VirtualBoardError(f"hole {self.name(index)} already holds a marble")
            self._marbles[index] = self._colour(colour, index)
            self._report_changes()

    def lift(self, hole: int | str) -> str | None:
        """Take the marble out of ``hole``; returns its colour (None if placed without one)."""
        with self._lock:
            index = self._hole(hole)
            self._check_aligned(index, "lift a marble from")
            if index not in self._marbles:
                raise VirtualBoardError(f"hole {self.name(index)} is empty")
            colour = self._marbles.pop(index)
            self._report_changes()
            return colour

    def turn(self, block: int, steps: int) -> None:
        """Turn ``block`` (1-based) by ``steps`` detents; positive is clockwise from above."""
        with self._lock:
            if not 1 <= block <= self.grid.block_count:
                raise VirtualBoardError(
                    f"block {block} does not exist (1-{self.grid.block_count})"
                )
            sign = 1 if steps > 0 else -1
            for _ in range(abs(steps)):
                self._detent(block, sign)

    def quarter(self, block: int, clockwise: bool) -> None:
        """Turn ``block`` a quarter turn: ``detents_per_quarter`` steps one way."""
        self.turn(block, self.detents_per_quarter * (1 if clockwise else -1))

    def press(self, button: str) -> None:
        """Press and release the push button named ``button``."""
        with self._lock:
            if button not in self.buttons:
                raise VirtualBoardError(
                    f"button {button!r} does not exist ({', '.join(self.buttons)})"
                )
            self._send(ButtonPress(self._clock(), button))

    def unplug(self, reason: str = "unplugged") -> None:
        """Cut the link: a LinkChange down, then silence until ``replug``."""
        with self._lock:
            if self._plugged:
                self._send(LinkChange(self._clock(), False, reason))
                self._plugged = False

    def replug(self, reason: str = "replugged") -> None:
        """Restore the link: a LinkChange up, then every hole's current reading and the
        detents each block turned while unplugged, as a real board's snapshot brings them (its
        MCU counted on; :class:`~controller.drivers.link.mirror.BoardMirror`)."""
        with self._lock:
            if not self._plugged:
                self._plugged = True
                self._send(LinkChange(self._clock(), True, reason))
                self._report_all()
                for block, steps in enumerate(self._unsent, start=1):
                    if steps:
                        self._send(EncoderSteps(self._clock(), block, steps))
                self._unsent = [0] * self.grid.block_count

    # -- what the board holds -----------------------------------------------------------------

    def offsets(self) -> dict[int, int]:
        """The blocks left part-way through a turn: block -> detents from square (clockwise positive)."""
        with self._lock:
            return {block: offset for block, offset in enumerate(self._offset, 1) if offset}

    def marbles(self) -> dict[int, str | None]:
        """The physical truth: hole over a sensor -> marble colour (None if placed without)."""
        with self._lock:
            return dict(self._marbles)

    def reading(self, hole: int | str) -> str:
        """What the sensor under ``hole`` reads now (whether or not it was reported)."""
        with self._lock:
            return self._read(self._hole(hole))

    def name(self, hole: int) -> str:
        return self.grid.name(hole)

    # -- inside -------------------------------------------------------------------------------

    def _hole(self, hole: int | str) -> int:
        if isinstance(hole, str):
            try:
                return self.grid.hole(hole)
            except ValueError as error:
                raise VirtualBoardError(str(error)) from None
        if not 0 <= hole < self.grid.hole_count:
            raise VirtualBoardError(f"hole {hole} is off the {self.grid.size}x board")
        return hole

    def _colour(self, colour: str | None, hole: int) -> str | None:
        if self.sensing == "presence":
            return colour  # any colour: the sensors cannot tell, it is kept for display
        if self.sensing == "colour":
            if colour is not None and colour not in MARBLE_COLOURS:
                raise VirtualBoardError(f"{colour!r} is not a marble colour: give one of "
                                        f"{', '.join(MARBLE_COLOURS)} for {self.name(hole)}")
            return colour
        if colour not in self.colours:
            raise VirtualBoardError(
                f"a polarity board reads the marble's colour: give one of "
                f"{', '.join(self.colours)} for {self.name(hole)} (got {colour!r})"
            )
        return colour

    def _check_aligned(self, hole: int, doing: str) -> None:
        block = self.grid.block_of(hole)
        if self._offset[block - 1]:
            raise VirtualBoardError(
                f"cannot {doing} {self.name(hole)}: block {block} is mid-turn; finish its turn or turn it back"
            )

    def _detent(self, block: int, sign: int) -> None:
        self._offset[block - 1] += sign
        if not self._plugged:
            self._unsent[block - 1] += sign
        self._send(EncoderSteps(self._clock(), block, sign))
        if abs(self._offset[block - 1]) == self.detents_per_quarter:
            self._offset[block - 1] = 0
            self._rotate_marbles(block, clockwise=sign > 0)
        self._report_changes()

    def _rotate_marbles(self, block: int, clockwise: bool) -> None:
        moved = {}
        for hole in self.grid.block_holes(block):
            if hole in self._marbles:
                moved[self.grid.turned(hole, clockwise)] = self._marbles.pop(hole)
        self._marbles.update(moved)

    def _read(self, hole: int) -> str:
        block = self.grid.block_of(hole)
        if self._offset[block - 1] and self._garbage is not None:
            return self._garbage.choice(self._readable())
        if self._offset[block - 1] and hole in self._reported:
            return self._reported[hole]  # off its sensor: the last reading holds
        if hole not in self._marbles:
            return EMPTY
        colour = self._marbles[hole]
        return MARBLE if self.sensing == "presence" or colour is None else colour

    def _readable(self) -> tuple[str, ...]:
        """Every reading a hole can give."""
        if self.sensing == "presence":
            return (EMPTY, MARBLE)
        return (EMPTY, *(MARBLE_COLOURS if self.sensing == "colour" else self.colours))

    def _report_all(self) -> None:
        self._reported.clear()
        self._report_changes()

    def _report_changes(self) -> None:
        if self._emit is None or not self._plugged:
            return
        for hole in range(self.grid.hole_count):
            now = self._read(hole)
            if self._reported.get(hole) != now:
                self._reported[hole] = now
                self._emit(HoleReading(self._clock(), hole, now))

    def _send(self, event: ButtonPress | EncoderSteps | LinkChange) -> None:
        if self._emit is not None and self._plugged:
            self._emit(event)


class VirtualPixels:
    """A pixel output that keeps what it was shown: ``last`` and the list ``frames``.

    Wiring: none. Frames are checked like on real LEDs and recorded only when they change;
    with a ``processor`` the recorded frames are the processed ones (what real LEDs would get),
    without one they are the full-scale frames the scenes asked for (what a simulator shows).
    """

    def __init__(self, length: int, processor: FrameProcessor | None = None) -> None:
        self.length = length
        self.frames: list[tuple[RGB, ...]] = []
        self.closed = False
        self._processor = processor
        self._lock = threading.Lock()

    @property
    def last(self) -> tuple[RGB, ...]:
        """The frame showing now (all off before the first)."""
        with self._lock:
            return self.frames[-1] if self.frames else blank(self.length)

    def show(self, frame: Sequence[RGB]) -> None:
        """Record ``frame`` unless it equals the one showing."""
        shown = self._processor.process(frame) if self._processor else check_frame(frame, self.length)
        with self._lock:
            if not self.frames or self.frames[-1] != shown:
                self.frames.append(shown)

    def close(self) -> None:
        """Turn every pixel off."""
        self.show(blank(self.length))
        self.closed = True
