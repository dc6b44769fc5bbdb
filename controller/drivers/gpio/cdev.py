"""Pi GPIO through the kernel's GPIO character device: lines requested, read, driven, and their
edges waited for without a timeout.

Through lgpio (gpiozero's pin library on a Pi), a board at rest cost most of a core's time under
emulation: lgpio's alert thread wakes every 0.5 ms while any line has a callback (``ppoll`` with
a 0.5 ms timeout in lgPthAlerts.c), and its tx thread, started by ``gpiochip_open``, fifty times
a second for as long as the process lives (lgPthTx.c). Here the lines are requested from the
kernel (the gpio-cdev uAPI v2 of ``linux/gpio.h``): inputs with edge detection, whose thread
sleeps in ``poll`` until the kernel queues an edge, and outputs driven a group at a time; nothing
runs while nothing moves. Every input of build A goes this way (matrix, encoders, buttons).

libgpiod's Python bindings (``gpiod`` on PyPI) would do this, but PyPI has them only as a source
package (a compiler on every Pi, a 32-bit one too); so this module speaks the kernel's stable
uAPI itself, five structures and five ioctls.
"""

from __future__ import annotations

import fcntl
import logging
import os
import select
import struct
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

# linux/gpio.h, uAPI v2 (Linux 5.10 and later; Raspberry Pi OS has 6.x)
LINES_MAX, ATTRS_MAX, NAME_SIZE = 64, 10, 32
FLAG_INPUT, FLAG_OUTPUT, FLAG_EDGE_RISING, FLAG_EDGE_FALLING = 1 << 2, 1 << 3, 1 << 4, 1 << 5
FLAG_BIAS_PULL_UP = 1 << 8
ATTR_ID_OUTPUT_VALUES, ATTR_ID_DEBOUNCE = 2, 3
EVENT_RISING = 1
# struct gpio_v2_line_config: flags, num_attrs, padding[5], attrs[10] {attr {id, padding, union}, mask}
CONFIG_FORMAT = "QI20x" + "IIQQ" * ATTRS_MAX
CONFIG = struct.Struct("=" + CONFIG_FORMAT)  # little-endian: a Pi
# struct gpio_v2_line_request: offsets[64], consumer[32], config, num_lines, event_buffer_size, padding[5], fd
REQUEST = struct.Struct(f"={LINES_MAX}I{NAME_SIZE}s{CONFIG_FORMAT}II20xi")
EVENT = struct.Struct("=QIIII24x")  # struct gpio_v2_line_event: timestamp_ns, id, offset, seqno, line_seqno
VALUES = struct.Struct("=QQ")  # struct gpio_v2_line_values: bits, mask
CHIP_INFO = struct.Struct(f"={NAME_SIZE}s{NAME_SIZE}sI")  # struct gpiochip_info: name, label, lines
GET_CHIPINFO_IOCTL = 0x8000B401 | CHIP_INFO.size << 16  # _IOR(0xB4, 0x01, struct gpiochip_info)
GET_LINE_IOCTL = 0xC000B407 | REQUEST.size << 16  # _IOWR(0xB4, 0x07, struct gpio_v2_line_request)
GET_VALUES_IOCTL = 0xC000B40E | VALUES.size << 16  # _IOWR(0xB4, 0x0E, struct gpio_v2_line_values)
SET_VALUES_IOCTL = 0xC000B40F | VALUES.size << 16  # _IOWR(0xB4, 0x0F, struct gpio_v2_line_values)
SET_CONFIG_IOCTL = 0xC000B40D | CONFIG.size << 16  # _IOWR(0xB4, 0x0D, struct gpio_v2_line_config)
# The chips that carry the Pi's 40-pin header, line N being BCM GPIO N, by their kernel labels:
# Pi 1 to 3 and the Zeros, Pi 4 and 400, Pi 5 (RP1).
PI_BANKS = ("pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1")
Edge = Callable[[float, int, int], None]  # (kernel timestamp in time.monotonic's seconds, line, level)


