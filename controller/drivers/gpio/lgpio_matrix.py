"""Build A's reed matrix read through lgpio's group calls, when gpiozero's pins are lgpio's.

The wiring is :class:`.matrix.ReedMatrix`'s. gpiozero reads one pin per call, so a scan of six
rows and six columns is 84 calls (each row on, six reads, off); lgpio drives every row in one
call and reads every column in one, so the same scan is 13 calls. On Pi GPIO each call is a
system call plus Python around it: this is what keeps a build-A board at rest off the CPU.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import lgpio

from .matrix import check_holes

log = logging.getLogger(__name__)


class LgpioMatrix:
    """Rows driven, columns read, on gpiochip ``chip``: ``read()`` as :class:`.matrix.ReedMatrix`.

    Claims the row lines as one output group (idle high) and the column lines as one input group
    with pull-ups, on a handle of its own; :meth:`close` closes that handle, which releases
    every line at once.
    """

    def __init__(self, rows: Sequence[int], columns: Sequence[int], holes: Sequence[int], chip: int) -> None:
        check_holes(rows, columns, holes)
        self._rows, self._columns = list(rows), list(columns)
        width = len(columns)
        self._idle = (1 << len(rows)) - 1
        # per row: the group bits that drive it alone low, and which hole each column bit is
        self._scan = [(self._idle & ~(1 << r), [(1 << c, holes[r * width + c]) for c in range(width)])
                      for r in range(len(rows))]
        self.hole_count = len(holes)
        self._words: list[int] = []  # each row's column levels at the last scan
        self._closed: list[bool] = []
        self._handle: int | None = lgpio.gpiochip_open(chip)
        try:
            lgpio.group_claim_output(self._handle, self._rows, [1] * len(self._rows))
            lgpio.group_claim_input(self._handle, self._columns, lgpio.SET_PULL_UP)
        except lgpio.error:
            self.close()
            raise

    def read(self) -> list[bool]:
        """One scan: True for every hole whose switch is closed, indexed by hole. When every
        row reads as at the last scan (a board at rest) it is the same list as then: callers
        must not change it."""
        handle, rows, columns = self._handle, self._rows[0], self._columns[0]
        words = []
        for drive, _crossings in self._scan:
            lgpio.group_write(handle, rows, drive)
            words.append(lgpio.group_read(handle, columns)[1])
        lgpio.group_write(handle, rows, self._idle)
        if words != self._words:
            self._words, self._closed = words, self._decode(words)
        return self._closed

    def _decode(self, words: list[int]) -> list[bool]:
        closed = [False] * self.hole_count
        for levels, (_drive, crossings) in zip(words, self._scan):
            for bit, hole in crossings:
                closed[hole] = not levels & bit  # pulled low through a closed switch
        return closed

    def close(self) -> None:
        """Release every row and column line (a refusal is one log line). Safe to call twice."""
        handle, self._handle = self._handle, None
        if handle is not None:
            try:
                lgpio.gpiochip_close(handle)
            except lgpio.error as exc:
                log.warning("could not release the matrix lines: %s", exc)
