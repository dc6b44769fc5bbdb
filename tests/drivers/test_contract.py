"""One contract for every input backend: what the core may rely on, whatever the hardware.

Each backend comes with a rig that moves marbles, turns blocks and lets time pass until the
readings settle: the virtual board; the GPIO driver on gpiozero's MockFactory with the A-6x6
pins, scanned by hand on a fake clock; build B's driver as the factory builds it from the B-6x6
profile: the serial link over a pty to a fake MCU, and the buttons on the Pi's own pins
(gpiozero's MockFactory). The bounce
test runs where the host itself reads raw contacts (GPIO): the virtual board models settled
readings, and on build B the MCU debounces (firmware tests cover that).
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from controller.drivers.factory import build_inputs
from controller.drivers.gpio import GpioInputs
from controller.drivers.virtual import VirtualBoard
from controller.events import EMPTY, MARBLE, ButtonPress, EncoderSteps, HoleReading, LinkChange
from controller.profile import load_profile
from pentago_firmware import wire

from .fake_mcu import FakeMcu, wait_for
from .rigs import FakeClock, MockMatrix, turn_encoder

C4 = 20  # row 3 * 6 + column 2
E2 = 10


class Rig:
    """Common to every rig: ``events`` collects what the driver emits."""

    def __init__(self) -> None:
        self.events: list = []

    def start(self) -> None:
        self.driver.start(self.events.append)

    def stop(self) -> None:
        self.driver.stop()

    def settle(self) -> None:
        """Nothing to wait for: this backend emits while the verb runs."""

    def press(self, button: str) -> None:
        """Press and release a button wired to a Pi pin (gpiozero's MockFactory)."""
        pin = self.factory.pin(self.profile.buttons[button])
        pin.drive_low()
        pin.drive_high()

    def close(self) -> None:
        self.driver.stop()


class VirtualRig(Rig):
    name = "virtual"

    def __init__(self, clock: FakeClock, mock_factory, tmp_path) -> None:
        super().__init__()
        self.profile = load_profile("virtual-6x6")
        self.driver = self.board = VirtualBoard.from_profile(self.profile, clock=clock)

    def press(self, button: str) -> None:
        self.board.press(button)

    def place(self, hole: int) -> None:
        self.board.place(hole)

    def lift(self, hole: int) -> None:
        self.board.lift(hole)

    def turn(self, block: int, steps: int) -> None:
        self.board.turn(block, steps)


class GpioRig(Rig):
    """The A-6x6 profile's pins on gpiozero's MockFactory, scanned by hand with a fake clock."""

    name = "gpio"

    def __init__(self, clock: FakeClock, mock_factory, tmp_path) -> None:
        super().__init__()
        self.profile = load_profile("A-6x6")
        self.factory, self.clock = mock_factory, clock
        self.matrix = MockMatrix(mock_factory, self.profile.gpio)
        self.driver = GpioInputs(6, self.profile.gpio, self.profile.buttons, clock=clock,
                                 debounce_ms=30, scan_interval_ms=None, pin_factory=mock_factory)

    def place(self, hole: int) -> None:
        self.matrix.close(hole)
        self.scan()

    def lift(self, hole: int) -> None:
        self.matrix.open(hole)
        self.scan()

    def bounce(self, hole: int) -> None:
        """The contact flickers several times, each state shorter than the debounce time."""
        for _ in range(3):
            self.matrix.close(hole)
            self.scan(0.005)
            self.matrix.open(hole)
            self.scan(0.005)

    def turn(self, block: int, steps: int) -> None:
        turn_encoder(self.factory, self.profile.gpio.encoders[block - 1], steps)

    def scan(self, after_s: float = 0.002) -> None:
        self.clock.advance(after_s)
        self.driver.scan()

    def settle(self) -> None:
        for _ in range(10):
            self.scan(0.01)


class SerialRig(Rig):
    """Build B as the factory builds it from the B-6x6 profile: the serial link on a pty to a
    fake MCU that sends what its (debounced) scanner saw, and the profile's buttons on Pi pins
    (gpiozero's MockFactory) beside it."""

    name = "serial"
    grace_s = 0.1  # after the expected events, time for any extra one to show up

    def __init__(self, clock: FakeClock, mock_factory, tmp_path) -> None:
        super().__init__()
        self.mcu = FakeMcu(tmp_path)
        self.classes = [wire.EMPTY] * 36
        self.expected = self.emitted = 0  # events the rig caused, events the driver emitted
        self.running = False
        shipped = load_profile("B-6x6")
        self.profile = dataclasses.replace(
            shipped, mcu=dataclasses.replace(shipped.mcu, port=self.mcu.port))
        self.factory = mock_factory
        # Heartbeats are not part of this contract; a fake clock keeps silence from timing out.
        self.driver = build_inputs(self.profile, clock=clock, heartbeat_timeout_s=3600,
                                   pin_factory=mock_factory)

    def start(self) -> None:
        self.mcu.expect(wire.CONNECT, [self.mcu.hello(), self.mcu.snapshot(list(self.classes))])
        self.driver.start(self._count)
        self.expected = 37  # link up, then every hole
        self.running = True
        self.settle()

    def _count(self, event) -> None:
        self.emitted += 1
        self.events.append(event)

    def stop(self) -> None:
        self.running = False
        super().stop()

    def place(self, hole: int) -> None:
        self._hole(hole, wire.MARBLE)

    def lift(self, hole: int) -> None:
        self._hole(hole, wire.EMPTY)

    def turn(self, block: int, steps: int) -> None:
        self._send(self.mcu.encoder(block, steps))

    def press(self, button: str) -> None:
        super().press(button)
        self.expected += self.running

    def _hole(self, hole: int, cls: int) -> None:
        self.classes[hole] = cls
        self._send(self.mcu.hole(hole, cls))

    def _send(self, frame: bytes) -> None:
        self.mcu.send(frame)
        self.expected += self.running

    def settle(self) -> None:
        wait_for(lambda: self.emitted >= self.expected, what=f"{self.expected} events")
        time.sleep(self.grace_s)

    def close(self) -> None:
        super().close()
        self.mcu.close()
        assert not self.mcu.unexpected, self.mcu.unexpected


RIGS = [VirtualRig, GpioRig, SerialRig]
RAW_CONTACT_RIGS = [GpioRig]


def build(request, clock, mock_factory, tmp_path):
    rig = request.param(clock, mock_factory, tmp_path)
    request.addfinalizer(rig.close)
    return rig


@pytest.fixture(params=RIGS, ids=lambda rig: rig.name)
def rig(request, clock, mock_factory, tmp_path):
    return build(request, clock, mock_factory, tmp_path)


@pytest.fixture
def started(rig):
    """The rig started, its start-up report cleared: ``events`` holds what follows."""
    rig.start()
    rig.settle()
    assert len(readings(rig.events)) == 36
    rig.events.clear()
    return rig


def readings(events):
    return [(e.hole, e.reading) for e in events if isinstance(e, HoleReading)]


def test_start_reports_every_hole_as_it_is(rig):
    rig.place(C4)
    rig.place(E2)
    rig.start()
    rig.settle()
    assert sorted(readings(rig.events)) == [
        (hole, MARBLE if hole in (C4, E2) else EMPTY) for hole in range(36)
    ]
    others = [e for e in rig.events if not isinstance(e, HoleReading)]
    assert all(isinstance(e, LinkChange) and e.up for e in others)


def test_placing_and_lifting_give_exactly_one_settled_reading_each(started):
    started.place(C4)
    started.settle()
    assert readings(started.events) == [(C4, MARBLE)]
    started.lift(C4)
    started.settle()
    assert readings(started.events) == [(C4, MARBLE), (C4, EMPTY)]


def test_readings_carry_the_clock_time(started, clock):
    clock.advance(5.0)
    started.place(C4)
    started.settle()
    (event,) = started.events
    assert 105.0 <= event.t <= clock.t


def test_marbles_in_one_row_and_one_column_read_apart(started):
    holes = [0, 1, 5, 6, 30, 35]
    for hole in holes:
        started.place(hole)
    started.settle()
    assert sorted(readings(started.events)) == [(h, MARBLE) for h in holes]


@pytest.mark.parametrize("steps", [1, 3, -1, -4])
def test_a_block_turn_gives_signed_encoder_steps(started, steps):
    started.turn(2, steps)
    started.settle()
    turns = [e for e in started.events if isinstance(e, EncoderSteps)]
    assert {e.block for e in turns} == {2}
    assert sum(e.steps for e in turns) == steps
    assert all((e.steps > 0) == (steps > 0) for e in turns)


def test_each_block_reports_its_own_number(started):
    for block in (1, 2, 3, 4):
        started.turn(block, 1)
    started.settle()
    assert [e.block for e in started.events if isinstance(e, EncoderSteps)] == [1, 2, 3, 4]


def test_each_button_reports_its_profile_name(started, clock):
    clock.advance(2.0)
    pressed_at = clock.t
    for name in ("back", "ok"):
        started.press(name)
    started.settle()
    assert [(type(e), e.button) for e in started.events] == [(ButtonPress, "back"), (ButtonPress, "ok")]
    assert all(e.t == pressed_at for e in started.events)


def test_stop_is_idempotent_and_silences_the_driver(started):
    started.stop()
    started.stop()
    started.events.clear()
    started.turn(1, 1)
    started.place(E2)
    started.press("ok")
    started.settle()
    assert started.events == []


@pytest.fixture(params=RAW_CONTACT_RIGS, ids=lambda rig: rig.name)
def contact_rig(request, clock, mock_factory, tmp_path):
    rig = build(request, clock, mock_factory, tmp_path)
    rig.start()
    rig.events.clear()
    return rig


def test_a_bouncing_contact_gives_no_extra_reading(contact_rig):
    contact_rig.bounce(C4)
    contact_rig.settle()
    assert contact_rig.events == []
    contact_rig.bounce(C4)
    contact_rig.place(C4)
    contact_rig.settle()
    assert readings(contact_rig.events) == [(C4, MARBLE)]
