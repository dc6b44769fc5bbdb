"""Several input drivers read as one board (build B: the serial link to the Pico, and the
push buttons on the Pi's own pins)."""

from __future__ import annotations

from .base import Emit, InputDriver


class InputGroup:
    """Starts its drivers in order, all emitting to one ``emit``; stops them in reverse order.

    >>> from controller.drivers.virtual import VirtualBoard
    >>> events = []
    >>> group = InputGroup(VirtualBoard(6, buttons=()), VirtualBoard(6, buttons=("ok",)))
    >>> group.start(events.append)
    >>> group.drivers[1].press("ok"); events[-1].button
    'ok'
    >>> group.stop()
    """

    def __init__(self, *drivers: InputDriver) -> None:
        self.drivers = drivers

    def start(self, emit: Emit) -> None:
        """Start every driver; if one fails, those already started are stopped again."""
        started: list[InputDriver] = []
        try:
            for driver in self.drivers:
                driver.start(emit)
                started.append(driver)
        except BaseException:
            for driver in reversed(started):
                driver.stop()
            raise

    def stop(self) -> None:
        """Stop every driver, the last started first. Safe to call twice."""
        for driver in reversed(self.drivers):
            driver.stop()
