"""The GPIO backend on gpiozero's MockFactory: matrix scan with debounce, encoders, buttons."""

from __future__ import annotations

import logging
import queue
import threading

import pytest
from gpiozero import DigitalInputDevice

from controller.drivers.gpio import GpioInputs
from controller.drivers.gpio.debounce import Debouncer
from controller.drivers.gpio.matrix import ReedMatrix
from controller.errors import ProfileError
from controller.events import EMPTY, MARBLE, ButtonPress, EncoderSteps, HoleReading
from controller.profile import load_profile
from controller.rules import geometry, parse_hole

from .rigs import MockMatrix, turn_encoder

PROFILE = load_profile("A-6x6")
PINS = PROFILE.gpio


def hole(name: str) -> int:
    return parse_hole(name, geometry(6))


@pytest.fixture
def matrix(mock_factory):
    return MockMatrix(mock_factory, PINS)


@pytest.fixture
def gpio(mock_factory, matrix, clock):
    """A started driver scanned by hand: ``gpio.scan(after_s)`` moves the clock and scans."""
    driver = GpioInputs(6, PINS, PROFILE.buttons, debounce_ms=30, scan_interval_ms=None,
                        clock=clock, pin_factory=mock_factory)
    events: list = []
    driver.start(events.append)
    events.clear()

    def scan(after_s: float) -> None:
        clock.advance(after_s)
        driver.scan()

    driver.events, driver.tick = events, scan
    yield driver
    driver.stop()


def test_matrix_maps_each_crossing_to_the_profiles_hole(mock_factory, matrix):
    reed = ReedMatrix(PINS.matrix_rows, PINS.matrix_columns, PINS.matrix_holes, mock_factory)
    matrix.close(hole("a6"))  # first row pin, first column pin in A-6x6.toml
    matrix.close(hole("f1"))  # last row pin, last column pin
    closed = reed.read()
    assert [i for i, c in enumerate(closed) if c] == [hole("f1"), hole("a6")]
    reed.close()


def test_matrix_reads_a_full_board_and_leaves_rows_idle(mock_factory, matrix):
    reed = ReedMatrix(PINS.matrix_rows, PINS.matrix_columns, PINS.matrix_holes, mock_factory)
    matrix.closed.update(range(36))
    assert reed.read() == [True] * 36
    assert all(row.state for row in matrix.rows)  # idle rows are high: no switch is selected
    reed.close()


def test_matrix_rejects_a_crossing_table_that_misses_a_hole(mock_factory):
    holes = (0,) + PINS.matrix_holes[1:]
    with pytest.raises(ProfileError, match="exactly once"):
        ReedMatrix(PINS.matrix_rows, PINS.matrix_columns, holes, mock_factory)


def test_new_state_must_hold_for_the_debounce_time(gpio, matrix, clock):
    matrix.close(hole("c4"))
    gpio.tick(0.001)  # first seen at t0
    gpio.tick(0.020)  # held 20 ms
    assert gpio.events == []
    gpio.tick(0.010)  # held 30 ms
    assert gpio.events == [HoleReading(clock.t, hole("c4"), MARBLE)]


def test_a_flicker_restarts_the_debounce_time(gpio, matrix):
    matrix.close(hole("c4"))
    gpio.tick(0.001)
    matrix.open(hole("c4"))
    gpio.tick(0.020)
    matrix.close(hole("c4"))
    gpio.tick(0.015)  # 36 ms since first closed, but only just closed again
    assert gpio.events == []
    gpio.tick(0.030)
    assert [e.reading for e in gpio.events] == [MARBLE]


def test_a_marble_rolling_over_holes_leaves_one_reading_where_it_stops(gpio, matrix):
    for name in ("c4", "d4", "e4"):
        matrix.close(hole(name))
        gpio.tick(0.01)
        matrix.open(hole(name))
        gpio.tick(0.01)
    matrix.close(hole("f4"))
    for _ in range(5):
        gpio.tick(0.01)
    assert [(e.hole, e.reading) for e in gpio.events] == [(hole("f4"), MARBLE)]


