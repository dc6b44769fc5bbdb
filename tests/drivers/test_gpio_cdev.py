"""Edges from the kernel's GPIO character device (drivers/gpio/cdev.py) and the encoders and
buttons read through them: the uAPI's layout, the waiting thread (on a pipe standing in for the
kernel's request descriptor), and the quadrature count against gpiozero's RotaryEncoder.

The real kernel is met in bench/pi_vm (a kernel GPIO chip in a VM): this machine has none."""

from __future__ import annotations

import os
import queue
import random
import struct

import pytest
from gpiozero import RotaryEncoder

from controller.drivers.gpio import cdev
from controller.drivers.gpio.buttons import GpioButtons
from controller.drivers.gpio.encoders import KernelEncoders, Quadrature
from controller.events import ButtonPress

from .rigs import CLOCKWISE, COUNTER


def test_the_request_has_the_kernels_layout():
    # sizes and ioctl numbers as linux/gpio.h makes them (gcc: sizeof, GPIO_V2_GET_LINE_IOCTL)
    assert (cdev.REQUEST.size, cdev.EVENT.size) == (592, 48)
    assert (cdev.GET_LINE_IOCTL, cdev.GET_VALUES_IOCTL) == (0xC250B407, 0xC010B40E)
    data = cdev.request_bytes([17, 5, 6], "pentago-board", {5: 50_000, 6: 50_000})
    assert struct.unpack_from("=3I", data, 0) == (17, 5, 6)
    assert data[256:270] == b"pentago-board\0"
    flags, attrs = struct.unpack_from("=QI", data, 288)
    assert flags == cdev.FLAG_INPUT | cdev.FLAG_EDGE_RISING | cdev.FLAG_EDGE_FALLING | cdev.FLAG_BIAS_PULL_UP
    # one debounce attribute, on the request's lines 1 and 2 (GPIO5 and GPIO6), not GPIO17
    assert attrs == 1 and struct.unpack_from("=IIQQ", data, 320) == (cdev.ATTR_ID_DEBOUNCE, 0, 50_000, 0b110)
    assert struct.unpack_from("=I", data, 560) == (3,)


@pytest.mark.parametrize("lines", [[], [3, 3], list(range(65))])
def test_a_request_the_kernel_would_refuse_is_refused_first(lines):
    with pytest.raises(ValueError, match="different lines"):
        cdev.request_bytes(lines, "x", {})


def test_events_become_seconds_lines_and_levels():
    data = (cdev.EVENT.pack(1_500_000_000, 1, 22, 1, 1) + cdev.EVENT.pack(1_502_000_000, 2, 27, 2, 1)
            + b"\0" * 7)  # a torn record is left for the next read
    assert cdev.parse_events(data) == [(1.5, 22, 1), (1.502, 27, 0)]


class FakeKernel:
    """The chip device and its ioctls, with a pipe as the request's descriptor: writing a
    packed gpio_v2_line_event to ``events`` is the kernel queuing an edge."""

    def __init__(self, monkeypatch, levels: int = 0) -> None:
        self.requests: list[bytes] = []
        self.levels = levels
        read, self.events = os.pipe()
        self.fd = read

        def ioctl(fd, request, buffer):
            if request == cdev.GET_LINE_IOCTL:
                self.requests.append(bytes(buffer))
                struct.pack_into("=i", buffer, 588, self.fd)
            else:
                assert request == cdev.GET_VALUES_IOCTL and fd == self.fd
                struct.pack_into("=Q", buffer, 0, self.levels)
            return 0
        real_open = os.open
        monkeypatch.setattr(cdev.fcntl, "ioctl", ioctl)
        monkeypatch.setattr(cdev.os, "open", lambda path, flags, *a: real_open(os.devnull, flags)
                            if path.startswith("/dev/gpiochip") else real_open(path, flags, *a))

    def edge(self, line: int, level: int, t: float = 1.0) -> None:
        os.write(self.events, cdev.EVENT.pack(int(t * 1e9), 1 if level else 2, line, 0, 0))


