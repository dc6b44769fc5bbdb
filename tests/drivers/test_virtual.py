"""The virtual board keeps the physical truth: marbles turn with their block, the link can drop."""

from __future__ import annotations

import random
import threading

import pytest

from controller.drivers.virtual import VirtualBoard, VirtualBoardError, VirtualPixels
from controller.events import EMPTY, MARBLE, ButtonPress, EncoderSteps, HoleReading, LinkChange
from controller.profile import load_profile
from controller.rules import geometry


def started(board: VirtualBoard) -> list:
    events: list = []
    board.start(events.append)
    events.clear()
    return events


def marbles_read(board: VirtualBoard) -> set[str]:
    return {board.name(h) for h in range(36) if board.reading(h) != EMPTY}


def test_a_quarter_turn_moves_the_blocks_marbles_with_it(clock):
    board = VirtualBoard(6, clock=clock, detents_per_quarter=6)
    for name in ("a6", "b6", "d6"):  # two in block 1, one in block 2
        board.place(name)
    events = started(board)
    board.quarter(1, clockwise=True)
    assert marbles_read(board) == {"c6", "c5", "d6"}
    assert [e for e in events if isinstance(e, EncoderSteps)] == [EncoderSteps(clock.t, 1, 1)] * 6
    changes = {(board.name(e.hole), e.reading) for e in events if isinstance(e, HoleReading)}
    assert changes == {("a6", EMPTY), ("b6", EMPTY), ("c6", MARBLE), ("c5", MARBLE)}


def test_counter_clockwise_undoes_clockwise_and_four_quarters_come_back(clock):
    board = VirtualBoard(6, clock=clock)
    board.place("d1")
    board.place("e2")
    board.quarter(4, clockwise=True)
    board.quarter(4, clockwise=False)
    assert marbles_read(board) == {"d1", "e2"}
    for _ in range(4):
        board.quarter(4, clockwise=True)
    assert marbles_read(board) == {"d1", "e2"}


def test_readings_hold_until_the_quarter_completes(clock):
    board = VirtualBoard(6, clock=clock, detents_per_quarter=6)
    board.place("a3")
    events = started(board)
    board.turn(3, 5)
    assert not any(isinstance(e, HoleReading) for e in events)
    board.turn(3, 1)
    assert marbles_read(board) == {"c3"}


def test_garbage_mode_reads_noise_mid_turn_and_the_truth_after(clock):
    board = VirtualBoard(6, clock=clock, detents_per_quarter=6, garbage=random.Random(7))
    board.place("a3")
    events = started(board)
    board.turn(3, 5)
    mid = [e for e in events if isinstance(e, HoleReading)]
    assert mid and {e.hole for e in mid} <= set(geometry(6).block_holes[2])
    board.turn(3, 1)
    last: dict[int, str] = {}
    for e in events:
        if isinstance(e, HoleReading):
            last[e.hole] = e.reading
    assert all(board.reading(h) == r for h, r in last.items())
    assert marbles_read(board) == {"c3"}


def test_polarity_boards_read_colours_and_need_one(clock):
    board = VirtualBoard(6, sensing="polarity", colours=("white", "black"), clock=clock)
    board.place("c3", "black")
    assert board.reading("c3") == "black"
    with pytest.raises(VirtualBoardError, match=r"give one of white, black for d3 \(got None\)"):
        board.place("d3")
    with pytest.raises(VirtualBoardError, match="give one of white, black for d3 .got 'red'"):
        board.place("d3", "red")


def test_presence_boards_keep_the_colour_for_display_but_read_marble(clock):
    board = VirtualBoard(6, clock=clock)
    board.place("c3", "red")
    assert board.reading("c3") == MARBLE
    assert board.lift("c3") == "red"


def test_the_virtual_profiles_board_reads_every_marble_colour(clock):
    """Colour sensing (the virtual profiles): any marble colour is read, so the game can check
    it; a marble put down with no colour (a test's shorthand) reads "marble"."""
    board = VirtualBoard.from_profile(load_profile("virtual-9x9"), clock=clock)
    assert board.sensing == "colour"
    for hole, colour in (("a1", "white"), ("b1", "black"), ("c1", "red"), ("d1", "green"), ("e1", "blue")):
        board.place(hole, colour)
        assert board.reading(hole) == colour
    board.place("f1")
    assert board.reading("f1") == MARBLE
    with pytest.raises(VirtualBoardError, match="'pink' is not a marble colour: give one of white, black"):
        board.place("g1", "pink")


def test_a_colour_board_mid_turn_reads_any_colour_as_garbage(clock):
    board = VirtualBoard(6, clock=clock, sensing="colour", detents_per_quarter=6, garbage=random.Random(3))
    board.place("a6", "red")
    board.turn(1, 1)
    readings = {board.reading(h) for h in geometry(6).block_holes[0] for _ in range(20)}
    assert readings <= {EMPTY, "white", "black", "blue", "yellow", "red", "green", "magenta"} and len(readings) > 2


