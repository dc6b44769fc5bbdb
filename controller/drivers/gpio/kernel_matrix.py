"""Build A's reed matrix read through the kernel's GPIO character device, asleep while the board is empty.

The wiring is :class:`.matrix.ReedMatrix`'s. The rows are one output request and the columns
one input request (:class:`.cdev.LineRequest`), so a scan of six rows is twelve ioctls: each
row driven low alone with the others high, every column read at once.

When a scan finds no switch closed, every row is driven low: then a marble dropped anywhere
pulls its column low, the kernel queues that edge, and :meth:`KernelMatrix.wait` sleeps until
it comes (or a heartbeat). With a marble down that cannot work (a second marble in a column
already low makes no edge, nor does lifting one of two), so the scan keeps its pace, and the
columns' edges are off: each would be an interrupt for nothing, a dozen per scan.
"""

from __future__ import annotations

import fcntl
import os
import select
from collections.abc import Sequence

from .cdev import GET_VALUES_IOCTL, SET_VALUES_IOCTL, VALUES, LineRequest
from .matrix import check_holes

HEARTBEAT_S = 1.0  # an empty board is scanned this often even with no edge: a lost edge costs a second at most


class KernelMatrix:
    """Rows driven, columns read, on gpiochip ``chip``: ``read()`` as :class:`.matrix.ReedMatrix`,
    and :meth:`wait` between scans."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], holes: Sequence[int], chip: int) -> None:
        check_holes(rows, columns, holes)
        width, every_row = len(columns), (1 << len(rows)) - 1
        # The ioctls' buffers made once (a scan allocates nothing but the column words): per row
        # the values that drive it alone low, and which hole each column bit is.
        self._drives = [VALUES.pack(every_row & ~(1 << r), every_row) for r in range(len(rows))]
        self._crossings = [[(1 << c, holes[r * width + c]) for c in range(width)] for r in range(len(rows))]
        self._all_low = VALUES.pack(0, every_row)
        self._get = VALUES.pack(0, (1 << width) - 1)
        self._empty_words = [VALUES.pack((1 << width) - 1, (1 << width) - 1)] * len(rows)
        self.hole_count = len(holes)
        self._words: list[bytes] = []  # each row's column values at the last scan
        self._closed: list[bool] = []
        self._watching = True  # the columns' edges queued (as requested)
        self._empty = False  # the last scan found no switch closed, and every row is low
        self._rows = LineRequest(chip, rows, outputs=every_row)
        try:
            self._columns = LineRequest(chip, columns)
        except OSError:
            self._rows.close()
            raise
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC)
        self._held = True

    def read(self) -> list[bool]:
        """One scan: True for every hole whose switch is closed, indexed by hole. When every
        row reads as at the last scan (a board at rest) it is the same list as then: callers
        must not change it."""
        ioctl, rows, columns, get = fcntl.ioctl, self._rows.fd, self._columns.fd, self._get
        words = []
        for drive in self._drives:
            ioctl(rows, SET_VALUES_IOCTL, drive)
            words.append(ioctl(columns, GET_VALUES_IOCTL, get))
        if words != self._words:
            self._words, self._closed = words, self._decode(words)
        self._empty = words == self._empty_words and self._arm()
        if not self._empty and self._watching:
            self._columns.watch(False)
            self._watching = False
        return self._closed

    def _arm(self) -> bool:
        """Every row low, the columns' edges on and the queue emptied, then True if every
        column still reads high (read last, so a marble dropped before it is seen there and one
        dropped after it is an edge)."""
        fcntl.ioctl(self._rows.fd, SET_VALUES_IOCTL, self._all_low)
        if not self._watching:
            self._columns.watch(True)
            self._watching = True
        self._columns.events()  # what is queued is past: the edge that woke this scan, older scans' own
        return fcntl.ioctl(self._columns.fd, GET_VALUES_IOCTL, self._get) == self._empty_words[0]

    def wait(self, pause_s: float) -> None:
        """Until the next scan is due: ``pause_s``, or, when the last scan found the board
        empty, until a column falls (a marble dropped anywhere) or the heartbeat. :meth:`wake`
        ends it at once."""
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        if self._empty:
            poller.register(self._columns.fd, select.POLLIN)
            pause_s = HEARTBEAT_S
        poller.poll(pause_s * 1000)

    def wake(self) -> None:
        """End the current and every later :meth:`wait` (the scan is stopping)."""
        os.write(self._wake_w, b"x")

    def _decode(self, words: list[bytes]) -> list[bool]:
        closed = [False] * self.hole_count
        for word, crossings in zip(words, self._crossings):
            levels = VALUES.unpack(word)[0]
            for bit, hole in crossings:
                closed[hole] = not levels & bit  # pulled low through a closed switch
        return closed

    def close(self) -> None:
        """Release every row and column line (a refusal is one log line). Safe to call twice."""
        if self._held:
            self._held = False
            self._rows.close()
            self._columns.close()
            os.close(self._wake_r)
            os.close(self._wake_w)