def test_edges_arrive_in_order_on_their_thread_and_close_stops_it(monkeypatch):
    kernel = FakeKernel(monkeypatch, levels=0b10)
    lines = cdev.LineEdges(0, [22, 27])
    assert lines.levels() == {22: 0, 27: 1}
    got: queue.Queue = queue.Queue()
    lines.start(lambda t, line, level: got.put((t, line, level)))
    kernel.edge(22, 0, 2.0)
    kernel.edge(27, 1, 2.5)
    assert [got.get(timeout=5), got.get(timeout=5)] == [(2.0, 22, 0), (2.5, 27, 1)]
    lines.close()
    lines.close()
    assert lines._thread is None
    with pytest.raises(OSError):
        os.fstat(kernel.fd)  # the request's descriptor is closed: the kernel frees the lines


def test_a_failing_callback_does_not_stop_the_edges(monkeypatch, caplog):
    kernel = FakeKernel(monkeypatch)
    lines = cdev.LineEdges(0, [5])
    got: queue.Queue = queue.Queue()

    def callback(t, line, level):
        if not level:
            raise RuntimeError("boom")
        got.put(level)
    lines.start(callback)
    kernel.edge(5, 0)
    kernel.edge(5, 1)
    assert got.get(timeout=5) == 1
    lines.close()
    assert "GPIO edge callback failed" in caplog.text


def detents(steps: int) -> list[tuple[str, int]]:
    return [edge for _ in range(abs(steps)) for edge in (CLOCKWISE if steps > 0 else COUNTER)]


def test_quadrature_counts_detents_both_ways():
    quad = Quadrature(1, 1)
    assert [s for c, level in detents(3) + detents(-2) if (s := quad.change(c, level))] == [1, 1, 1, -1, -1]


def test_quadrature_counts_as_gpiozeros_rotary_encoder(mock_factory):
    """Any sequence of contact changes, jitter and reversals included, gives the steps that
    gpiozero's RotaryEncoder gives (the count every other pin library uses)."""
    rng = random.Random(7)
    encoder = RotaryEncoder(20, 21, max_steps=0, pin_factory=mock_factory)
    theirs: list[int] = []
    encoder.when_rotated_clockwise = lambda: theirs.append(1)
    encoder.when_rotated_counter_clockwise = lambda: theirs.append(-1)
    pins = {"a": mock_factory.pin(20), "b": mock_factory.pin(21)}
    ours, quad, level = [], Quadrature(1, 1), {"a": 1, "b": 1}
    for _ in range(3000):
        contact = rng.choice("ab")
        level[contact] ^= 1
        pins[contact].drive_high() if level[contact] else pins[contact].drive_low()
        if step := quad.change(contact, level[contact]):
            ours.append(step)
    encoder.close()
    assert len(theirs) > 50 and ours == theirs


def test_kernel_encoders_step_the_block_whose_contacts_moved(monkeypatch):
    kernel = FakeKernel(monkeypatch, levels=0b11111111)  # every contact open: pins pulled high
    encoders = KernelEncoders(0, [(22, 27), (23, 24)])
    steps: queue.Queue = queue.Queue()
    encoders.start(lambda block, sign: steps.put((block, sign)))
    for contact, level in detents(-1):
        kernel.edge({"a": 23, "b": 24}[contact], level)
    assert steps.get(timeout=5) == (2, -1)
    encoders.close()
    assert struct.unpack_from("=4I", kernel.requests[0], 0) == (22, 27, 23, 24)


def test_kernel_buttons_press_on_the_falling_edge_with_the_kernels_debounce(monkeypatch):
    kernel = FakeKernel(monkeypatch, levels=0b11)
    monkeypatch.setattr("controller.drivers.gpio.buttons.kernel_bank", lambda factory: 0)
    buttons = GpioButtons({"ok": 5, "back": 6}, clock=lambda: 7.0, pin_factory=object())
    presses: queue.Queue = queue.Queue()
    buttons.start(presses.put)
    kernel.edge(6, 0)
    kernel.edge(6, 1)  # released: no second press
    kernel.edge(5, 0)
    assert [presses.get(timeout=5), presses.get(timeout=5)] == [ButtonPress(7.0, "back"), ButtonPress(7.0, "ok")]
    buttons.stop()
    assert presses.empty()
    assert struct.unpack_from("=IIQQ", kernel.requests[0], 320) == (cdev.ATTR_ID_DEBOUNCE, 0, 50_000, 0b11)
