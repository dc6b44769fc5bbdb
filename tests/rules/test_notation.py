"""Notation: parse generously, print one canonical form, and say exactly what is wrong."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules import (
    Move, NotationError, Position, Twist, geometry, hole_name, move_name, parse_hole, parse_move,
    parse_twist,
)

G6, G9 = geometry(6), geometry(9)


@pytest.mark.parametrize("text, name", [
    ("a1", "a1"), ("F6", "f6"), (" b5 ", "b5"),
    ("1/1", "a6"), ("1/9", "c4"), ("2/5", "e5"), ("3/7", "a1"), ("4/3", "f3"),
])
def test_holes_6x6(text, name):
    assert hole_name(parse_hole(text, G6), G6) == name


def test_holes_9x9_and_its_blocks():
    assert hole_name(parse_hole("i9", G9), G9) == "i9"
    assert hole_name(parse_hole("5/5", G9), G9) == "e5"  # the centre block's centre
    assert hole_name(parse_hole("9/9", G9), G9) == "i1"


@pytest.mark.parametrize("text, message", [
    ("g1", "'g1' is not a hole on the 6x6 board (columns a-f, rows 1-6)"),
    ("a0", "'a0' is not a hole on the 6x6 board (columns a-f, rows 1-6)"),
    ("5/1", "'5/1' is not a hole: blocks are 1-4, positions 1-9"),
    ("2/0", "'2/0' is not a hole: blocks are 1-4, positions 1-9"),
    ("b", "'b' is not a hole on the 6x6 board (columns a-f, rows 1-6)"),
])
def test_bad_holes_say_what_is_wrong(text, message):
    with pytest.raises(NotationError) as error:
        parse_hole(text, G6)
    assert str(error.value) == message
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("text, message", [
    ("4X", "'4X' is not a twist: write the block number then R (clockwise) or L (counter-clockwise), e.g. 4R"),
    ("5R", "'5R': there is no block 5 (blocks 1-4)"),
    ("R4", "'R4' is not a twist: write the block number then R (clockwise) or L (counter-clockwise), e.g. 4R"),
])
def test_bad_twists_say_what_is_wrong(text, message):
    with pytest.raises(NotationError) as error:
        parse_twist(text, G6)
    assert str(error.value) == message


def test_moves_parse_generously_and_print_canonically():
    assert parse_move("b5 4r", G6) == Move(parse_hole("b5", G6), Twist(4, True))
    assert move_name(parse_move("  2/5   1L ", G6), G6) == "e5 1L"
    assert parse_move("e1", G6) == Move(parse_hole("e1", G6))
    with pytest.raises(NotationError, match="is not a move"):
        parse_move("b5 4R 1L", G6)


@given(st.sampled_from([G6, G9]), st.data())
def test_moves_round_trip(g, data):
    hole = data.draw(st.integers(0, g.hole_count - 1))
    twist = data.draw(st.none() | st.builds(Twist, st.integers(1, g.block_count), st.booleans()))
    move = Move(hole, twist)
    assert parse_move(move_name(move, g), g) == move


def test_board_text_round_trips_and_rejects_bad_boards():
    p = Position.parse("x....o/" + "....../" * 4 + "..y...", colours=3)
    assert Position.parse(p.text(), colours=3) == p
    assert eval(repr(p), {"Position": Position}) == Position.parse(p.text())
    with pytest.raises(NotationError, match="has 'q'; holes are '.' or xoyz"):
        Position.parse("q" + "." * 35)
    with pytest.raises(NotationError, match="has 3 colours, more than 2"):
        Position.parse("y" + "." * 35, colours=2)
