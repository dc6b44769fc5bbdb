"""The sensed board: the latest reading of every hole and each block's encoder count.

Pure bookkeeping of raw inputs, no judgement: it knows when the board last changed (for the
settle timer) and which quarter turns each block's encoder count could mean. The encoder count
of a block is kept relative to the orientation the game expects; :meth:`Physical.rest` clears it
once a judgement has accounted for the turn.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Iterable

from ..errors import PentagoError
from ..events import EMPTY, UNSURE, EncoderSteps, HoleReading
from ..rules import Geometry

# One encoder step either way is forgiven: detented encoders miss or add a count now and then,
# and the hole readings decide which quarter the block really sits at.
STEP_TOLERANCE = 1
# A block is never judged more than a half turn from where the game expects it.
QUARTERS = (0, 1, -1, 2, -2)
UNKNOWN_QUARTERS = (0, 1, -1, 2)  # after a restart: every orientation, a half turn once


class BoardInputError(PentagoError, ValueError):
    """A sensor event that cannot belong to this board (a hole or block out of range)."""


class Physical:
    """Hole readings and per-block encoder counts, with the time of the last change."""

    def __init__(self, g: Geometry, detents_per_quarter: int) -> None:
        if detents_per_quarter < 1:
            raise BoardInputError(f"detents_per_quarter is {detents_per_quarter}; it must be at least 1")
        self.geometry = g
        self.detents = detents_per_quarter
        self.readings = [EMPTY] * g.hole_count
        self.steps = [0] * g.block_count
        self.changed_t: float | None = None  # None: nothing happened since the last judgement
        self.stepped_t: float | None = None  # the last encoder step since the last judgement
        self.read_t: list[float | None] = [None] * g.hole_count  # when each hole's reading last changed
        self.reading_t: float | None = None  # when any hole's reading last changed
        self.version = 0  # counts the changes: what was judged of one version holds until the next
        self.step_t: list[float | None] = [None] * g.block_count  # when each block last stepped
        self.seen = 0  # holes that read a marble at some moment since the last judgement
        self._fresh = True  # nothing sensed since the last judgement
        self.before_turn: dict[int, int] = {}  # turning block -> the holes seen with a marble before its first step
        self.orientation_known = True  # False after a restart: only the readings tell
        self.undone: set[int] = set()  # blocks whose turn was taken back: 0 is a candidate too
        # A polarity sensor read as presence (a game of more colours than poles): the game colour
        # index its pole suggests for each hole that last read one, to be confirmed by a player.
        self.suggested: dict[int, int] = {}

    def apply(self, event: HoleReading | EncoderSteps) -> bool:
        """Record one sensor event; True if the board changed. Raises BoardInputError."""
        if self._fresh:  # the first event since the last judgement
            self._fresh = False
            self.seen = sum(1 << hole for hole, reading in enumerate(self.readings) if reading not in (EMPTY, UNSURE))
        if isinstance(event, HoleReading):
            return self._read(event)
        return self._turn(event)

    def _read(self, event: HoleReading) -> bool:
        if not 0 <= event.hole < self.geometry.hole_count:
            raise BoardInputError(f"hole index {event.hole} is not on the {self.geometry.size}x{self.geometry.size} board")
        if self.readings[event.hole] == event.reading:
            return False
        self.readings[event.hole] = event.reading
        if event.reading not in (EMPTY, UNSURE):
            self.seen |= 1 << event.hole
        self.changed_t = self.reading_t = self.read_t[event.hole] = event.t
        self.version += 1
        return True

    def _turn(self, event: EncoderSteps) -> bool:
        if not 1 <= event.block <= self.geometry.block_count:
            raise BoardInputError(f"block {event.block} is not on the board (blocks 1-{self.geometry.block_count})")
        self.before_turn.setdefault(event.block, self.seen)
        self.steps[event.block - 1] += event.steps
        self.changed_t = self.stepped_t = self.step_t[event.block - 1] = event.t
        self.version += 1
        return True

    def settles_at(self, settle_s: float, turn_settle_s: float) -> float | None:
        """When the board counts as settled if nothing else changes; None if nothing is pending.

        A turning block's holes read garbage, and people turn slowly, a detent now and then:
        a block counts as still only ``turn_settle_s`` after its last step.
        """
        if self.changed_t is None:
            return None
        if self.stepped_t is None:
            return self.changed_t + settle_s
        return max(self.changed_t + settle_s, self.stepped_t + turn_settle_s)

    def judge_again(self, t: float) -> None:
        """The board is to be judged again as it stands at ``t`` (once it has settled), though
        no reading changed: what it should show has (a new game, a take-back, a confirmed
        colour, a game moved on by the clock, the sensor link back)."""
        self.changed_t = t

    def restarted(self, t: float) -> None:
        """The daemon started again at ``t`` over a board it did not watch: the blocks may
        have turned meanwhile (only the readings tell), and the board is judged as found."""
        self.orientation_known = False
        self.judge_again(t)

    def judged(self) -> None:
        """The current snapshot has been judged: wait for the next change."""
        self.changed_t = self.stepped_t = None
        self._fresh = True

    def accounted(self) -> None:
        """A move was accepted before the board settled: what is seen from now on is seen
        after it (the settle timer runs on; :meth:`judged` ends it), and a block standing on
        the quarter the game expects has no turn under way (a step that came after its twist
        was accepted began none)."""
        self._fresh = True
        for block in [b for b in self.before_turn if self.steps[b - 1] == 0]:
            del self.before_turn[block]

    def is_moving(self, block: int, now: float, window_s: float) -> bool:
        """True if ``block`` stepped less than ``window_s`` ago and stands off a detent of a
        quarter: a turn may be under way, and its holes read the marbles passing over them."""
        stepped = self.step_t[block - 1]
        return stepped is not None and now < stepped + window_s and self.count(block) % self.detents != 0

    def last_change(self, holes: Iterable[int] = (), blocks: Iterable[int] = ()) -> float | None:
        """When the readings of ``holes`` or the counts of ``blocks`` last changed (None: never)."""
        times = [self.read_t[h] for h in holes] + [self.step_t[b - 1] for b in blocks]
        return max((t for t in times if t is not None), default=None)

    def seen_before_turn(self, block: int) -> int:
        """The holes seen with a marble before the first step of ``block``'s turn, as a bitboard
        (0 if it is at rest): seen since the judgement before that step, so a turn judged
        half-way still knows what was down when it began."""
        return self.before_turn.get(block, 0)

    def was_there_before_turn(self, hole: int, block: int) -> bool:
        """True if ``hole`` held a marble at some moment between the judgement before ``block``
        began to turn and its first step.

        Tells a placement made before a twist from one made after it when both settle together;
        the hole may lie on another block than the one that turned. Not the reading at the first
        step: before a detent counts, the turning block's marbles already move off their sensors
        (none can reach another sensor yet, so a marble seen there was really put there).
        """
        return bool(self.seen_before_turn(block) >> hole & 1)

    def quarters(self, block: int) -> tuple[int, ...]:
        """The quarter turns (clockwise positive) the block's encoder count could mean.

        Empty when the count sits between quarters: the block is mid-turn or half-finished.
        """
        if not self.orientation_known:
            return UNKNOWN_QUARTERS
        count = self.count(block)
        near = [k for k in QUARTERS if abs(count - k * self.detents) <= STEP_TOLERANCE]
        near.sort(key=lambda k: abs(count - k * self.detents))
        if block in self.undone and near and 0 not in near:
            near.insert(0, 0)  # the marbles put back by hand: the readings decide
        return tuple(near)

    def count(self, block: int) -> int:
        """The block's encoder count, four quarters being a whole turn: within a half turn of 0."""
        count = self.steps[block - 1] % (4 * self.detents)
        return count - 4 * self.detents if count > 2 * self.detents else count

    def neighbours(self, block: int) -> tuple[int, int]:
        """The two quarters either side of a count that stands between them."""
        low = self.count(block) // self.detents
        return low, low + 1

    def nearest(self, block: int) -> int:
        """The quarter nearest the block's count (ties towards zero)."""
        count = self.count(block)
        low, high = self.neighbours(block)
        return low if abs(count - low * self.detents) < abs(count - high * self.detents) or \
            (abs(count - low * self.detents) == abs(count - high * self.detents) and abs(low) < abs(high)) else high

    def undo_turn(self, block: int, quarters: int) -> None:
        """The game took back a turn of ``block`` by ``quarters`` that the board still shows.

        Its count again says the block stands turned, so the repair asks to turn it back; until
        the block next rests, its readings may also show the marbles moved back by hand (the
        block itself looks the same either way), and a tie between the two means unturned.
        """
        self.steps[block - 1] += quarters * self.detents
        self.undone.add(block)

    def turned(self, block: int, quarters: int) -> int:
        """The game now accounts for ``quarters`` turns of ``block`` that the board shows, judged
        before the board settled: its count goes on from the new quarter (a step still to come
        of the same turn lands on it; :meth:`rest` clears what is left once the board is
        judged settled). Returns the steps taken off, which :meth:`unturned` puts back."""
        taken = quarters * self.detents
        self.steps[block - 1] -= taken
        self.undone.discard(block)
        self.before_turn.pop(block, None)
        return taken

    def unturned(self, taken: Iterable[tuple[int, int]], *, copy: bool = True) -> Physical:
        """The board with the (block, steps) ``taken`` off by :meth:`turned` put back: judged
        against the game as it stood before those turns were accepted. A copy, unless
        ``copy`` is false."""
        physical = _copy.copy(self) if copy else self
        physical.steps = list(self.steps)
        for block, steps in taken:
            physical.steps[block - 1] += steps
        return physical

    def rest(self, turned: tuple[int, ...]) -> None:
        """The game now accounts for the ``turned`` blocks: restart their counts from zero.

        Zeroing (rather than subtracting a quarter) absorbs a missed or extra count. The other
        blocks keep theirs: a slow twist may have begun. After a restart every count is zeroed.
        """
        for block in turned if self.orientation_known else range(1, len(self.steps) + 1):
            self.steps[block - 1] = 0
            self.undone.discard(block)
            self.before_turn.pop(block, None)
        self.orientation_known = True

