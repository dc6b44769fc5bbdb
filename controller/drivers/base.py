"""The two small interfaces every hardware backend implements.

An input driver turns its hardware (GPIO pins, the serial link, the virtual board) into
:mod:`controller.events` values handed to ``emit``; it never touches game state. A pixel output
takes whole frames in chain order. Backends are built by :mod:`controller.drivers.factory` from
the hardware profile at start-up, never at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..events import InputEvent

RGB = tuple[int, int, int]
Frame = Sequence[RGB]
Emit = Callable[[InputEvent], None]


class InputDriver(Protocol):
    """Reads holes, encoders, buttons and link state; reports each change through ``emit``."""

    def start(self, emit: Emit) -> None:
        """Begin reporting. Emits the current reading of every hole first, so the core starts
        from the physical truth."""

    def stop(self) -> None:
        """Stop reporting and release the hardware. Safe to call twice."""


class PixelOutput(Protocol):
    """Shows LED frames: one RGB triple (0-255, before brightness) per pixel in chain order."""

    def show(self, frame: Frame) -> None:
        """Display ``frame`` (skipped when it equals the last one shown)."""

    def close(self) -> None:
        """Turn the LEDs off and release the hardware."""
