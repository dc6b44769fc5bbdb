"""The Pi's copy of what the MCU believes, and the events that bring the core up to date.

The MCU reports raw classes and cumulative encoder counts; the core wants readings and steps.
:class:`BoardMirror` keeps both views: the MCU's (to check heartbeat hashes) and what was last
reported to the core (so a snapshot only yields events for what really changed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pentago_firmware import wire

from ...events import EMPTY, MARBLE, UNSURE, EncoderSteps, HoleReading, InputEvent
from ..grid import Grid


def reading_names(colours: Mapping[str, str]) -> tuple[str, ...]:
    """The core's reading for each MCU class, indexed by class code.

    North and south become the profile's colour names; a board without colours (presence
    sensing) reports any marble as ``"marble"``, whichever way its magnet points.

    >>> reading_names({"north": "white", "south": "black"})
    ('empty', 'marble', 'white', 'black', 'unsure')
    >>> reading_names({})
    ('empty', 'marble', 'marble', 'marble', 'unsure')
    """
    return (EMPTY, MARBLE, colours.get("north", MARBLE), colours.get("south", MARBLE), UNSURE)


class BoardMirror:
    """Mirror of the MCU's classes and counts for a ``size`` x ``size`` board.

    >>> mirror = BoardMirror(6, {"north": "white", "south": "black"})
    >>> len(mirror.apply_snapshot(0.0, [0] * 36, [0, 0, 0, 0]))  # first snapshot: every hole
    36
    >>> mirror.apply_hole(1.0, 13, wire.NORTH)
    [HoleReading(t=1.0, hole=13, reading='white')]
    >>> mirror.apply_snapshot(2.0, [0] * 36, [0, 2, 0, 0])
    [HoleReading(t=2.0, hole=13, reading='empty'), EncoderSteps(t=2.0, block=2, steps=2)]
    """

    def __init__(self, size: int, colours: Mapping[str, str]) -> None:
        self.size = size
        self.hole_count = size * size
        self.block_count = Grid(size).block_count
        self._readings = reading_names(colours)
        self.has_colours = bool(colours)
        self.classes: list[int] = [wire.EMPTY] * self.hole_count
        self.counts: list[int] = [0] * self.block_count
        self.reported: list[str | None] = [None] * self.hole_count
        self.has_snapshot = False
        self._counts_valid = False

    def new_boot(self) -> None:
        """The MCU restarted: its counts begin again, so the next snapshot is a new baseline."""
        self._counts_valid = False
        self.has_snapshot = False

    def state_hash(self) -> int:
        """The hash a heartbeat must carry if the MCU and this mirror agree."""
        return int(wire.state_hash(self.classes, self.counts))

    def check_snapshot(self, classes: Sequence[int], counts: Sequence[int]) -> str | None:
        """Why a snapshot does not fit this board, or None when it does."""
        if len(classes) != self.hole_count or len(counts) != self.block_count:
            return (f"snapshot has {len(classes)} holes and {len(counts)} blocks, "
                    f"a {self.size}x{self.size} board has {self.hole_count} and {self.block_count}")
        bad = [c for c in classes if c >= len(self._readings)]
        return f"snapshot has unknown hole class {bad[0]}" if bad else None

    def apply_snapshot(self, t: float, classes: Sequence[int], counts: Sequence[int],
                       believe: Callable[[int, int], bool] = lambda block, steps: True) -> list[InputEvent]:
        """Take the MCU's full state; events for every reading and count that changed (a count
        is the new baseline either way, but its steps are an event only if ``believe(block,
        steps)``: a jump no hand can make is no turn)."""
        events: list[InputEvent] = []
        for hole, cls in enumerate(classes):
            events += self.apply_hole(t, hole, cls)
        if self._counts_valid:
            moved = [(block, wire.wrap_count(new - old))
                     for block, (old, new) in enumerate(zip(self.counts, counts), start=1) if new != old]
            events += [EncoderSteps(t, block, steps) for block, steps in moved if believe(block, steps)]
        self.counts = list(counts)
        self._counts_valid = self.has_snapshot = True
        return events

    def apply_hole(self, t: float, hole: int, cls: int) -> list[InputEvent]:
        """One hole's new class; an event only if the core's reading changes."""
        self.classes[hole] = cls
        reading = self._readings[cls]
        if self.reported[hole] == reading:
            return []
        self.reported[hole] = reading
        return [HoleReading(t, hole, reading)]

    def apply_encoder(self, t: float, block: int, steps: int) -> list[InputEvent]:
        """Detents turned on one block (1-based); the count wraps at 32 bits as the MCU's does."""
        self.counts[block - 1] = wire.wrap_count(self.counts[block - 1] + steps)
        return [EncoderSteps(t, block, steps)] if steps else []

    def check_hole(self, hole: int, cls: int) -> str | None:
        """Why a hole event does not fit this board, or None when it does."""
        if not 0 <= hole < self.hole_count:
            return f"hole event for hole {hole}, a {self.size}x{self.size} board has 0..{self.hole_count - 1}"
        return None if cls < len(self._readings) else f"hole event with unknown class {cls} for hole {hole}"

    def check_block(self, block: int) -> str | None:
        """Why an encoder event's block does not fit this board, or None when it does."""
        if 1 <= block <= self.block_count:
            return None
        return f"encoder event for block {block}, a {self.size}x{self.size} board has 1..{self.block_count}"
