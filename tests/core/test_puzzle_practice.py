"""Picture-Puzzle practice through the core on the virtual 9x9 board: one child, the computer
dismantling. Its steps are lit one at a time (the stone to take out blinking, then the twist's
chasing arrow), only the lit step is taken, and the child's restore is judged as usual."""

from __future__ import annotations

import pytest

from controller.ai.puzzle import dismantle
from controller.core import Core
from controller.rules import hole_name
from controller.rules.puzzle.pictures import library_picture
from controller.rules.puzzle import PuzzleGame, PuzzleOptions
from controller.rules.puzzle.notation import Kind
from tests.flow.rig import Rig

ORION = library_picture("orion", 9)
COLOURS = ("white", "black", "red", "green")


def practice() -> Rig:
    r = Rig(sensing="colour", profile_name="virtual-9x9",
            start={"game": "puzzle", "picture": "orion", "players": 1, "practice": True})
    for hole, colour in ORION.holes():
        r.do("place", hole_name(hole, r.profile.geometry), COLOURS[colour])
    r.wait()
    return r


def test_the_computer_dismantles_step_by_step_and_a_passing_restore_raises_k():
    r = practice()
    game, g = r.core.flow.game, r.profile.geometry
    assert r.notices[-1] == "look away! the computer dismantles (1 stone out, 1 twist): do the lit steps"
    removal, twist = game.plan
    assert removal.kind is Kind.REMOVE and twist.kind is Kind.TWIST
    view = r.core.view()
    assert [(light.hole, light.colour, light.blink) for light in view.holes] == [(removal.hole, "remove", True)]
    assert not view.arrows and view.turn == "black"  # the computer's seat 2
    r.do("lift", hole_name(removal.hole, g)); r.wait()
    arrows = r.core.view().arrows
    assert [(a.block, a.clockwise, a.colour) for a in arrows] == [(twist.twist.block, twist.twist.clockwise, "prompt")]
    r.do("quarter", twist.twist.block, twist.twist.clockwise); r.wait()
    assert game.step == "restore" and r.notices[-1] == "Seat 1: restore now"
    # the child puts the stone where the twist took its hole, then turns the block back
    back = g.rotate(1 << removal.hole, twist.twist.block, twist.twist.clockwise).bit_length() - 1
    r.do("place", hole_name(back, g), COLOURS[ORION.position.colour_at(removal.hole)]); r.wait()
    r.do("quarter", twist.twist.block, not twist.twist.clockwise); r.wait()
    assert game.rounds[-1].passed and "Seat 1 restored the picture" in r.notices
    assert (game.k, game.stage, game.is_over()) == (2, 2, False)


def test_a_step_other_than_the_lit_one_is_refused_and_a_failed_restore_ends_the_practice():
    r = practice()
    game, g = r.core.flow.game, r.profile.geometry
    removal, twist = game.plan
    other = next(h for h, _ in ORION.holes() if h != removal.hole)
    r.do("lift", hole_name(other, g)); r.wait()
    assert any("the computer dismantles: -" in notice and "is lit" in notice for notice in r.notices)
    assert game.rounds == [] and len(game.plan) == 2
    r.do("place", hole_name(other, g), COLOURS[ORION.position.colour_at(other)]); r.wait()  # put back
    r.do("lift", hole_name(removal.hole, g)); r.wait()
    r.do("quarter", twist.twist.block, twist.twist.clockwise); r.wait()
    empty = next(h for h in range(g.hole_count) if not game.position.occupied >> h & 1
                 and not ORION.position.occupied >> h & 1 and g.block_of[h] != twist.twist.block)
    r.do("place", hole_name(empty, g), "white"); r.wait()
    r.do("quarter", twist.twist.block, not twist.twist.clockwise); r.wait()
    assert game.is_over() and game.rounds[-1].passed is False
    assert "practice over: restored up to k = 0" in r.notices
    assert r.records[-1]["kind"] == "end" and r.records[-1]["termination"] == "practice over"


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_the_game_s_level_reaches_the_computer_s_dismantle_and_its_start_record(level):
    r = Rig(sensing="colour", profile_name="virtual-9x9",
            start={"game": "puzzle", "picture": "orion", "players": 1, "practice": True, "start_k": 3, "level": level})
    for hole, colour in ORION.holes():
        r.do("place", hole_name(hole, r.profile.geometry), COLOURS[colour])
    r.wait()
    game = r.core.flow.game
    assert game.plan == list(dismantle(PuzzleGame(game.picture, game.options), seed=0, level=level))
    assert r.records[0]["kind"] == "start" and r.records[0]["level"] == level  # a resume plans alike


def test_the_levels_plan_different_dismantles():
    game = PuzzleGame(ORION, PuzzleOptions(players=1, practice=True, start_k=3))
    plans = {dismantle(game, seed=0, level=level) for level in (0, 1, 2, 3)}
    assert len(plans) == 4


def test_a_passing_restore_in_practice_keeps_the_state_and_the_summary_readable():
    r = practice()
    game, g = r.core.flow.game, r.profile.geometry
    removal, twist = game.plan
    r.do("lift", hole_name(removal.hole, g)); r.wait()
    r.do("quarter", twist.twist.block, twist.twist.clockwise); r.wait()
    back = g.rotate(1 << removal.hole, twist.twist.block, twist.twist.clockwise).bit_length() - 1
    r.do("place", hole_name(back, g), COLOURS[ORION.position.colour_at(removal.hole)]); r.wait()
    r.do("quarter", twist.twist.block, not twist.twist.clockwise); r.wait()
    assert game.rounds[-1].passed
    detail = r.core.state()["detail"]  # the computer dismantled as seat 2: it has a name too
    assert "1,1,1,Seat 1,Computer,passed" in detail["summary_csv"]
    # and a restart from the journal of that game resumes it (the same summary at every start)
    again = Core(r.profile, journal_records=r.records, start_time=r.t)
    assert again.resume.problem is None and again.state()["detail"]["summary_csv"] == detail["summary_csv"]