def test_lifting_is_debounced_too(gpio, matrix):
    matrix.close(hole("b2"))
    gpio.tick(0.001)
    gpio.tick(0.05)
    matrix.open(hole("b2"))
    gpio.tick(0.001)
    gpio.tick(0.01)
    assert [e.reading for e in gpio.events] == [MARBLE]
    gpio.tick(0.03)
    assert [e.reading for e in gpio.events] == [MARBLE, EMPTY]


@pytest.mark.parametrize("block", [1, 2, 3, 4])
def test_encoder_sequences_give_signed_steps_per_block(gpio, mock_factory, block, clock):
    turn_encoder(mock_factory, PINS.encoders[block - 1], 2)
    turn_encoder(mock_factory, PINS.encoders[block - 1], -1)
    assert gpio.events == [
        EncoderSteps(clock.t, block, 1), EncoderSteps(clock.t, block, 1),
        EncoderSteps(clock.t, block, -1),
    ]


def test_encoder_jitter_without_a_full_detent_gives_no_step(gpio, mock_factory):
    a, b = (mock_factory.pin(p) for p in PINS.encoders[0])
    for _ in range(3):
        a.drive_low()
        a.drive_high()
    b.drive_low()
    b.drive_high()
    assert gpio.events == []


def test_swapping_the_encoder_pins_reverses_the_sense(mock_factory, clock):
    a, b = PINS.encoders[0]
    swapped = type(PINS)(PINS.matrix_rows, PINS.matrix_columns, PINS.matrix_holes,
                         ((b, a),) + PINS.encoders[1:])
    MockMatrix(mock_factory, PINS)
    driver = GpioInputs(6, swapped, {}, scan_interval_ms=None, clock=clock,
                        pin_factory=mock_factory)
    events: list = []
    driver.start(events.append)
    turn_encoder(mock_factory, (a, b), 1)
    driver.stop()
    assert [e.steps for e in events if isinstance(e, EncoderSteps)] == [-1]


def test_buttons_report_their_profile_names(gpio, mock_factory, clock):
    for name in ("back", "ok"):
        pin = mock_factory.pin(PROFILE.buttons[name])
        pin.drive_low()
        pin.drive_high()
    assert gpio.events == [ButtonPress(clock.t, "back"), ButtonPress(clock.t, "ok")]


def test_buttons_ask_the_pin_library_to_filter_contact_bounce(gpio, mock_factory):
    assert {mock_factory.pin(pin).bounce for pin in PROFILE.buttons.values()} == {0.05}


def test_stop_releases_every_pin_for_a_new_driver(gpio, mock_factory, clock):
    gpio.stop()
    again = GpioInputs(6, PINS, PROFILE.buttons, scan_interval_ms=None, clock=clock,
                       pin_factory=mock_factory)
    again.stop()


def test_stop_logs_a_pin_that_will_not_let_go_and_releases_every_other(gpio, mock_factory, caplog,
                                                                       monkeypatch):
    stuck = gpio._encoders.devices[1]

    def refuse() -> None:
        raise OSError("'GPIO busy'")  # as lgpio said when a line was still claimed elsewhere

    monkeypatch.setattr(stuck, "close", refuse)
    with caplog.at_level(logging.WARNING, logger="controller.drivers.gpio"):
        gpio.stop()
    assert [(r.getMessage(), r.exc_info) for r in caplog.records] == [
        ("could not release the block 2 encoder: OSError: 'GPIO busy'", None)]
    others = [*PINS.matrix_rows, *PINS.matrix_columns, *PROFILE.buttons.values(),
              *(pin for block, pins in enumerate(PINS.encoders) if block != 1 for pin in pins)]
    for pin in others:  # each can be claimed again: it was released
        DigitalInputDevice(pin, pull_up=True, pin_factory=mock_factory).close()


