"""A diode matrix of reed switches read through Pi GPIO pins with gpiozero.

Wiring (build A, as in ``hardware/profiles/A-6x6.toml``): each hole's reed switch and a 1N4148
diode in series join one row line to one column line, the diode's cathode towards the row.
Rows are outputs, idle high, driven low one at a time; columns are inputs with the Pi's
internal pull-ups. A closed switch pulls its column low only while its row is driven low; the
diodes block current from the idle (high) rows, so any number of marbles reads without ghosts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from ...errors import ProfileError
from .release import release


def check_holes(rows: Sequence[int], columns: Sequence[int], holes: Sequence[int]) -> None:
    """ProfileError unless ``holes`` names each crossing's hole exactly once."""
    if len(holes) != len(rows) * len(columns) or sorted(holes) != list(range(len(holes))):
        raise ProfileError(
            f"gpio matrix_holes {tuple(holes)} must name each of the {len(rows)} x "
            f"{len(columns)} crossings' holes exactly once"
        )


class ReedMatrix:
    """Rows driven, columns read: ``read()`` gives the contact state of every hole.

    Wiring: see the module docstring. ``holes`` holds the hole index of every (row, column)
    crossing, row-major (``r * len(columns) + c``), naming each hole once.
    """

    def __init__(
        self,
        rows: Sequence[int],
        columns: Sequence[int],
        holes: Sequence[int],
        pin_factory: Factory | None = None,
    ) -> None:
        check_holes(rows, columns, holes)
        self._holes = tuple(holes)
        # active_high=False: on() drives the row low; the pull-up columns then read active
        # (value 1) when low, i.e. when the switch at the crossing is closed.
        self._rows = [
            DigitalOutputDevice(p, active_high=False, initial_value=False, pin_factory=pin_factory)
            for p in rows
        ]
        self._columns = [DigitalInputDevice(p, pull_up=True, pin_factory=pin_factory)
                         for p in columns]

    @property
    def hole_count(self) -> int:
        return len(self._holes)

    def read(self) -> list[bool]:
        """One scan: True for every hole whose switch is closed, indexed by hole."""
        closed = [False] * len(self._holes)
        width = len(self._columns)
        for r, row in enumerate(self._rows):
            row.on()
            # gpiozero's call overhead (tens of microseconds) is longer than the line needs
            # to settle through the diode, so no extra delay before reading.
            for c, column in enumerate(self._columns):
                closed[self._holes[r * width + c]] = bool(column.value)
            row.off()
        return closed

    def wait(self, pause_s: float) -> None:
        """Until the next scan is due. A plain sleep, not Event.wait(timeout), which builds a
        Condition and a lock at every wake (a third of the scan's cost at rest at 66 wakes a
        second); so a scan that stops waits one pause at most."""
        time.sleep(pause_s)

    def wake(self) -> None:
        """Nothing to end early: :meth:`wait` is a short sleep."""

    def close(self) -> None:
        """Release every row and column pin (one that will not release is logged)."""
        release([*((f"matrix row {i + 1}", row) for i, row in enumerate(self._rows)),
                 *((f"matrix column {i + 1}", col) for i, col in enumerate(self._columns))])
