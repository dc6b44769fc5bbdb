"""Per-hole debounce: a contact's new state counts only once it has held for ``debounce_s``.

Reed switches chatter when a marble drops or rolls; a state that flips back within the window
never becomes a reading. Pure logic with the time passed in, so tests need no clock.

>>> d = Debouncer([False, False], debounce_s=0.03)
>>> d.update(0, True, now=1.00), d.update(0, False, now=1.01), d.update(0, True, now=1.02)
(False, False, False)
>>> d.pending
1
>>> d.update(0, True, now=1.05), d.settled, d.pending
(True, [True, False], 0)
"""

from __future__ import annotations

from collections.abc import Iterable


class Debouncer:
    """The settled state of ``len(initial)`` contacts, fed raw samples with their times."""

    def __init__(self, initial: Iterable[bool], debounce_s: float) -> None:
        self.settled = list(initial)
        self.debounce_s = debounce_s
        self._candidate: list[bool | None] = [None] * len(self.settled)
        self._since = [0.0] * len(self.settled)
        self.pending = 0  # contacts whose new state is being timed

    def update(self, index: int, raw: bool, now: float) -> bool:
        """Feed one sample of contact ``index``; True when its settled state just changed."""
        if raw == self.settled[index]:
            if self._candidate[index] is not None:  # a bounce back: the clock starts again next time
                self._candidate[index] = None
                self.pending -= 1
            return False
        if raw != self._candidate[index]:
            self.pending += self._candidate[index] is None
            self._candidate[index], self._since[index] = raw, now
            return False
        if now - self._since[index] < self.debounce_s:
            return False
        self.settled[index], self._candidate[index] = raw, None
        self.pending -= 1
        return True