def test_the_scan_slows_down_at_rest_and_speeds_up_after_a_change(gpio, matrix, clock):
    gpio._interval_s = 0.005  # the scan thread's pace (the fixture scans by hand)
    gpio.tick(0.001)
    assert gpio._pause_s() == 0.015  # at rest: a change is still seen within 15 ms
    matrix.close(hole("b2"))
    gpio.tick(0.001)
    assert gpio._pause_s() == 0.005  # something moved: scan at full pace
    clock.advance(1.0)
    assert gpio._pause_s() == 0.005
    clock.advance(1.5)
    assert gpio._pause_s() == 0.015


def test_a_contact_that_bounced_back_is_timed_afresh_after_a_rest(gpio, matrix):
    matrix.close(hole("c3"))
    gpio.tick(0.002)
    matrix.open(hole("c3"))  # back before it settled: nothing pending, nothing emitted
    gpio.tick(0.002)
    gpio.tick(0.1)
    matrix.close(hole("c3"))
    gpio.tick(0.002)
    gpio.tick(0.02)
    assert gpio.events == []  # 22 ms closed: not yet settled (30 ms)
    gpio.tick(0.02)
    assert [(e.hole, e.reading) for e in gpio.events] == [(hole("c3"), MARBLE)]


def test_scan_thread_reports_a_placed_marble(mock_factory, matrix):
    driver = GpioInputs(6, PINS, PROFILE.buttons, debounce_ms=5, scan_interval_ms=1,
                        pin_factory=mock_factory)
    events: queue.Queue = queue.Queue()
    driver.start(events.put)
    snapshot = [events.get(timeout=5) for _ in range(36)]
    assert {e.reading for e in snapshot} == {EMPTY}
    matrix.close(hole("d3"))
    event = events.get(timeout=5)
    driver.stop()
    assert (event.hole, event.reading) == (hole("d3"), MARBLE)
    assert not any(t.name == "gpio-scan" for t in threading.enumerate())


def test_scan_thread_survives_a_failing_scan(mock_factory, matrix, caplog):
    driver = GpioInputs(6, PINS, PROFILE.buttons, debounce_ms=5, scan_interval_ms=1,
                        pin_factory=mock_factory)
    events: queue.Queue = queue.Queue()
    driver.start(events.put)
    for _ in range(36):
        events.get(timeout=5)
    read, failures = driver._matrix.read, []

    def flaky_read():
        if not failures:
            failures.append(1)
            raise OSError("GPIO bus glitch")
        return read()

    driver._matrix.read = flaky_read
    matrix.close(hole("a1"))
    event = events.get(timeout=5)
    driver.stop()
    assert (event.hole, event.reading) == (hole("a1"), MARBLE)
    assert failures and "matrix scan failed" in caplog.text


def test_a_profile_without_gpio_pins_is_refused(mock_factory):
    profile = load_profile("virtual-6x6")
    with pytest.raises(ProfileError, match="'virtual-6x6' uses the gpio driver but has no"):
        GpioInputs.from_profile(profile, pin_factory=mock_factory)


DEBOUNCE_TABLE = [
    # (samples as (time, raw), the indices of samples that settle a change)
    ([(0.00, True), (0.03, True)], [1]),
    ([(0.00, True), (0.02, True), (0.04, True)], [2]),
    ([(0.00, True), (0.01, False), (0.02, True), (0.04, True), (0.05, True)], [4]),
    ([(0.00, False), (0.10, False)], []),
    ([(0.00, True), (0.05, True), (0.06, False), (0.10, False)], [1, 3]),
]


@pytest.mark.parametrize("samples, settles", DEBOUNCE_TABLE)
def test_debouncer_table(samples, settles):
    debouncer = Debouncer([False], debounce_s=0.03)
    changed = [i for i, (t, raw) in enumerate(samples) if debouncer.update(0, raw, t)]
    assert changed == settles
