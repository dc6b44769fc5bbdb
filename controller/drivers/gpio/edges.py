"""Edges of input lines from the kernel's GPIO character device, waited for without a timeout.

gpiozero's lgpio pins report edges through lgpio's alert thread, which wakes every 0.5 ms
whether or not an edge came (``ppoll`` with a 0.5 ms timeout in lgpio's lgPthAlerts.c): 2,000
wake-ups a second for as long as one encoder or button is watched, the largest cost of a Pi
board at rest. Here the lines are requested from the kernel (the gpio-cdev uAPI v2 of
``linux/gpio.h``) with edge detection, and one thread sleeps in ``poll`` until the kernel queues
an edge or :meth:`LineEdges.close` wakes it: nothing runs while nothing moves.

libgpiod's Python bindings (``gpiod`` on PyPI) would do this, but PyPI has them only as a source
package (a compiler on every Pi, a 32-bit one too), and lgpio hides the request's file
descriptor; so this module speaks the kernel's stable uAPI itself, three structures and two
ioctls.
"""

from __future__ import annotations

import fcntl
import logging
import os
import select
import struct
import threading
from collections.abc import Callable, Mapping, Sequence

log = logging.getLogger(__name__)

# linux/gpio.h, uAPI v2 (Linux 5.10 and later; Raspberry Pi OS has 6.x)
LINES_MAX, ATTRS_MAX, NAME_SIZE = 64, 10, 32
FLAG_INPUT, FLAG_EDGE_RISING, FLAG_EDGE_FALLING, FLAG_BIAS_PULL_UP = 1 << 2, 1 << 4, 1 << 5, 1 << 8
ATTR_ID_DEBOUNCE = 3
EVENT_RISING = 1
# struct gpio_v2_line_request: offsets[64], consumer[32], config {flags, num_attrs, padding[5],
# attrs[10] {attr {id, padding, union}, mask}}, num_lines, event_buffer_size, padding[5], fd
REQUEST = struct.Struct(f"={LINES_MAX}I{NAME_SIZE}sQI20x" + "IIQQ" * ATTRS_MAX + "II20xi")  # little-endian: a Pi
EVENT = struct.Struct("=QIIII24x")  # struct gpio_v2_line_event: timestamp_ns, id, offset, seqno, line_seqno
VALUES = struct.Struct("=QQ")  # struct gpio_v2_line_values: bits, mask
GET_LINE_IOCTL = 0xC000B407 | REQUEST.size << 16  # _IOWR(0xB4, 0x07, struct gpio_v2_line_request)
GET_VALUES_IOCTL = 0xC000B40E | VALUES.size << 16  # _IOWR(0xB4, 0x0E, struct gpio_v2_line_values)
Edge = Callable[[float, int, int], None]  # (kernel timestamp in time.monotonic's seconds, line, level)


def request_bytes(lines: Sequence[int], consumer: str, debounce_us: Mapping[int, int]) -> bytes:
    """The ``gpio_v2_line_request`` for ``lines`` as inputs with pull-ups and both edges, the
    kernel's debounce on the lines ``debounce_us`` names (one attribute per period)."""
    if not 0 < len(lines) <= LINES_MAX or len(set(lines)) != len(lines):
        raise ValueError(f"lines {list(lines)}: 1 to {LINES_MAX} different lines")
    periods = sorted(set(debounce_us.values()))
    if len(periods) > ATTRS_MAX:
        raise ValueError(f"{len(periods)} debounce periods: at most {ATTRS_MAX}")
    attrs: list[int] = []
    for period in periods:
        mask = sum(1 << i for i, line in enumerate(lines) if debounce_us.get(line) == period)
        attrs += [ATTR_ID_DEBOUNCE, 0, period, mask]
    attrs += [0, 0, 0, 0] * (ATTRS_MAX - len(periods))
    flags = FLAG_INPUT | FLAG_EDGE_RISING | FLAG_EDGE_FALLING | FLAG_BIAS_PULL_UP
    return REQUEST.pack(*lines, *[0] * (LINES_MAX - len(lines)), consumer.encode()[:NAME_SIZE - 1],
                        flags, len(periods), *attrs, len(lines), 0, 0)


