"""The self-test on the virtual board, with the test playing the person at the board."""

from __future__ import annotations

from controller.daemon.selftest import SelfTest
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.events import EncoderSteps, HoleReading
from controller.profile import load_profile

PROFILE = load_profile("virtual-6x6")


class FaultyBoard:
    """A virtual board whose sensor under ``dead_hole`` and encoder ``dead_block`` never report,
    and whose encoder ``backwards_block`` has its A and B wires swapped."""

    def __init__(self, board: VirtualBoard, dead_hole=None, dead_block=None, backwards_block=None):
        self.board, self.dead_hole, self.dead_block, self.backwards = board, dead_hole, dead_block, backwards_block

    def start(self, emit):
        def filtered(event):
            if isinstance(event, HoleReading) and event.hole == self.dead_hole:
                return
            if isinstance(event, EncoderSteps) and event.block == self.dead_block:
                return
            if isinstance(event, EncoderSteps) and event.block == self.backwards:
                event = EncoderSteps(event.t, event.block, -event.steps)
            emit(event)

        self.board.start(filtered)

    def stop(self):
        self.board.stop()


def person(board: VirtualBoard, said: list[str]):
    """Does what the self-test asks, on the virtual board."""

    def act(text: str) -> None:
        said.append(text)
        if text.startswith("place"):
            for hole in range(36):
                board.place(hole)
        elif text.startswith("lift"):
            for hole in range(36):
                board.lift(hole)
        elif text.startswith("turn block"):
            board.quarter(int(text.split()[2]), clockwise=True)

    return act


def run(inputs, board, timeout_s=0.3):
    pixels, said = VirtualPixels(PROFILE.leds.length), []
    result = SelfTest(PROFILE, inputs, pixels, say=person(board, said), timeout_s=timeout_s,
                      chase_s=0).run()
    return result, pixels, said


def test_a_working_board_passes_and_the_chase_runs_in_chain_order():
    board = VirtualBoard.from_profile(PROFILE)
    result, pixels, said = run(board, board)
    assert result.ok, result.problems
    chase = [frame for frame in pixels.frames if sum(1 for rgb in frame if rgb != (0, 0, 0)) == 1]
    lit = [next(i for i, rgb in enumerate(frame) if rgb != (0, 0, 0)) for frame in chase[:PROFILE.leds.length]]
    assert lit == list(range(PROFILE.leds.length))
    assert said[1:3] == ["place a marble on each lit hole", "lift every marble off the board"]
    assert said[-1] == "turn block 4 a quarter turn clockwise"
    assert pixels.closed


def test_dead_sensor_dead_encoder_and_swapped_wires_are_reported():
    board = VirtualBoard.from_profile(PROFILE)
    c3 = 2 * 6 + 2
    faulty = FaultyBoard(board, dead_hole=c3, dead_block=2, backwards_block=3)
    result, _, _ = run(faulty, board)
    assert result.problems == [
        "dead sensor: c3 never saw a marble",
        "dead sensor: c3 never saw the marble gone",
        "dead encoder: block 2 sent 0 of 6 steps",
        "encoder of block 3 counts backwards: swap its A and B wires (or its pins in the profile)",
    ]


def test_lit_holes_go_out_as_their_marbles_arrive():
    board = VirtualBoard.from_profile(PROFILE)
    pixels = VirtualPixels(PROFILE.leds.length)
    test = SelfTest(PROFILE, board, pixels, say=lambda text: None, timeout_s=0.2, chase_s=0)
    board.start(test.events.put)
    test.drain()
    board.place("a1")
    assert test.holes("place", present=True)[0] == "dead sensor: b1 never saw a marble"
    lit_after_a1 = pixels.frames[-1]
    assert lit_after_a1[PROFILE.leds.hole_pixel[0]] == (0, 0, 0)
    assert lit_after_a1[PROFILE.leds.hole_pixel[1]] != (0, 0, 0)
