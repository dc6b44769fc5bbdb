"""Build A's block encoders: two quadrature contacts per block, counted into signed detents.

On a Pi the contacts' edges come from the kernel's GPIO chip through :class:`.cdev.LineEdges`,
whose thread sleeps while no block turns; elsewhere (gpiozero's pin libraries, its MockFactory)
through gpiozero's RotaryEncoder. Both count with RotaryEncoder's
state table, so a block turns the same number of detents either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gpiozero import RotaryEncoder
from gpiozero.pins import Factory

from .cdev import LineEdges
from .release import release

Step = Callable[[int, int], None]  # (block from 1, +1 clockwise or -1)


class Quadrature:
    """One encoder's contact levels in, +1 or -1 out at each full detent, as RotaryEncoder
    counts (its table lets the contacts wiggle between the intermediate states).

    ``a`` and ``b`` are the pins' levels; a contact pulls its pin low, which RotaryEncoder's
    pulled-up inputs read as active (value 1)."""

    def __init__(self, a: int, b: int) -> None:
        self._state, self._edge = "idle", (1 - a) << 1 | (1 - b)

    def change(self, contact: str, level: int) -> int:
        """The step a new ``level`` of contact ``"a"`` or ``"b"`` completes (0 for none)."""
        bit = 2 if contact == "a" else 1
        self._edge = self._edge & ~bit | (bit if level == 0 else 0)
        new = RotaryEncoder.TRANSITIONS[self._state][self._edge]
        if new in ("+1", "-1"):
            self._state = "idle"
            return int(new)
        self._state = new
        return 0


class KernelEncoders:
    """Every block's encoder on gpiochip ``chip``, each pair ``(a, b)`` in block order."""

    def __init__(self, chip: int, pairs: Sequence[tuple[int, int]]) -> None:
        self._edges = LineEdges(chip, [pin for pair in pairs for pin in pair])
        levels = self._edges.levels()
        self._decoders = [Quadrature(levels[a], levels[b]) for a, b in pairs]
        self._contacts = {pin: (block, contact) for block, pair in enumerate(pairs)
                          for contact, pin in zip("ab", pair)}

    def start(self, on_step: Step) -> None:
        def edge(_t: float, line: int, level: int) -> None:
            block, contact = self._contacts[line]
            step = self._decoders[block].change(contact, level)
            if step:
                on_step(block + 1, step)
        self._edges.start(edge, name="gpio-encoders")

    def close(self) -> None:
        self._edges.close()


class GpiozeroEncoders:
    """The same through gpiozero's RotaryEncoder, one per block (``devices``)."""

    def __init__(self, pairs: Sequence[tuple[int, int]], factory: Factory | None) -> None:
        self.devices = [RotaryEncoder(a, b, max_steps=0, pin_factory=factory) for a, b in pairs]

    def start(self, on_step: Step) -> None:
        for block, encoder in enumerate(self.devices, start=1):
            encoder.when_rotated_clockwise = lambda block=block: on_step(block, +1)
            encoder.when_rotated_counter_clockwise = lambda block=block: on_step(block, -1)

    def close(self) -> None:
        release((f"block {block} encoder", encoder) for block, encoder in enumerate(self.devices, start=1))
