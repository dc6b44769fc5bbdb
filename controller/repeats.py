"""A message that comes back at every retry is logged once, then counted.

A link that keeps meeting the same bad hello, a broker name that never resolves: each retry
would log the same line again, for ever, and bury everything else in the journal. A
:class:`Repeats` logs a message the first time it comes, counts it while it keeps coming, and
logs the count when a different message comes or :meth:`Repeats.clear` says the trouble is over.

>>> import logging, sys
>>> logger = logging.getLogger("example")
>>> logger.addHandler(logging.StreamHandler(sys.stdout))
>>> said = Repeats(logger)
>>> for _ in range(3):
...     _ = said.say("broker down")
broker down
>>> said.clear()
broker down (2 more times)
>>> said.repeats
0
"""

from __future__ import annotations

import logging
from typing import Any


class Repeats:
    """Logs each new message on ``logger`` at ``level``; repeats of the last one only count."""

    def __init__(self, logger: logging.Logger, level: int = logging.WARNING) -> None:
        self.logger, self.level = logger, level
        self.last: str | None = None
        self.repeats = 0  # how many times the last message came again since it was logged

    def say(self, message: str, exc_info: Any = None, **fields: Any) -> bool:
        """Log ``message`` (with the structured ``fields``, and the exception ``exc_info``)
        unless it is the last one again; True when it was logged."""
        if message == self.last:
            self.repeats += 1
            return False
        self.clear()
        self.last = message
        self.logger.log(self.level, message, exc_info=exc_info, extra={"fields": fields} if fields else None)
        return True

    def clear(self) -> None:
        """The trouble is over (or changed): log how often the last message came again."""
        if self.repeats:
            self.logger.log(self.level, f"{self.last} ({self.repeats} more times)",
                            extra={"fields": {"repeats": self.repeats}})
        self.last, self.repeats = None, 0
