"""One contract for every input backend: what the core may rely on, whatever the hardware.

Each backend comes with a rig that can move marbles, bounce a contact and turn a block on it,
and let time pass until readings settle. The virtual board has no contacts (it models the
settled readings), so the bounce test runs on the backends that read raw contacts.
"""

from __future__ import annotations

import pytest

from controller.drivers.gpio import GpioInputs
from controller.drivers.virtual import VirtualBoard
from controller.events import EMPTY, MARBLE, EncoderSteps, HoleReading
from controller.profile import load_profile

from .rigs import FakeClock, MockMatrix, turn_encoder

C4 = 20  # row 3 * 6 + column 2
E2 = 10


class VirtualRig:
    name = "virtual"

    def __init__(self, clock: FakeClock, mock_factory) -> None:
        self.board = VirtualBoard(6, clock=clock, detents_per_quarter=6)
        self.driver = self.board

    def place(self, hole: int) -> None:
        self.board.place(hole)

    def lift(self, hole: int) -> None:
        self.board.lift(hole)

    def turn(self, block: int, steps: int) -> None:
        self.board.turn(block, steps)

    def settle(self) -> None:
        """Nothing to wait for: the virtual board reports settled readings at once."""


class GpioRig:
    """The A-6x6 profile's pins on gpiozero's MockFactory, scanned by hand with a fake clock."""

    name = "gpio"
    debounce_s = 0.03

    def __init__(self, clock: FakeClock, mock_factory) -> None:
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


RIGS = [VirtualRig, GpioRig]
RAW_CONTACT_RIGS = [GpioRig]


@pytest.fixture(params=RIGS, ids=lambda rig: rig.name)
def rig(request, clock, mock_factory):
    rig = request.param(clock, mock_factory)
    yield rig
    rig.driver.stop()


@pytest.fixture
def started(rig):
    """The rig started, its start-up snapshot checked and cleared: events holds what follows."""
    rig.events = []
    rig.driver.start(rig.events.append)
    assert len(rig.events) == 36
    rig.events.clear()
    return rig


def readings(events):
    return [(e.hole, e.reading) for e in events if isinstance(e, HoleReading)]


def test_start_reports_every_hole_as_it_is(rig):
    rig.place(C4)
    rig.place(E2)
    events = []
    rig.driver.start(events.append)
    assert sorted(readings(events)) == [
        (hole, MARBLE if hole in (C4, E2) else EMPTY) for hole in range(36)
    ]
    assert all(isinstance(e, HoleReading) for e in events)


def test_placing_and_lifting_give_exactly_one_settled_reading_each(started):
    started.place(C4)
    started.settle()
    assert readings(started.events) == [(C4, MARBLE)]
    started.lift(C4)
    started.settle()
    assert readings(started.events) == [(C4, MARBLE), (C4, EMPTY)]


def test_readings_carry_the_clock_time(started, clock):
    started.place(C4)
    started.settle()
    (event,) = started.events
    assert event.t <= clock.t and event.t >= 100.0


def test_marbles_in_one_row_and_one_column_read_apart(started):
    holes = [0, 1, 5, 6, 30, 35]
    for hole in holes:
        started.place(hole)
    started.settle()
    assert sorted(readings(started.events)) == [(h, MARBLE) for h in holes]


@pytest.mark.parametrize("steps", [1, 3, -1, -4])
def test_a_block_turn_gives_signed_encoder_steps(started, steps):
    started.turn(2, steps)
    turns = [e for e in started.events if isinstance(e, EncoderSteps)]
    assert {e.block for e in turns} == {2}
    assert sum(e.steps for e in turns) == steps
    assert all((e.steps > 0) == (steps > 0) for e in turns)


def test_each_block_reports_its_own_number(started):
    for block in (1, 2, 3, 4):
        started.turn(block, 1)
    assert [e.block for e in started.events if isinstance(e, EncoderSteps)] == [1, 2, 3, 4]


def test_stop_is_idempotent_and_silences_the_driver(started):
    started.driver.stop()
    started.driver.stop()
    started.events.clear()
    started.turn(1, 1)
    assert started.events == []


@pytest.fixture(params=RAW_CONTACT_RIGS, ids=lambda rig: rig.name)
def contact_rig(request, clock, mock_factory):
    rig = request.param(clock, mock_factory)
    rig.events = []
    rig.driver.start(rig.events.append)
    rig.events.clear()
    yield rig
    rig.driver.stop()


def test_a_bouncing_contact_gives_no_extra_reading(contact_rig):
    contact_rig.bounce(C4)
    contact_rig.settle()
    assert contact_rig.events == []
    contact_rig.bounce(C4)
    contact_rig.place(C4)
    contact_rig.settle()
    assert readings(contact_rig.events) == [(C4, MARBLE)]