@pytest.mark.parametrize("verb, message", [
    (lambda b: b.place("a1"), "hole a1 already holds a marble"),
    (lambda b: b.lift("b1"), "hole b1 is empty"),
    (lambda b: b.turn(5, 1), r"block 5 does not exist \(1-4\)"),
    (lambda b: b.press("menu"), r"button 'menu' does not exist \(ok, back\)"),
    (lambda b: b.place(36), "hole 36 is off the 6x board"),
])
def test_impossible_verbs_say_what_is_wrong(clock, verb, message):
    board = VirtualBoard(6, clock=clock)
    board.place("a1")
    with pytest.raises(VirtualBoardError, match=message):
        verb(board)


def test_no_marble_goes_in_or_out_of_a_block_mid_turn(clock):
    board = VirtualBoard(6, clock=clock, detents_per_quarter=6)
    board.turn(1, 2)
    with pytest.raises(VirtualBoardError, match="cannot place a marble in b5: block 1 is mid-turn"):
        board.place("b5")
    board.place("e5")  # block 2 is still


def test_buttons_and_times(clock):
    board = VirtualBoard(6, clock=clock)
    events = started(board)
    clock.advance(2.5)
    board.press("ok")
    assert events == [ButtonPress(102.5, "ok")]


def test_unplug_silences_and_replug_reports_the_board_as_it_is_now(clock):
    board = VirtualBoard(6, clock=clock)
    events = started(board)
    board.unplug()
    board.unplug()
    board.place("f6")
    board.turn(2, 1)
    board.press("ok")
    assert events == [LinkChange(clock.t, False, "unplugged")]
    board.replug()
    assert events[1] == LinkChange(clock.t, True, "replugged")
    snapshot = events[2:]
    assert len(snapshot) == 37 and snapshot[-1] == EncoderSteps(clock.t, 2, 1)  # the turn made meanwhile
    assert [board.name(e.hole) for e in snapshot[:36] if e.reading == MARBLE] == ["f4"]


def test_a_twist_made_while_unplugged_reaches_the_core_after_the_replug(clock):
    """As a real board's snapshot does (the MCU counts on): turned back and forth, the net
    detents per block; a block turned while unplugged was otherwise lost to the core, which
    then asked for repairs no hand could make (found by the core model)."""
    board = VirtualBoard(6, clock=clock, detents_per_quarter=6)
    events = started(board)
    board.unplug()
    board.turn(1, -2)
    board.turn(3, 6)
    board.turn(3, -6)
    board.replug()
    assert [e for e in events if isinstance(e, EncoderSteps)] == [EncoderSteps(clock.t, 1, -2)]
    board.unplug()
    board.replug()
    assert [e for e in events if isinstance(e, EncoderSteps)] == [EncoderSteps(clock.t, 1, -2)]  # sent once


def test_from_profile_takes_size_detents_buttons(clock):
    profile = load_profile("virtual-9x9")
    board = VirtualBoard.from_profile(profile, clock=clock)
    assert board.grid.size == 9 and board.detents_per_quarter == profile.detents_per_quarter
    assert board.buttons == ("ok", "back")  # the profile names none: the simulator's two
    events: list = []
    board.start(events.append)
    assert len(events) == 81


def test_verbs_from_many_threads_keep_events_consistent_with_the_truth(clock):
    board = VirtualBoard(6, clock=clock)
    events = started(board)
    holes = list(range(36))

    def worker(mine: list[int]) -> None:
        for _ in range(50):
            for hole in mine:
                board.place(hole)
            for hole in mine:
                board.lift(hole)

    threads = [threading.Thread(target=worker, args=(holes[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    per_hole: dict[int, list[str]] = {}
    for e in events:
        per_hole.setdefault(e.hole, []).append(e.reading)
    for readings in per_hole.values():
        assert readings == [MARBLE, EMPTY] * 50


def test_virtual_pixels_keep_changed_frames_only():
    pixels = VirtualPixels(2)
    assert pixels.last == ((0, 0, 0), (0, 0, 0))
    pixels.show([(1, 2, 3), (0, 0, 0)])
    pixels.show([(1, 2, 3), (0, 0, 0)])
    pixels.show([(9, 9, 9), (0, 0, 0)])
    assert pixels.frames == [((1, 2, 3), (0, 0, 0)), ((9, 9, 9), (0, 0, 0))]
    pixels.close()
    assert pixels.last == ((0, 0, 0), (0, 0, 0)) and pixels.closed


def test_virtual_pixels_refuse_a_frame_of_the_wrong_length():
    with pytest.raises(ValueError, match="frame has 3 pixels, the LED chain has 2"):
        VirtualPixels(2).show([(0, 0, 0)] * 3)
