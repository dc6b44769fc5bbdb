"""Push buttons on Pi GPIO pins: build A's, and build B's beside the serial link to the Pico."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from gpiozero import Button
from gpiozero.pins import Factory

from ...events import ButtonPress
from ..base import Emit
from .cdev import LineEdges, kernel_bank
from .release import release

Clock = Callable[[], float]
BUTTON_BOUNCE_S = 0.05  # a push button's contacts settle within this; the pin library filters the edges


class GpioButtons:
    """The profile's ``[buttons]``, each emitted as ``ButtonPress(t, name)`` when pressed.

    Wiring: each button between its pin (a BCM number) and GND, with the Pi's internal pull-up.
    On a Pi the kernel filters the contacts' bounce and reports the edges to a thread that
    sleeps while no button moves (:class:`.cdev.LineEdges`); given a ``pin_factory`` (or where
    no Pi's chip is) gpiozero's Button does both. Presses arrive on that thread (or gpiozero's event thread), so ``emit`` must be
    thread-safe (a queue's put).
    """

    def __init__(self, buttons: Mapping[str, int], *, clock: Clock = time.monotonic,
                 pin_factory: Factory | None = None) -> None:
        self._clock = clock
        self._emit: Emit | None = None
        self._names = {pin: name for name, pin in buttons.items()}
        self._buttons: dict[str, Button] = {}
        self._edges: LineEdges | None = None
        chip = kernel_bank(pin_factory) if buttons else None
        if chip is not None:
            bounce_us = int(BUTTON_BOUNCE_S * 1e6)
            self._edges = LineEdges(chip, list(self._names), debounce_us=dict.fromkeys(self._names, bounce_us))
        else:
            self._buttons = {
                name: Button(pin, pull_up=True, bounce_time=BUTTON_BOUNCE_S, pin_factory=pin_factory)
                for name, pin in buttons.items()
            }
        self._closed = False

    def start(self, emit: Emit) -> None:
        """Report presses to ``emit`` (buttons have no state to report first)."""
        self._emit = emit
        for name, button in self._buttons.items():
            button.when_pressed = self._presser(name)
        if self._edges is not None:
            self._edges.start(self._edge, name="gpio-buttons")

    def stop(self) -> None:
        """Report nothing more and release the pins. Safe to call twice."""
        self._emit = None
        if not self._closed:
            self._closed = True
            release((f"{name} button", button) for name, button in self._buttons.items())
            if self._edges is not None:
                self._edges.close()

    def _edge(self, _t: float, line: int, level: int) -> None:
        if level == 0:  # pressed: the contact pulls the pin low
            self._presser(self._names[line])()

    def _presser(self, name: str) -> Callable[[], None]:
        def press() -> None:
            emit = self._emit
            if emit is not None:
                emit(ButtonPress(self._clock(), name))
        return press
