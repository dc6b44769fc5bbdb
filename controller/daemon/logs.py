"""Structured logging: one ``key=value`` line per record on stderr, which systemd hands to the
journal (so no timestamps of our own: journald adds them; under a terminal they are added).

Log calls pass their fields as ``extra={"fields": {...}}``; :func:`event` is the short form.
"""

from __future__ import annotations

import logging
import sys

LOGGER = logging.getLogger("pentago_board")


class KeyValueFormatter(logging.Formatter):
    """``level=info msg="core started" profile=virtual-6x6`` (values quoted when they need it)."""

    def __init__(self, with_time: bool) -> None:
        super().__init__()
        self.with_time = with_time

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, object] = {"level": record.levelname.lower(), "msg": record.getMessage()}
        fields.update(getattr(record, "fields", {}))
        if record.exc_info:
            fields["error"] = self.formatException(record.exc_info).splitlines()[-1]
        line = " ".join(f"{key}={quote(value)}" for key, value in fields.items())
        return f"time={self.formatTime(record)} {line}" if self.with_time else line


def quote(value: object) -> str:
    """The value as logfmt text: bare when it has no space, quote or equals sign."""
    text = str(value)
    if text and not any(c in text for c in ' "=\n'):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def setup(under_journald: bool, level: int = logging.INFO) -> None:
    """Send our records to stderr in key=value form (idempotent)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(KeyValueFormatter(with_time=not under_journald))
    LOGGER.handlers[:] = [handler]
    LOGGER.setLevel(level)
    LOGGER.propagate = False


def event(msg: str, level: int = logging.INFO, **fields: object) -> None:
    """Log ``msg`` with ``fields`` as key=value pairs."""
    LOGGER.log(level, msg, extra={"fields": fields})
