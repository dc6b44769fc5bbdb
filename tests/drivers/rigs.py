"""Test helpers: a fake clock, a reed matrix wired on gpiozero's MockFactory, encoder pin
sequences, and a PixelBuf that captures what would go down the LED wire."""

from __future__ import annotations

from adafruit_pixelbuf import PixelBuf
from gpiozero.pins.mock import MockFactory, MockPin


class FakeClock:
    """A clock that moves only when told."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class RowPin(MockPin):
    """A matrix row pin: every change of its level re-evaluates the column lines."""

    def __init__(self, factory, info, wiring: MockMatrix) -> None:
        self.wiring = wiring
        super().__init__(factory, info)

    def _change_state(self, value):
        changed = super()._change_state(value)
        self.wiring.refresh()
        return changed


class MockMatrix:
    """The diode matrix of the A build in mock pins: a column is pulled low while a row driven
    low has a closed switch at their crossing. ``close``/``open`` move marbles."""

    def __init__(self, factory: MockFactory, pins) -> None:
        self.closed: set[int] = set()
        self.width = len(pins.matrix_columns)
        self.holes = pins.matrix_holes
        self.columns = [factory.pin(p) for p in pins.matrix_columns]
        self.rows = [factory.pin(p, pin_class=RowPin, wiring=self) for p in pins.matrix_rows]

    def refresh(self) -> None:
        for c, column in enumerate(self.columns):
            if column.function != "input" or column.pull != "up":
                continue  # not yet claimed by the driver
            low = any(
                row.function == "output" and not row.state
                and self.holes[r * self.width + c] in self.closed
                for r, row in enumerate(getattr(self, "rows", ()))
            )
            column.drive_low() if low else column.drive_high()

    def close(self, hole: int) -> None:
        self.closed.add(hole)

    def open(self, hole: int) -> None:
        self.closed.discard(hole)


# Pin levels of one detent (pins idle high, pulled up; a contact to GND pulls low).
# Clockwise: A falls first, then B; counter-clockwise: B first.
CLOCKWISE = (("a", 0), ("b", 0), ("a", 1), ("b", 1))
COUNTER = (("b", 0), ("a", 0), ("b", 1), ("a", 1))


def turn_encoder(factory: MockFactory, pins: tuple[int, int], steps: int) -> None:
    """Drive an encoder's two mock pins through ``steps`` detents (sign = direction)."""
    a, b = (factory.pin(p) for p in pins)
    for _ in range(abs(steps)):
        for name, level in CLOCKWISE if steps > 0 else COUNTER:
            pin = a if name == "a" else b
            pin.drive_high() if level else pin.drive_low()


class CapturingStrip(PixelBuf):
    """A NeoPixel strip whose wire is a list: ``sent`` holds each transmitted buffer."""

    def __init__(self, n: int, order: str = "GRB") -> None:
        self.sent: list[bytes] = []
        self.deinited = False
        super().__init__(n, byteorder=order, brightness=1.0, auto_write=False)

    def _transmit(self, buffer: bytearray) -> None:
        self.sent.append(bytes(buffer))

    def deinit(self) -> None:
        self.deinited = True
