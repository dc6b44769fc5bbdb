"""Property tests: whatever the sequence of physical gestures, the events tell the truth."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from gpiozero.pins.mock import MockFactory

from controller.drivers.gpio import GpioInputs
from controller.drivers.virtual import VirtualBoard, VirtualBoardError
from controller.events import EMPTY, MARBLE, HoleReading
from controller.profile import load_profile

from .rigs import FakeClock, MockMatrix

PROFILE = load_profile("A-6x6")

gestures = st.lists(
    st.one_of(
        st.tuples(st.just("place"), st.integers(0, 35)),
        st.tuples(st.just("lift"), st.integers(0, 35)),
        st.tuples(st.just("turn"), st.integers(1, 4), st.integers(-7, 7)),
    ),
    max_size=40,
)


def replay(events) -> dict[int, str]:
    """The last reading of every hole, as the core would hold it; each must be a change."""
    seen: dict[int, str] = {}
    for event in events:
        if isinstance(event, HoleReading):
            assert seen.get(event.hole) != event.reading, f"repeated {event}"
            seen[event.hole] = event.reading
    return seen


@given(gestures)
def test_virtual_events_replay_to_the_boards_readings(steps):
    board = VirtualBoard(6, detents_per_quarter=2, clock=FakeClock())
    events: list = []
    board.start(events.append)
    count = 0
    for verb, *args in steps:
        try:
            getattr(board, verb)(*args)
        except VirtualBoardError:
            continue  # an impossible gesture changes nothing
        count += {"place": 1, "lift": -1, "turn": 0}[verb]
    assert replay(events) == {hole: board.reading(hole) for hole in range(36)}
    assert len(board.marbles()) == count  # turning never loses or makes a marble


@given(st.sets(st.integers(0, 35)), st.integers(1, 4), st.integers(-9, 9))
def test_turning_there_and_back_restores_every_marble(holes, block, steps):
    board = VirtualBoard(6, detents_per_quarter=3)
    for hole in holes:
        board.place(hole)
    board.turn(block, steps)
    board.turn(block, -steps)
    assert set(board.marbles()) == holes


contact_changes = st.lists(
    st.tuples(st.integers(0, 35), st.booleans(), st.integers(1, 40)),  # hole, closed, ms later
    max_size=30,
)


@settings(max_examples=50, deadline=None)
@given(contact_changes)
def test_gpio_readings_end_at_the_contacts_final_state(changes):
    factory, clock = MockFactory(), FakeClock()
    matrix = MockMatrix(factory, PROFILE.gpio)
    driver = GpioInputs(6, PROFILE.gpio, {}, debounce_ms=30, scan_interval_ms=None, clock=clock,
                        pin_factory=factory)
    events: list = []
    driver.start(events.append)
    for hole, closed, later_ms in changes:
        (matrix.close if closed else matrix.open)(hole)
        clock.advance(later_ms / 1000)
        driver.scan()
    for _ in range(5):
        clock.advance(0.02)
        driver.scan()
    driver.stop()
    factory.close()
    expected = {hole: MARBLE if hole in matrix.closed else EMPTY for hole in range(36)}
    assert replay(events) == expected
