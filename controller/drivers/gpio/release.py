"""Letting go of gpiozero devices so that stopping can never fail half-way."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from gpiozero import Device

log = logging.getLogger(__name__)


def release(devices: Iterable[tuple[str, Device]]) -> None:
    """Close every ``(what, device)`` in turn. One that will not close is one log line naming
    it, and the rest still close: stopping the daemon must not end in a traceback because a pin
    library refused one line."""
    for what, device in devices:
        try:
            device.close()
        except Exception as exc:  # whatever the pin library raises, the others still close
            log.warning("could not release the %s: %s: %s", what, type(exc).__name__, exc)
