"""What a player sees under a new marble (issue 31, item 4): its hole glows dim in its colour
from the moment the board reads it, full once the referee has accepted it (until its twist),
and nothing once the twist is in. The rule that decides a marble is there is unchanged: the
light only shows the board's reading before it is sure."""

from __future__ import annotations

import pytest

from controller.lights.render import OFF, rgb, scale
from controller.lights.scenes import SENSED_LEVEL
from controller.rules import parse_hole

from .test_at_once import STEADY, Board, G


def light(board: Board, name: str) -> tuple[int, int, int]:
    """The LED under hole ``name`` as the core last lit it (the virtual board draws this frame)."""
    core = board.core
    return core.display.frame[core.chain.hole_pixel[parse_hole(name, G)]]


DIM_WHITE, FULL_WHITE = scale(rgb("white"), SENSED_LEVEL), rgb("white")


def test_a_marble_read_glows_dim_then_full_once_accepted_then_off_after_its_twist() -> None:
    board = Board().read(1.0, "c3")
    assert board.accepted_at("place") == [] and light(board, "c3") == DIM_WHITE  # read, not yet sure
    assert board.core.state()["frame"][board.core.chain.hole_pixel[parse_hole("c3", G)]] == list(DIM_WHITE)  # the page's
    board.until(1.5)
    assert board.accepted_at("place") == [1.0 + STEADY] and light(board, "c3") == FULL_WHITE
    board.turn(2.0, 2, 6).until(3.0)  # block 2 (empty): c3 stays put
    assert board.moves == ["c3 2R"] and light(board, "c3") == OFF


def test_a_bounce_and_a_marble_lifted_before_it_counts_light_what_the_board_reads() -> None:
    board = Board().read(1.0, "d4").read(1.01, "d4", "empty")
    assert light(board, "d4") == OFF  # the bounce off: the light follows the reading
    board.read(1.02, "d4").read(1.03, "d4", "empty").until(2.0)
    assert board.moves == [] and light(board, "d4") == OFF  # lifted again: never accepted, never lit full


def test_a_turned_block_s_marbles_are_the_game_s_and_the_next_marble_glows_in_the_colour_due() -> None:
    """While a block turns, its holes read the marbles passing over and landing: no light (they
    are the game's once the twist is in). The next seat's marble glows in the colour due."""
    board = Board().read(1.0, "a6").turn(2.0, 1, 6).read(2.27, "a6", "empty").read(2.29, "c6")
    assert board.accepted_at("twist") == [] and light(board, "c6") == OFF  # landed, the twist not yet in
    board.until(3.0)
    assert board.moves == ["a6 1R"] and light(board, "c6") == OFF
    board.read(3.5, "e2")
    assert light(board, "e2") == scale(rgb("black"), SENSED_LEVEL)  # black to move: its violet light, dim
    board.until(4.0)
    assert light(board, "e2") == rgb("black") and board.state == "awaiting_twist"


def test_the_feedback_bench_measures_the_lights_a_player_sees() -> None:
    """bench/feedback.py --seen: a marble put down cleanly is lit (dim) the moment it is read and
    full steady_s later, when it is accepted; one that bounces is lit at its first reading and
    full once its last has stood."""
    from bench.feedback import DEFAULTS, run_seen
    from controller.tape import read_tape

    from .tapebuilder import TapeBuilder

    b = TapeBuilder(seed=1)
    b.pause(1.0)
    b.play("c3 2R")
    b.play("d4 1L", bounce=2)
    seen = run_seen(iter([("two moves", (read_tape(b.lines()), ["c3 2R", "d4 1L"]))]))
    assert seen.placements == 2 and seen.unread == seen.together == 0
    assert seen.first == [0.0, 0.0]
    steady = DEFAULTS["steady_s"]
    assert seen.full[0] == seen.accepted[0] == pytest.approx(steady)
    assert seen.full[1] == seen.accepted[1] > steady  # the bounces: the rule waits for the last reading to stand