def request_bytes(lines: Sequence[int], consumer: str, debounce_us: Mapping[int, int],
                  outputs: int | None = None) -> bytes:
    """The ``gpio_v2_line_request`` for ``lines``: inputs with pull-ups and both edges, the
    kernel's debounce on the lines ``debounce_us`` names (one attribute per period); or, given
    ``outputs``, outputs starting at its levels (bit i for ``lines[i]``)."""
    if not 0 < len(lines) <= LINES_MAX or len(set(lines)) != len(lines):
        raise ValueError(f"lines {list(lines)}: 1 to {LINES_MAX} different lines")
    return REQUEST.pack(*lines, *[0] * (LINES_MAX - len(lines)), consumer.encode()[:NAME_SIZE - 1],
                        *_config(lines, debounce_us, outputs, edges=True), len(lines), 0, 0)


def config_bytes(lines: Sequence[int], debounce_us: Mapping[int, int], edges: bool) -> bytes:
    """The ``gpio_v2_line_config`` that keeps input ``lines`` as requested, their edges
    queued or not."""
    return CONFIG.pack(*_config(lines, debounce_us, None, edges))


def _config(lines: Sequence[int], debounce_us: Mapping[int, int], outputs: int | None,
            edges: bool) -> list[int]:
    """``struct gpio_v2_line_config``'s fields: flags, the attribute count, the attributes."""
    periods = sorted(set(debounce_us.values()))
    if len(periods) > ATTRS_MAX:
        raise ValueError(f"{len(periods)} debounce periods: at most {ATTRS_MAX}")
    attrs: list[int] = []
    for period in periods:
        mask = sum(1 << i for i, line in enumerate(lines) if debounce_us.get(line) == period)
        attrs += [ATTR_ID_DEBOUNCE, 0, period, mask]
    if outputs is None:
        flags = FLAG_INPUT | FLAG_BIAS_PULL_UP | (FLAG_EDGE_RISING | FLAG_EDGE_FALLING if edges else 0)
    else:
        flags = FLAG_OUTPUT
        attrs += [ATTR_ID_OUTPUT_VALUES, 0, outputs, (1 << len(lines)) - 1]
    count = len(attrs) // 4
    return [flags, count, *attrs, *[0, 0, 0, 0] * (ATTRS_MAX - count)]


def parse_events(data: bytes) -> list[tuple[float, int, int]]:
    """``(seconds, line, level)`` of each ``gpio_v2_line_event`` in ``data`` (a rising edge is
    level 1). The kernel stamps events with CLOCK_MONOTONIC, which is time.monotonic's clock."""
    return [(stamp / 1e9, line, 1 if kind == EVENT_RISING else 0)
            for stamp, kind, line, _seqno, _line_seqno in EVENT.iter_unpack(data[:len(data) - len(data) % EVENT.size])]


def chip_labels(dev: Path = Path("/dev")) -> Iterator[tuple[int, str]]:
    """``(number, kernel label)`` of each gpiochip in ``dev``, by number, read as they are
    asked for (a node that is no GPIO chip is passed over). A chip this user may not open is an
    OSError naming it (the gpio group gives the right)."""
    for path in sorted(dev.glob("gpiochip*"), key=lambda path: int(path.name[8:] or -1)):
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            info = bytearray(CHIP_INFO.size)
            fcntl.ioctl(fd, GET_CHIPINFO_IOCTL, info)
        except OSError:
            continue  # not a GPIO chip after all
        finally:
            os.close(fd)
        yield int(path.name[8:]), CHIP_INFO.unpack(info)[1].rstrip(b"\0").decode(errors="replace")


def pi_bank(dev: Path = Path("/dev")) -> int | None:
    """The number of the gpiochip that carries the Pi's header (the first labelled as
    :data:`PI_BANKS` says), or None on a machine without one. A chip this user may not open
    before it is an OSError naming it (the gpio group gives the right)."""
    return next((number for number, label in chip_labels(dev) if label in PI_BANKS), None)


def kernel_bank(pin_factory: object | None) -> int | None:
    """The chip the lines are requested from, or None to go through gpiozero: gpiozero when a
    pin factory is given (the tests' MockFactory) or ``GPIOZERO_PIN_FACTORY`` names one, and on
    a machine without the Pi's bank (where gpiozero's own search says why it finds no pins)."""
    if pin_factory is not None or os.environ.get("GPIOZERO_PIN_FACTORY"):
        return None
    return pi_bank()


