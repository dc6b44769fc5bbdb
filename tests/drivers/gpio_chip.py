"""A model of the kernel's GPIO character device with build A's diode matrix behind it: line
requests (one descriptor each, a pipe whose write end queues the request's edge events), levels
read and driven, and an edge queued on every input line whose level changes, whether a switch
moved or a row was driven. The real kernel is met in bench/pi_vm (a GPIO chip in a VM)."""

from __future__ import annotations

import fcntl
import os
import struct
import termios
from pathlib import Path

from controller.drivers.gpio import cdev


class Chip:
    """gpiochip ``number`` with ``rows`` and ``columns`` wired through switches at ``holes``
    (row-major crossings), installed into :mod:`cdev` by :meth:`install`."""

    def __init__(self, rows, columns, holes, label: str = "pinctrl-bcm2711") -> None:
        self.rows, self.columns, self.holes = list(rows), list(columns), list(holes)
        self.label = label
        self.labels: dict[str, str] = {}  # other chips' labels by device name (gpiochip4: ...)
        self.closed: set[int] = set()  # holes whose switch is closed
        self.driven: dict[int, int] = {}  # output line -> level
        self.requests: dict[int, dict] = {}  # request fd -> {lines, output, queue (write fd)}
        self.owner: dict[int, int] = {}  # line -> request fd ('Device or resource busy' twice)
        self.ioctls = 0
        self.stamp = 0

    def install(self, monkeypatch) -> Chip:
        real_open, self._real_ioctl = os.open, fcntl.ioctl
        chips: dict[int, str] = {}  # chip fd -> its device name

        def fake_open(path, flags, *args):
            if Path(path).name.startswith("gpiochip"):
                fd = real_open(os.devnull, flags)
                chips[fd] = Path(path).name
                return fd
            return real_open(path, flags, *args)

        def ioctl(fd, request, buffer):
            """As fcntl.ioctl: a bytearray is changed in place, bytes give the result back."""
            self.ioctls += 1
            data = bytearray(buffer)
            if request == cdev.GET_CHIPINFO_IOCTL and fd in chips:
                label = self.labels.get(chips[fd], self.label)
                cdev.CHIP_INFO.pack_into(data, 0, chips[fd].encode(), label.encode(), 58)
            elif request == cdev.GET_LINE_IOCTL and fd in chips:
                struct.pack_into("=i", data, 588, self._request(bytes(data)))
            elif request == cdev.GET_VALUES_IOCTL:
                _bits, mask = cdev.VALUES.unpack_from(data)
                bits = sum(self.level(line) << i for i, line in enumerate(self.requests[fd]["lines"]) if mask >> i & 1)
                cdev.VALUES.pack_into(data, 0, bits, mask)
            elif request == cdev.SET_VALUES_IOCTL:
                assert self.requests[fd]["output"], "SET_VALUES on an input request"
                bits, mask = cdev.VALUES.unpack_from(data)
                self._changing(lambda: self.driven.update(
                    {line: bits >> i & 1 for i, line in enumerate(self.requests[fd]["lines"]) if mask >> i & 1}))
            elif request == cdev.SET_CONFIG_IOCTL:
                assert not self.requests[fd]["output"], "the model reconfigures inputs only"
                self.requests[fd]["edges"] = bool(cdev.CONFIG.unpack(bytes(data))[0] & cdev.FLAG_EDGE_FALLING)
            else:
                raise AssertionError(f"ioctl {request:#x} on fd {fd}")
            if isinstance(buffer, bytearray):
                buffer[:] = data
                return 0
            return bytes(data)
        monkeypatch.setattr(cdev.os, "open", fake_open)
        monkeypatch.setattr(cdev.fcntl, "ioctl", ioctl)
        real_close = os.close

        def close(fd):
            chips.pop(fd, None)
            if fd in self.requests:
                request = self.requests.pop(fd)
                real_close(request["queue"])
                for line in request["lines"]:
                    del self.owner[line]
            real_close(fd)
        monkeypatch.setattr(cdev.os, "close", close)
        return self

    def level(self, line: int) -> int:
        """The line's level now: a driven output's, or an input's through the switches."""
        if line in self.driven:
            return self.driven[line]
        if line in self.columns:
            c, width = self.columns.index(line), len(self.columns)
            for r, row in enumerate(self.rows):
                if self.driven.get(row) == 0 and self.holes[r * width + c] in self.closed:
                    return 0
        return 1  # pulled up

    def place(self, hole: int) -> None:
        self._changing(lambda: self.closed.add(hole))

    def lift(self, hole: int) -> None:
        self._changing(lambda: self.closed.discard(hole))

    def queued(self) -> int:
        """Edge events waiting in every request's queue (bytes / event size)."""
        total = 0
        for fd in self.requests:
            count = bytearray(4)
            self._real_ioctl(fd, termios.FIONREAD, count)
            total += struct.unpack("=i", count)[0] // cdev.EVENT.size
        return total

    def _request(self, data: bytes) -> int:
        fields = cdev.REQUEST.unpack(data)
        count, flags = fields[-3], fields[cdev.LINES_MAX + 1]
        lines = list(fields[:count])
        if any(line in self.owner for line in lines):
            raise OSError(16, "Device or resource busy")
        output = bool(flags & cdev.FLAG_OUTPUT)
        read, write = os.pipe()
        self.requests[read] = {"lines": lines, "output": output, "queue": write,
                               "edges": bool(flags & cdev.FLAG_EDGE_FALLING)}
        self.owner.update(dict.fromkeys(lines, read))
        if output:
            attrs = fields[cdev.LINES_MAX + 3:cdev.LINES_MAX + 3 + 4 * cdev.ATTRS_MAX]
            for i in range(fields[cdev.LINES_MAX + 2]):
                ident, _pad, value, mask = attrs[4 * i:4 * i + 4]
                if ident == cdev.ATTR_ID_OUTPUT_VALUES:
                    self._changing(lambda: self.driven.update(
                        {line: value >> j & 1 for j, line in enumerate(lines) if mask >> j & 1}))
        return read

    def _changing(self, change) -> None:
        """Apply ``change``, then queue an edge on every watched input line it moved."""
        before = {line: self.level(line) for line in self.owner}
        change()
        for fd, request in self.requests.items():
            if request["output"] or not request["edges"]:
                continue
            for line in request["lines"]:
                now = self.level(line)
                if now != before.get(line, now):
                    self.stamp += 1
                    os.write(request["queue"], cdev.EVENT.pack(self.stamp, 1 if now else 2, line, 0, 0))
