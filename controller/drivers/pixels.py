"""Frame processing shared by every LED output: validation, brightness cap, gamma, current budget.

Scenes hand an output one ``(r, g, b)`` per chain pixel at full scale (0-255). Before the bytes
reach the LEDs every output runs them through :class:`FrameProcessor`:

1. the brightness cap scales each channel (``brightness_cap`` 0..1 from the profile);
2. gamma correction maps the capped value to the PWM duty the eye sees as that level, so the
   cap acts as a perceptual brightness;
3. the current budget: when the estimated draw (sum of channel values / 255 * ``ma_per_channel``)
   exceeds ``current_budget_ma`` the whole frame is scaled down, keeping the hues, so the supply
   is never overloaded.

Pixel byte order (GRB and friends) is the LED library's job; chain order is the frame's order.

>>> p = FrameProcessor(length=2, brightness_cap=1.0, gamma=1.0)
>>> p.process([(255, 0, 0), (0, 0, 10)])
((255, 0, 0), (0, 0, 10))
>>> FrameProcessor(length=1, current_budget_ma=30, ma_per_channel=20, gamma=1.0).process([(255, 255, 255)])
((127, 127, 127),)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import PentagoError
from .base import RGB

if TYPE_CHECKING:
    from ..profile import LedChain

OFF: RGB = (0, 0, 0)
DEFAULT_GAMMA = 2.2


def white_at_cap_ma(leds: LedChain) -> float:
    """What the chain draws with every pixel white at the brightness cap, as the pixel output
    shows it (the cap goes through gamma: 0.3 is 7 % of full current), before any budget: the
    one figure the profile command and the hardware docs' power budget quote.

    >>> from controller.profile import load_profile
    >>> round(white_at_cap_ma(load_profile("A-6x6").leds))
    335
    """
    output = FrameProcessor(leds.length, leds.brightness_cap, ma_per_channel=leds.ma_per_channel)
    return output.draw_ma(output.process([(255, 255, 255)] * leds.length))


class FrameError(PentagoError, ValueError):
    """A frame that is not one (r, g, b) triple of 0-255 integers per chain pixel."""


def check_frame(frame: Sequence[Sequence[int]], length: int) -> tuple[RGB, ...]:
    """``frame`` as a tuple of RGB triples; raises FrameError naming the bad pixel and value."""
    if len(frame) != length:
        raise FrameError(f"frame has {len(frame)} pixels, the LED chain has {length}")
    return tuple(_check_pixel(i, pixel) for i, pixel in enumerate(frame))


def _check_pixel(index: int, pixel: Sequence[int]) -> RGB:
    if len(pixel) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in pixel):
        raise FrameError(f"pixel {index} is {pixel!r}, expected (r, g, b) with each 0-255")
    r, g, b = pixel
    return (r, g, b)


def blank(length: int) -> tuple[RGB, ...]:
    """A frame with every pixel off."""
    return (OFF,) * length


@dataclass(frozen=True)
class FrameProcessor:
    """Turns full-scale frames into what the LEDs may show (cap, gamma, current budget)."""

    length: int
    brightness_cap: float = 1.0
    gamma: float = DEFAULT_GAMMA
    current_budget_ma: float = math.inf
    ma_per_channel: float = 20.0
    _table: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.brightness_cap <= 1.0:
            raise FrameError(f"brightness_cap {self.brightness_cap} is not between 0 and 1")
        if self.current_budget_ma <= 0 or self.ma_per_channel < 0:
            raise FrameError(
                f"current_budget_ma {self.current_budget_ma} must be positive and "
                f"ma_per_channel {self.ma_per_channel} not negative"
            )
        # One lookup per channel value: cap and gamma folded into a 256-entry table.
        table = tuple(
            round(255 * (v * self.brightness_cap / 255) ** self.gamma) for v in range(256)
        )
        object.__setattr__(self, "_table", table)

    @classmethod
    def from_chain(cls, leds: LedChain, gamma: float = DEFAULT_GAMMA) -> FrameProcessor:
        """The processor for a profile's LED chain."""
        return cls(
            length=leds.length,
            brightness_cap=leds.brightness_cap,
            gamma=gamma,
            current_budget_ma=leds.current_budget_ma,
            ma_per_channel=leds.ma_per_channel,
        )

    def process(self, frame: Sequence[Sequence[int]]) -> tuple[RGB, ...]:
        """The frame the LEDs get: checked, capped, gamma-corrected and within the budget."""
        table = self._table
        corrected = tuple(
            (table[r], table[g], table[b]) for r, g, b in check_frame(frame, self.length)
        )
        return self.within_budget(corrected)

    def draw_ma(self, frame: Sequence[RGB]) -> float:
        """Estimated current of ``frame`` in mA (LED channels only, not the idle draw)."""
        return sum(sum(pixel) for pixel in frame) / 255 * self.ma_per_channel

    def within_budget(self, frame: tuple[RGB, ...]) -> tuple[RGB, ...]:
        """``frame`` scaled down as a whole if it would draw more than the budget."""
        draw = self.draw_ma(frame)
        if draw <= self.current_budget_ma:
            return frame
        scale = self.current_budget_ma / draw
        # Rounding down keeps the scaled frame at or under the budget.
        return tuple((int(r * scale), int(g * scale), int(b * scale)) for r, g, b in frame)
