"""Picture-Puzzle through the core on the virtual 9x9 board: the build lit hole by hole, the show
ended by the core's clock, the restore's countdown on the status pixels and its time running
out, all from the flow's own deadlines."""

from __future__ import annotations

from controller.rules import hole_name
from controller.rules.puzzle.pictures import library_picture
from tests.flow.rig import Rig

ORION = library_picture("orion", 9)


def rig(**options) -> Rig:
    return Rig(sensing="colour", profile_name="virtual-9x9",
               start={"game": "puzzle", "picture": "orion", "players": 3, **options})


def build(r: Rig) -> None:
    for hole, colour in ORION.holes():
        r.do("place", hole_name(hole, r.profile.geometry), ("white", "black", "red", "green")[colour])
    r.wait()


def test_the_build_lights_the_holes_still_missing():
    r = rig()
    assert r.notices[-1] == "build Orion: put a stone on each lit hole, in its colour"
    assert len(r.core.view().holes) == 8
    r.do("place", "c7", "red")
    r.wait()
    assert "red:c7" not in r.lit() and len(r.core.view().holes) == 7


def test_the_show_ends_by_the_clock_then_the_dismantle_is_cued():
    r = rig(show_s=3)
    build(r)
    assert r.notices[-1] == "look at the picture, Seat 1 (3 s)"
    r.wait(1.0)
    assert r.core.flow.game.step == "show"
    r.wait(3.0)
    assert r.notices[-1] == "Seat 1: look away! Seat 2: dismantle now (1 stone out, 1 twist)"
    assert r.records[-1]["kind"] == "dismantle"


def test_the_restore_counts_down_and_fails_when_its_time_runs_out():
    r = rig(restore_limit_s=8)
    build(r)
    r.do("lift", "e8"); r.wait()
    r.do("quarter", 1, True); r.wait()
    assert r.notices[-1] == "Seat 1: restore now (8 s)"
    r.wait(2.5)  # 5.5 s or so left of 8: three of four status pixels
    assert r.core.view().status == ("white", "white", "white", "off")
    r.wait(6.0)
    assert r.records[-1]["kind"] == "time" and r.records[-1]["round"]["reason"] == "the restore ran out of time"
    assert "the restore ran out of time: Seat 1 is out" in r.notices
    assert r.core.flow.state == "guiding" and r.core.state()["state"] == "repair"  # the lights guide the picture back


def test_a_restore_run_out_of_time_guides_the_picture_back_not_the_board_before():
    """The repair lit during the restore (a stone taken out) was still lit after the time ran out,
    for a board the game no longer expected, until someone touched the board (found by the
    model: after the last round it stayed in the game-over state)."""
    r = rig(restore_limit_s=8)
    build(r)
    r.do("lift", "e8"); r.wait()
    r.do("quarter", 1, True); r.wait()
    r.do("lift", "h1"); r.wait(2.5)  # a restore never takes a stone out: putting it back is lit
    assert r.core.state()["repair"] == ["put a white marble on h1"]
    r.wait(6.0)
    assert r.records[-1]["kind"] == "time"
    assert r.core.state()["repair"] == ["remove the red marble on a7", "put a white marble on h1",
                                        "put a red marble on c7", "put a white marble on e8"]  # the picture's


def test_no_guidance_is_left_lit_when_the_last_round_runs_out_of_time():
    r = Rig(sensing="colour", profile_name="virtual-9x9",
            start={"game": "puzzle", "picture": "orion", "players": 2, "restore_limit_s": 8})
    build(r)
    r.do("lift", "e8"); r.wait()
    r.do("quarter", 1, True); r.wait()
    r.do("lift", "h1"); r.wait(2.5)
    r.wait(6.0)
    state = r.core.state()
    assert (state["state"], state["repair"]) == ("game_over", [])
