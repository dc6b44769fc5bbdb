"""What a player sees of a twist before it is accepted (issue 31, item 4's closing note,
shortcoming 2): while a twist is due, a block the board reads turning lights its arrow's way
dim and steady in the mover's colour from the encoder's first step; once the twist is accepted
the arrow goes dark and the turn light moves on (that is the twist's full light). Never in
repair mode, never while a marble is awaited (the next seat's turn), never for a block left a
detent off before the twist was due."""

from __future__ import annotations

from controller.lights.render import OFF, rgb, scale
from controller.lights.scenes import SENSED_LEVEL

from .test_at_once import Board

DIM_WHITE, DIM_BLACK = scale(rgb("white"), SENSED_LEVEL), scale(rgb("black"), SENSED_LEVEL)


def arrow(board: Board, block: int, clockwise: bool) -> list[tuple[int, int, int]]:
    """The LEDs of ``block``'s arrow that way, as the core last lit them."""
    frame = board.core.display.frame
    assert frame is not None
    return [frame[i] for i in board.core.chain.arrow_pixels[(block, clockwise)]]


def turn_light(board: Board) -> tuple[int, int, int]:
    frame = board.core.display.frame
    assert frame is not None
    return frame[board.core.chain.status_pixels[0]]


def test_a_block_turned_for_the_twist_due_lights_its_arrow_dim_from_the_first_step_until_accepted() -> None:
    board = Board().read(1.0, "c3").until(1.5)  # white's c3 accepted: white's twist is due
    assert board.state == "awaiting_twist" and arrow(board, 2, True) == [OFF] * 3
    board.turn(2.0, 2, 1)  # block 2 (empty), the first detent clockwise
    assert arrow(board, 2, True) == [DIM_WHITE] * 3 and arrow(board, 2, False) == [OFF] * 3
    board.turn(2.05, 2, 4)
    assert board.moves == [] and arrow(board, 2, True) == [DIM_WHITE] * 3  # steady: no chase
    board.turn(2.25, 2, 1).until(2.5)  # on the quarter: accepted
    assert board.moves == ["c3 2R"] and arrow(board, 2, True) == [OFF] * 3 and turn_light(board) == rgb("black")


def test_the_arrow_follows_the_way_the_block_turns_and_goes_dark_if_it_is_turned_back() -> None:
    board = Board().read(1.0, "c3").until(1.5).turn(2.0, 2, 6).until(3.0).read(3.5, "e2").until(4.0)  # black's e2: its twist due
    assert board.moves == ["c3 2R"] and board.state == "awaiting_twist"
    board.turn(4.5, 4, -2)
    assert arrow(board, 4, False) == [DIM_BLACK] * 3 and arrow(board, 4, True) == [OFF] * 3
    board.turn(4.6, 4, 2)  # turned back to where it stood: no turn read
    assert arrow(board, 4, False) == arrow(board, 4, True) == [OFF] * 3


def test_no_arrow_lights_while_a_marble_is_awaited() -> None:
    """A block turning while the next seat is to place is no twist of the seat to move (the
    last twist's end, a fiddle): nothing new lights, nor when a twist is due later for a block
    left a detent off before it was due."""
    board = Board().read(1.0, "c3").until(1.5).turn(2.0, 2, 6).until(3.0)  # c3 2R: black to place
    board.turn(3.5, 1, 1).until(3.6)  # block 1 (empty) a detent off, black's marble awaited
    assert arrow(board, 1, True) == [OFF] * 3 and board.state == "awaiting_placement"
    board.read(4.0, "e2").until(4.5)  # black's e2: its twist due, block 1 still a detent off
    assert board.state == "awaiting_twist" and arrow(board, 1, True) == [OFF] * 3
    board.turn(5.0, 1, 1)  # block 1 stepped since the twist became due: the mover's turn
    assert arrow(board, 1, True) == [DIM_BLACK] * 3


def test_no_arrow_lights_in_repair_mode() -> None:
    """Two marbles at once go to repair after the grace time: a block turned then lights the
    repair's guidance only, never a twist's arrow."""
    board = Board().read(1.0, "c3").read(1.01, "e5").until(4.0)
    assert board.state == "repair"
    board.turn(4.5, 2, 2)
    assert DIM_WHITE not in arrow(board, 2, True) + arrow(board, 2, False)
    assert DIM_BLACK not in arrow(board, 2, True) + arrow(board, 2, False)


def test_the_feedback_bench_measures_the_arrow_a_player_sees() -> None:
    """bench/feedback.py --seen's twist table: a block turned once its marble is in lights its
    arrow at its first step; the acceptance comes with the turn's end."""
    from bench.feedback import run_seen
    from controller.tape import read_tape

    from .tapebuilder import TapeBuilder

    b = TapeBuilder(seed=1)
    b.pause(1.0)
    b.play("c3 2R")
    b.play("d4 1L")
    seen = run_seen(iter([("two moves", (read_tape(b.lines()), ["c3 2R", "d4 1L"]))]))
    assert seen.twists == 2 and seen.unlit == 0 and seen.arrow == [0.0, 0.0]
    assert all(turned > 0.1 for turned in seen.turned)  # six detents and the turned marbles' readings
