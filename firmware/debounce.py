"""Per-hole deferred debounce: a new class is accepted only after it has held long enough.

Marbles roll, bounce and get slid across holes, so a single scan proves nothing. A hole's
reported (stable) class changes only after the same new class was seen in ``hold_scans``
consecutive scans spanning at least ``hold_ms`` milliseconds. Both conditions, because a fast
scan loop would pass a scan count in a few milliseconds and a slow one (busy link) would pass a
time with a single reading. A different reading in between restarts the wait.

While a hole is unsettled (its block is turning) nothing is accepted, but the wait goes on: the
marbles land on their new holes at the block's last detent, and once the block counts as still
(encoders.py, ``quiet_ms`` later) a class that has held since then is accepted at once instead of
starting to wait only then (the Pi hears a twist's marbles ``quiet_ms`` after the last edge, not
``quiet_ms + hold_ms``). Garbage read while the block turns keeps restarting the wait, so only
what the holes read after the marbles stopped counts.

Example::

    d = Debouncer(36, hold_scans=3, hold_ms=30)
    d.update(5, NORTH, now_ms)    # True on the call that accepts the change
    d.stable[5]                   # the class reported to the Pi
"""

from compat import ticks_diff


class Debouncer:
    """Stable and candidate classes for ``hole_count`` holes; times are ticks_ms values."""

    def __init__(self, hole_count, initial, hold_scans=3, hold_ms=20):
        if hold_scans < 1 or hold_ms < 0:
            raise ValueError("debounce needs hold_scans >= 1 and hold_ms >= 0, got %r, %r"
                             % (hold_scans, hold_ms))
        self.hold_scans = hold_scans
        self.hold_ms = hold_ms
        self.stable = [initial] * hole_count
        self._candidate = [initial] * hole_count
        self._seen = [0] * hole_count
        self._since_ms = [0] * hole_count
        self._pending = []   # holes whose last class differs from their stable one

    def update(self, hole, cls, now_ms, unsettled=False):
        """Feed this scan's class of ``hole``; True when its stable class changed now."""
        if cls == self.stable[hole]:
            self._candidate[hole] = cls
            self._seen[hole] = 0
            return False
        if cls != self._candidate[hole] or self._seen[hole] == 0:
            self._candidate[hole] = cls
            self._seen[hole] = 1
            self._since_ms[hole] = now_ms
        else:
            self._seen[hole] += 1
        if not unsettled and self._seen[hole] >= self.hold_scans and \
                ticks_diff(now_ms, self._since_ms[hole]) >= self.hold_ms:
            self.stable[hole] = cls
            self._seen[hole] = 0
            return True
        return False

    def update_all(self, classes, now_ms, unsettled, touched, changed):
        """``update`` the holes that need it after a scan: those in ``touched`` (their class
        changed this scan) and those still reading other than their stable class. Appends the
        holes whose stable class changed to ``changed``. A quiet board costs nothing per hole."""
        stable = self.stable
        for hole in touched:
            if hole not in self._pending:
                self._pending.append(hole)
        for hole in self._pending:
            if self.update(hole, classes[hole], now_ms, unsettled[hole]):
                changed.append(hole)
        self._pending = [h for h in self._pending if classes[h] != stable[h]]

    def force(self, hole, cls):
        """Set a hole's stable class without waiting (after a calibration, say)."""
        self.stable[hole] = cls
        self._candidate[hole] = cls
        self._seen[hole] = 0
        if hole in self._pending:
            self._pending.remove(hole)
