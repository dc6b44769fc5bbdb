"""NeoPixel output over the Adafruit CircuitPython stack (Blinka on the Pi).

Two ways to clock the chain out of a Pi, chosen by the profile's ``leds.driver``:

- ``"pwm"``: ``neopixel.NeoPixel`` on a PWM-capable pin (BCM 18 usually); needs root.
- ``"spi"``: ``neopixel_spi.NeoPixel_SPI`` on the SPI0 bus, data on MOSI (BCM 10); no root,
  and the timing survives a busy CPU. Enable SPI in raspi-config.

Wiring: Pi data pin -> 74AHCT125 level shifter (3.3 V to 5 V) -> 330 ohm -> DIN of the first
pixel; a 5 V supply sized for the profile's current budget feeds the chain, grounds joined.

The libraries are imported inside :func:`open_strip`, so importing this module (and the whole
controller) works on any machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from .base import RGB
from .pixels import FrameProcessor, blank

if TYPE_CHECKING:
    from ..profile import LedChain


class Strip(Protocol):
    """What we use of ``adafruit_pixelbuf.PixelBuf`` (the base of both NeoPixel classes)."""

    def __setitem__(self, index: slice, value: Sequence[RGB]) -> None: ...

    def show(self) -> None: ...


class NeoPixelOutput:
    """A pixel output writing processed frames to a NeoPixel strip, only when they change.

    Wiring: see the module docstring. The strip must be created with ``brightness=1.0`` and
    ``auto_write=False``: brightness, gamma and the current budget are applied here by
    :class:`~.pixels.FrameProcessor`, and one ``show()`` sends one whole frame.
    """

    def __init__(self, strip: Strip, processor: FrameProcessor) -> None:
        self._strip = strip
        self._processor = processor
        self._last: tuple[RGB, ...] | None = None

    @classmethod
    def from_chain(cls, leds: LedChain) -> NeoPixelOutput:
        """The output for a profile's LED chain, opening the strip its driver names."""
        return cls(open_strip(leds), FrameProcessor.from_chain(leds))

    def show(self, frame: Sequence[RGB]) -> None:
        """Process ``frame`` and send it, unless the LEDs already show exactly that."""
        processed = self._processor.process(frame)
        if processed != self._last:
            self._strip[:] = processed
            self._strip.show()
            self._last = processed

    def close(self) -> None:
        """Turn the chain off and release the pin or bus."""
        self.show(blank(self._processor.length))
        deinit = getattr(self._strip, "deinit", None)
        if deinit is not None:
            deinit()


def open_strip(leds: LedChain) -> Strip:
    """The Adafruit strip object for ``leds.driver`` ("pwm" or "spi"); imports its library.

    Raises ImportError when the library is missing (the factory turns that into
    DriverUnavailable) and ValueError for a driver name it does not know.
    """
    if leds.driver == "spi":
        import board
        import neopixel_spi

        return neopixel_spi.NeoPixel_SPI(board.SPI(), leds.length, brightness=1.0,
                                         auto_write=False, pixel_order=leds.order)
    if leds.driver == "pwm":
        import board
        import neopixel

        pin = getattr(board, f"D{leds.pin}")
        return neopixel.NeoPixel(pin, leds.length, brightness=1.0, auto_write=False,
                                 pixel_order=leds.order)
    raise ValueError(f"LED driver {leds.driver!r} is not 'pwm' or 'spi'")