class LineRequest:
    """``lines`` of gpiochip ``chip``, held until :meth:`close`: inputs with pull-ups whose
    edges the kernel queues (:meth:`events`), or, given ``outputs``, outputs starting at those
    levels (bit i for ``lines[i]``) and driven with :meth:`drive`."""

    def __init__(self, chip: int, lines: Sequence[int], *, debounce_us: Mapping[int, int] | None = None,
                 outputs: int | None = None, consumer: str = "pentago-board") -> None:
        self.lines = list(lines)
        self._debounce_us = dict(debounce_us or {})
        request = bytearray(request_bytes(self.lines, consumer, self._debounce_us, outputs))
        chip_fd = os.open(f"/dev/gpiochip{chip}", os.O_RDWR | os.O_CLOEXEC)
        try:
            fcntl.ioctl(chip_fd, GET_LINE_IOCTL, request)
        finally:
            os.close(chip_fd)  # the request's own descriptor holds the lines
        self.fd: int | None = REQUEST.unpack(request)[-1]
        os.set_blocking(self.fd, False)  # events() takes what is queued and never waits
        self._mask = (1 << len(self.lines)) - 1
        self._values = bytearray(VALUES.size)  # one buffer for every read and drive: no allocation per call

    def bits(self) -> int:
        """Every line's level now, bit i for ``lines[i]`` (1 high)."""
        values = self._values
        VALUES.pack_into(values, 0, 0, self._mask)
        fcntl.ioctl(self.fd, GET_VALUES_IOCTL, values)
        return VALUES.unpack_from(values)[0]

    def levels(self) -> dict[int, int]:
        """Every line's level now (1 high, 0 low)."""
        bits = self.bits()
        return {line: bits >> i & 1 for i, line in enumerate(self.lines)}

    def drive(self, bits: int) -> None:
        """Set every output line at once: bit i for ``lines[i]``."""
        values = self._values
        VALUES.pack_into(values, 0, bits, self._mask)
        fcntl.ioctl(self.fd, SET_VALUES_IOCTL, values)

    def watch(self, edges: bool) -> None:
        """Have the kernel queue the input lines' edges from now on, or stop queuing them
        (each edge is an interrupt: a matrix scan's own edges are work for nothing)."""
        fcntl.ioctl(self.fd, SET_CONFIG_IOCTL, config_bytes(self.lines, self._debounce_us, edges))

    def events(self) -> list[tuple[float, int, int]]:
        """The edges the kernel has queued since the last call, oldest first (none: [])."""
        data = b""
        while True:
            try:
                chunk = os.read(self.fd, 16 * EVENT.size)
            except BlockingIOError:
                return parse_events(data)
            if not chunk:
                return parse_events(data)
            data += chunk

    def close(self) -> None:
        """Release the lines (a refusal is one log line). Safe to call twice."""
        fd, self.fd = self.fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError as exc:
                log.warning("could not release GPIO lines %s: %s", self.lines, exc)


class LineEdges(LineRequest):
    """Input lines whose every edge :meth:`start` reports from a thread that sleeps until one
    comes (or :meth:`close` wakes it)."""

    def __init__(self, chip: int, lines: Sequence[int], *, debounce_us: Mapping[int, int] | None = None,
                 consumer: str = "pentago-board") -> None:
        super().__init__(chip, lines, debounce_us=debounce_us, consumer=consumer)
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC)
        self._thread: threading.Thread | None = None

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
        if self.fd is not None:
            os.close(self._wake_r)
            os.close(self._wake_w)
        super().close()

    def _wait(self, on_edge: Edge) -> None:
        assert self.fd is not None, "the lines are released"
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        poller.register(self._wake_r, select.POLLIN)
        while True:
            ready = {fd for fd, _ in poller.poll()}  # no timeout: asleep until an edge or close
            if self._wake_r in ready:
                return
            try:
                events = self.events()
            except OSError as exc:
                log.warning("reading GPIO edges failed: %s", exc)
                continue
            for t, line, level in events:
                try:
                    on_edge(t, line, level)
                except Exception:  # one bad callback must not stop the edges for good
                    log.exception("GPIO edge callback failed")
