"""What a player sees under a new marble (issue 31, item 4): its hole glows dim in its colour
from the moment the board reads it, full once the referee has accepted it (until its twist),
and nothing once the twist is in. The rule that decides a marble is there is unchanged: the
light only shows the board's reading before it is sure. Once lit, the dim light holds through a
gap in the reading shorter than settle_s (a bounce never flickers) and goes dark settle_s after
a marble is lifted for good (the issue's closing note, shortcoming 1)."""

from __future__ import annotations

from typing import Any

import pytest

from controller.core import Effects
from controller.events import Tick
from controller.lights.render import OFF, rgb, scale
from controller.lights.scenes import SENSED_LEVEL
from controller.rules import parse_hole

from .test_at_once import STEADY, Board, G


def light(board: Board, name: str) -> tuple[int, int, int]:
    """The LED under hole ``name`` as the core last lit it (the virtual board draws this frame)."""
    core = board.core
    return core.display.frame[core.chain.hole_pixel[parse_hole(name, G)]]


DIM_WHITE, FULL_WHITE, FULL_BLACK = scale(rgb("white"), SENSED_LEVEL), rgb("white"), rgb("black")


def test_a_marble_read_glows_dim_then_full_once_accepted_then_off_after_its_twist() -> None:
    board = Board().read(1.0, "c3")
    assert board.accepted_at("place") == [] and light(board, "c3") == DIM_WHITE  # read, not yet sure
    assert board.core.state()["frame"][board.core.chain.hole_pixel[parse_hole("c3", G)]] == list(DIM_WHITE)  # the page's
    board.until(1.5)
    assert board.accepted_at("place") == [1.0 + STEADY] and light(board, "c3") == FULL_WHITE
    board.turn(2.0, 2, 6).until(3.0)  # block 2 (empty): c3 stays put
    assert board.moves == ["c3 2R"] and light(board, "c3") == OFF


class Watched(Board):
    """A :class:`Board` that keeps every frame the core lights, with its time."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, tuple[tuple[int, int, int], ...]]] = []
        super().__init__()

    def feed(self, event: Any) -> None:
        while (deadline := self.core.next_deadline()) is not None and deadline < event.t:
            self.take(self.core.handle(Tick(deadline)))
        self.take(self.core.handle(event))

    def take(self, effects: Effects) -> None:
        self.records += effects.records
        self.notices += effects.notices
        if effects.frame is not None:
            self.frames.append((self.core.now, effects.frame))

    def shown(self, name: str) -> list[tuple[float, tuple[int, int, int]]]:
        """Each change of the LED under hole ``name``, with its time."""
        index, changes = self.core.chain.hole_pixel[parse_hole(name, G)], []
        for t, frame in self.frames:
            if not changes or changes[-1][1] != frame[index]:
                changes.append((t, frame[index]))
        return changes


def test_a_bouncing_marble_glows_dim_without_a_break_until_it_is_accepted() -> None:
    """A bounce (the reading there, gone for 10 ms, back) shows no dark frame between the dim
    ones: the light holds through a gap shorter than settle_s (issue 31 shortcoming 1)."""
    board = Watched().read(1.0, "d4").read(1.01, "d4", "empty")
    assert light(board, "d4") == DIM_WHITE  # the bounce: still dim
    board.read(1.02, "d4").until(1.5)
    assert board.accepted_at("place") == [1.02 + STEADY]
    assert board.shown("d4") == [(0.0, OFF), (1.0, DIM_WHITE), (1.02 + STEADY, FULL_WHITE)]


def test_a_marble_lifted_for_good_goes_dark_once_its_reading_has_been_gone_for_the_settle_time() -> None:
    board = Watched().read(1.0, "d4").read(1.01, "d4", "empty").read(1.02, "d4").read(1.03, "d4", "empty")
    assert light(board.until(1.1), "d4") == DIM_WHITE  # gone 70 ms: it may still be a bounce
    board.until(2.0)
    settle = board.core.settle_s
    assert board.moves == [] and board.shown("d4") == [(0.0, OFF), (1.0, DIM_WHITE), (pytest.approx(1.03 + settle), OFF)]


def test_marbles_lifted_after_a_while_unaccepted_go_dark_at_the_settle_time() -> None:
    """Two new marbles at once cannot be told apart: neither is accepted, both glow dim for as
    long as they sit; lifted, each goes dark settle_s after it left (at a Tick of its own)."""
    board = Watched().read(1.0, "c3").read(1.01, "d4").until(1.9)
    assert board.moves == [] and light(board, "c3") == light(board, "d4") == DIM_WHITE
    board.read(2.0, "c3", "empty").read(2.01, "d4", "empty").until(2.1)
    assert light(board, "c3") == light(board, "d4") == DIM_WHITE
    board.until(4.0)
    settle = board.core.settle_s
    assert board.moves == [] and board.state == "awaiting_placement"
    assert board.shown("c3")[-1] == (pytest.approx(2.0 + settle), OFF)
    assert board.shown("d4")[-1] == (pytest.approx(2.01 + settle), OFF)


def test_a_tape_s_bouncing_marbles_never_go_dark_between_their_first_and_full_light() -> None:
    """The tape builder's bounces (10-50 ms out of the hole, twice per marble here): each hole
    lights dim at its first reading and stays lit until it is full."""
    from controller.commands.replay import core_for, drive, start
    from controller.tape import read_tape

    from .tapebuilder import TapeBuilder

    b = TapeBuilder(seed=3)
    b.pause(1.0)
    for move in ("c3 2R", "d4 1L", "b5 3R"):
        b.play(move, bounce=2)
    tape = read_tape(b.lines())
    core = core_for(tape.header, steady_s=STEADY)
    start(core, tape.header)
    lit: dict[str, list[tuple[int, int, int]]] = {"c3": [], "d4": [], "b5": []}
    for effects in drive(core, tape.events):
        for name, seen in lit.items():
            if effects.frame is not None:
                seen.append(effects.frame[core.chain.hole_pixel[parse_hole(name, G)]])
    assert core.flow.move_texts() == ["c3 2R", "d4 1L", "b5 3R"]
    for name, seen in lit.items():
        first = seen.index(next(rgb for rgb in seen if rgb != OFF))
        full = next(n for n, rgb in enumerate(seen) if rgb in (FULL_WHITE, FULL_BLACK))
        assert OFF not in seen[first:full], name


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
    assert seen.placements == 2 and seen.unread == seen.together == seen.dark == 0  # the bounces: dim throughout
    assert seen.first == [0.0, 0.0]
    steady = DEFAULTS["steady_s"]
    assert seen.full[0] == seen.accepted[0] == pytest.approx(steady)
    assert seen.full[1] == seen.accepted[1] > steady  # the bounces: the rule waits for the last reading to stand