def parse_events(data: bytes) -> list[tuple[float, int, int]]:
    """``(seconds, line, level)`` of each ``gpio_v2_line_event`` in ``data`` (a rising edge is
    level 1). The kernel stamps events with CLOCK_MONOTONIC, which is time.monotonic's clock."""
    return [(stamp / 1e9, line, 1 if kind == EVENT_RISING else 0)
            for stamp, kind, line, _seqno, _line_seqno in EVENT.iter_unpack(data[:len(data) - len(data) % EVENT.size])]


class LineEdges:
    """``lines`` of gpiochip ``chip`` claimed as inputs with pull-ups: :meth:`levels` reads
    them, :meth:`start` reports every edge from a thread that sleeps until one comes."""

    def __init__(self, chip: int, lines: Sequence[int], *, debounce_us: Mapping[int, int] | None = None,
                 consumer: str = "pentago-board") -> None:
        self.lines = list(lines)
        request = bytearray(request_bytes(self.lines, consumer, debounce_us or {}))
        chip_fd = os.open(f"/dev/gpiochip{chip}", os.O_RDWR | os.O_CLOEXEC)
        try:
            fcntl.ioctl(chip_fd, GET_LINE_IOCTL, request)
        finally:
            os.close(chip_fd)  # the request's own descriptor holds the lines
        self._fd: int | None = REQUEST.unpack(request)[-1]
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC)
        self._thread: threading.Thread | None = None

    def levels(self) -> dict[int, int]:
        """Every line's level now (1 high, 0 low)."""
        assert self._fd is not None, "the lines are released"
        values = bytearray(VALUES.pack(0, (1 << len(self.lines)) - 1))
        fcntl.ioctl(self._fd, GET_VALUES_IOCTL, values)
        bits = VALUES.unpack(values)[0]
        return {line: bits >> i & 1 for i, line in enumerate(self.lines)}

    def start(self, on_edge: Edge, name: str = "gpio-edges") -> None:
        """Call ``on_edge(t, line, level)`` for every edge, in order, on a thread of its own."""
        self._thread = threading.Thread(target=self._wait, args=(on_edge,), name=name, daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop reporting and release the lines (a refusal is one log line). Safe to call twice."""
        if self._thread is not None:
            os.write(self._wake_w, b"x")
            self._thread.join()
            self._thread = None
        fd, self._fd = self._fd, None
        if fd is not None:
            for each in (fd, self._wake_r, self._wake_w):
                try:
                    os.close(each)
                except OSError as exc:
                    log.warning("could not release GPIO lines %s: %s", self.lines, exc)

    def _wait(self, on_edge: Edge) -> None:
        request = self._fd
        assert request is not None, "the lines are released"
        poller = select.poll()
        poller.register(request, select.POLLIN)
        poller.register(self._wake_r, select.POLLIN)
        while True:
            ready = {fd for fd, _ in poller.poll()}  # no timeout: asleep until an edge or close
            if self._wake_r in ready:
                return
            try:
                events = parse_events(os.read(request, 16 * EVENT.size))
            except OSError as exc:
                log.warning("reading GPIO edges failed: %s", exc)
                continue
            for t, line, level in events:
                try:
                    on_edge(t, line, level)
                except Exception:  # one bad callback must not stop the edges for good
                    log.exception("GPIO edge callback failed")


def lgpio_chip(factory: object) -> int | None:
    """The gpiochip behind gpiozero's pins when they are lgpio's (a kernel chip, whose lines
    this module and lgpio's group calls can request), else None (MockFactory, other libraries)."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:  # no lgpio
        return None
    return factory.chip if isinstance(factory, LGPIOFactory) else None


def pin_factory(factory: object | None) -> object:
    """``factory``, or gpiozero's default one (made now if no device made it yet)."""
    if factory is not None:
        return factory
    from gpiozero import Device

    Device.ensure_pin_factory()
    return Device.pin_factory
