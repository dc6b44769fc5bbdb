"""The board tracker as tables: sensed inputs in, what differs and how to repair it out."""

from __future__ import annotations

import pytest

from controller.board import BoardInputError, Diff, Physical, compare, repair_steps
from controller.events import EncoderSteps, HoleReading
from controller.rules import Position, geometry, parse_hole

G = geometry(6)
COLOURS = ("white", "black")


def h(name: str) -> int:
    return parse_hole(name, G)


def physical(readings: dict[str, str] | None = None, steps: dict[int, int] | None = None, detents: int = 6) -> Physical:
    p = Physical(G, detents)
    for t, (name, reading) in enumerate((readings or {}).items()):
        p.apply(HoleReading(float(t), h(name), reading))
    for block, count in (steps or {}).items():
        p.apply(EncoderSteps(10.0, block, count))
    return p


def position(**stones: str) -> Position:
    p = Position.empty(6)
    for colour, holes in enumerate((stones.get("x", ""), stones.get("o", ""))):
        for name in holes.split():
            p = p.place(h(name), colour)
    return p


# count -> quarters the encoder allows (6 detents a quarter, one detent of slack either way)
QUARTER_TABLE = [(0, (0,)), (1, (0,)), (-1, (0,)), (2, ()), (3, ()), (5, (1,)), (6, (1,)), (7, (1,)),
                 (-6, (-1,)), (12, (2,)), (-12, (2,)), (24, (0,)), (-23, (0,)), (18, (-1,))]


@pytest.mark.parametrize("count,quarters", QUARTER_TABLE)
def test_quarters_from_encoder_count(count: int, quarters: tuple[int, ...]) -> None:
    p = physical(steps={1: count} if count else None)
    assert set(p.quarters(1)) == set(quarters)


def test_settle_waits_longer_after_an_encoder_step() -> None:
    p = Physical(G, 6)
    assert p.settles_at(0.15, 0.4) is None
    p.apply(HoleReading(1.0, 0, "marble"))
    assert p.settles_at(0.15, 0.4) == pytest.approx(1.15)
    p.apply(EncoderSteps(1.1, 2, 1))
    assert p.settles_at(0.15, 0.4) == pytest.approx(1.5)
    p.judged()
    assert p.settles_at(0.15, 0.4) is None


def test_same_reading_again_is_no_change() -> None:
    p = physical({"a1": "marble"})
    p.judged()
    assert p.apply(HoleReading(5.0, h("a1"), "marble")) is False
    assert p.settles_at(0.15, 0.4) is None


@pytest.mark.parametrize("event,message", [
    (HoleReading(0.0, 36, "marble"), "hole index 36 is not on the 6x6 board"),
    (EncoderSteps(0.0, 5, 1), "block 5 is not on the board (blocks 1-4)"),
])
def test_events_off_the_board_are_refused_by_name(event, message: str) -> None:
    with pytest.raises(BoardInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Physical(G, 6).apply(event)


def test_turn_of_an_occupied_block_is_seen_from_encoder_and_readings() -> None:
    expected = position(x="a6")  # block 1, top-left corner
    diff = compare(expected, physical({"c6": "marble"}, {1: 6}), COLOURS)  # turned clockwise
    assert diff.turns == ((1, 1),) and not diff.added and not diff.removed


def test_readings_settle_a_missed_detent_and_a_drifted_count() -> None:
    expected = position(x="a6")
    assert compare(expected, physical({"c6": "marble"}, {1: 5}), COLOURS).turns == ((1, 1),)
    drifted = compare(expected, physical({"c6": "marble"}, {1: 8}), COLOURS)  # two detents too many
    assert (drifted.turns, drifted.torn) == (((1, 1),), ())


def test_half_turn_with_marbles_between_sensors_is_torn() -> None:
    expected = position(x="a6 b6")
    diff = compare(expected, physical({}, {1: 3}), COLOURS)
    assert diff.torn == (1,) and not diff.is_same()


def test_half_turned_neutral_block_is_loose_not_torn() -> None:
    diff = compare(position(x="a1"), physical({"a1": "marble"}, {1: 3}), COLOURS)
    assert (diff.torn, diff.loose, diff.is_same()) == ((), (1,), True)


def test_drifted_count_on_a_symmetric_block_is_a_rest() -> None:
    expected = position(x="a6 c6 a4 c4")  # four corners: every quarter looks the same
    p = physical({"a6": "marble", "c6": "marble", "a4": "marble", "c4": "marble"}, {1: 8})
    assert compare(expected, p, COLOURS).is_same()


def test_new_missing_and_wrong_colour_marbles_on_polarity() -> None:
    expected = position(x="a1", o="b2")
    diff = compare(expected, physical({"b2": "white", "c3": "black", "d4": "unsure"}), COLOURS)
    assert diff == Diff(added=((h("c3"), 1),), removed=(h("a1"),), recoloured=((h("b2"), 0),),
                        unsure=(h("d4"),), turned_expected=expected)


def test_repair_turns_first_then_removes_then_puts() -> None:
    expected = position(x="a6", o="f1")
    p = physical({"c6": "marble", "d4": "marble"}, {1: 6})
    steps = repair_steps(compare(expected, p, COLOURS), expected, p, COLOURS)
    assert [s.text(expected) for s in steps] == ["turn block 1 back L"]
    p = physical({"a6": "marble", "d4": "marble"})
    steps = repair_steps(compare(expected, p, COLOURS), expected, p, COLOURS)
    assert [s.text(expected) for s in steps] == ["remove the marble on d4", "put a black marble on f1"]


def test_repair_texts_for_swaps_checks_and_half_turns() -> None:
    expected = position(x="a1 b2")
    p = physical({}, {3: -3})  # half way, marbles off their sensors: back to where it was
    steps = repair_steps(compare(expected, p, COLOURS), expected, p, COLOURS)
    assert [s.text(expected) for s in steps] == ["turn block 3 back R"]
    p = physical({}, {3: -4})  # nearer the next quarter: on to it
    steps = repair_steps(compare(expected, p, COLOURS), expected, p, COLOURS)
    assert [s.text(expected) for s in steps] == ["turn block 3 L to the next quarter"]
    p = physical({"a1": "black", "b2": "unsure"})
    steps = repair_steps(compare(expected, p, COLOURS), expected, p, COLOURS)
    assert [s.text(expected) for s in steps] == [
        "replace the marble on a1 with a white one", "check the marble on b2: its sensor cannot tell"]


def test_a_half_turn_180_is_two_quarter_steps_back() -> None:
    expected = position(x="a6")
    p = physical({"c4": "marble"}, {1: 12})
    diff = compare(expected, p, COLOURS)
    assert diff.turns in (((1, 2),), ((1, -2),))
    assert len(repair_steps(diff, expected, p, COLOURS)) == 2
