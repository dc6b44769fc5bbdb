"""Build A's matrix through the kernel's GPIO character device (drivers/gpio/kernel_matrix.py),
against a model of the chip with the diode matrix behind it (gpio_chip.py): every hole read as
its switch is, an empty board asleep until a marble drops, a board with marbles at its pace,
and the lines given back. The real kernel is met in bench/pi_vm (build_a.py)."""

from __future__ import annotations

import queue
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.drivers.gpio import GpioInputs, cdev, kernel_matrix
from controller.drivers.gpio.kernel_matrix import KernelMatrix
from controller.events import MARBLE, HoleReading
from controller.profile import load_profile

from .gpio_chip import Chip

PROFILE = load_profile("A-6x6")
PINS = PROFILE.gpio


def chip(monkeypatch) -> Chip:
    return Chip(PINS.matrix_rows, PINS.matrix_columns, PINS.matrix_holes).install(monkeypatch)


def matrix() -> KernelMatrix:
    return KernelMatrix(PINS.matrix_rows, PINS.matrix_columns, PINS.matrix_holes, 0)


def waited(m: KernelMatrix, pause_s: float, then=None, patience_s: float = 5.0) -> float:
    """Seconds ``m.wait(pause_s)`` took, with ``then()`` done 0.2 s into it."""
    done = threading.Event()
    t0 = time.monotonic()
    waiter = threading.Thread(target=lambda: (m.wait(pause_s), done.set()))
    waiter.start()
    if then is not None:
        time.sleep(0.2)
        then()
    done.wait(patience_s)
    took = time.monotonic() - t0
    m.wake()
    waiter.join()
    return took


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 35)), st.sets(st.integers(0, 35)))
def test_every_hole_reads_as_its_switch_is(before, after):
    with pytest.MonkeyPatch.context() as monkeypatch:
        board = chip(monkeypatch)
        m = matrix()
        for holes in (before, after):
            board.closed = set(holes)
            assert [hole for hole, closed in enumerate(m.read()) if closed] == sorted(holes)
        m.close()


def test_a_scan_is_twelve_ioctls_and_an_empty_boards_two_more_with_every_row_low(monkeypatch):
    board = chip(monkeypatch)
    m = matrix()
    board.place(3)
    m.read()
    board.ioctls = 0
    m.read()
    assert board.ioctls == 6 * 2  # each row alone, and the columns
    board.lift(3)
    m.read()
    board.ioctls = 0
    m.read()
    assert board.ioctls == 6 * 2 + 2  # and every row low, the columns again
    assert all(board.driven[row] == 0 for row in PINS.matrix_rows)
    m.close()


def test_with_a_marble_down_the_scans_own_edges_are_not_queued(monkeypatch):
    """Each edge is an interrupt on a Pi: while the edges can tell nothing they are off."""
    board = chip(monkeypatch)
    m = matrix()
    board.place(14)
    m.read()
    queued = board.queued()
    for _ in range(3):
        m.read()
    assert board.queued() == queued
    m.close()


def test_an_empty_board_sleeps_until_a_marble_drops(monkeypatch):
    monkeypatch.setattr(kernel_matrix, "HEARTBEAT_S", 30.0)
    board = chip(monkeypatch)
    m = matrix()
    board.place(7)
    m.read()
    board.lift(7)  # the lift's edge, then the scan's own: neither may wake the next wait
    assert m.read() == [False] * 36
    assert waited(m, 0.015, patience_s=0.5) >= 0.5  # no edge: still asleep after many paces
    assert 0.2 <= waited(m, 0.015, then=lambda: board.place(20)) < 2.0  # the drop wakes it
    assert m.read()[20]
    m.close()


def test_an_empty_board_is_scanned_at_the_heartbeat_without_an_edge(monkeypatch):
    monkeypatch.setattr(kernel_matrix, "HEARTBEAT_S", 0.3)
    chip(monkeypatch)
    m = matrix()
    m.read()
    assert 0.3 <= waited(m, 0.015) < 2.0
    m.close()


def test_a_board_with_a_marble_waits_only_the_pace(monkeypatch):
    """A column already low hides a second marble in it from the edges: scanned at the pace."""
    monkeypatch.setattr(kernel_matrix, "HEARTBEAT_S", 30.0)
    board = chip(monkeypatch)
    m = matrix()
    board.place(0)
    m.read()
    assert waited(m, 0.05) < 1.0
    m.close()


def test_wake_ends_the_wait_at_once(monkeypatch):
    monkeypatch.setattr(kernel_matrix, "HEARTBEAT_S", 30.0)
    chip(monkeypatch)
    m = matrix()
    m.read()
    assert waited(m, 0.015, then=m.wake) < 2.0
    m.close()


def test_close_gives_every_line_back_and_can_be_called_twice(monkeypatch):
    board = chip(monkeypatch)
    m = matrix()
    assert len(board.requests) == 2
    m.close()
    m.close()
    assert board.requests == {} and board.owner == {}


def test_a_column_already_taken_gives_the_rows_back(monkeypatch):
    board = chip(monkeypatch)
    other = cdev.LineRequest(0, [PINS.matrix_columns[3]])
    with pytest.raises(OSError, match="busy"):
        matrix()
    assert set(board.owner) == {PINS.matrix_columns[3]}
    other.close()


def test_the_driver_on_a_pis_chip_reads_a_dropped_marble_on_an_empty_board(monkeypatch):
    """GpioInputs on the Pi's bank (found by its label): the matrix is the kernel's, a marble
    dropped on the sleeping empty board is read and settled, and stop ends the sleep at once."""
    monkeypatch.setattr(kernel_matrix, "HEARTBEAT_S", 30.0)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    board = chip(monkeypatch)
    monkeypatch.setattr(cdev, "pi_bank", lambda dev=None: 0)
    driver = GpioInputs.from_profile(PROFILE, debounce_ms=10)
    try:
        assert isinstance(driver.matrix, KernelMatrix)
        events: queue.Queue = queue.Queue()
        driver.start(events.put)
        for _ in range(36):
            events.get(timeout=5)  # the start's readings
        time.sleep(0.3)
        board.place(11)
        got = events.get(timeout=5)
        assert isinstance(got, HoleReading) and (got.hole, got.reading) == (11, MARBLE)
    finally:
        t0 = time.monotonic()
        driver.stop()
    assert time.monotonic() - t0 < 2.0
    assert board.requests == {}  # matrix, encoders and buttons gave their lines back


def test_the_pis_bank_is_found_by_its_label(monkeypatch, tmp_path):
    """A Pi 5 before Linux 6.6.45: the header is gpiochip4 (RP1's), gpiochip0 the SoC's own."""
    for n in (10, 0, 4):
        (tmp_path / f"gpiochip{n}").touch()  # before the model takes over os.open
    board = Chip([], [], [], label="pinctrl-rp1").install(monkeypatch)
    board.labels = {"gpiochip0": "gpio-brcmstb@107d508500", "gpiochip10": "raspberrypi-exp-gpio"}
    assert cdev.pi_bank(tmp_path) == 4
    board.label = "gpio-mockup-A"
    assert cdev.pi_bank(tmp_path) is None
    assert cdev.pi_bank(tmp_path / "none") is None


def test_a_pin_factory_or_gpiozeros_setting_chooses_gpiozero(monkeypatch):
    monkeypatch.setattr(cdev, "pi_bank", lambda dev=None: 0)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert cdev.kernel_bank(None) == 0
    assert cdev.kernel_bank(object()) is None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert cdev.kernel_bank(None) is None
