"""The virtual board checks everything: it tells every marble colour apart, so a marble of the
wrong colour is no one's move, for classic and for the 9x9 family (issue 9, item 17; issue 12:
"the virtual board checks everything"). Polarity boards still check only their two colours."""

from __future__ import annotations

from ..flow.rig import Rig

GRACE = 2.5  # longer than the core's 2 s grace time


def places(rig: Rig) -> list[str]:
    return [r["hole"] for r in rig.records if r["kind"] == "place"]


def test_the_virtual_profiles_sense_colour() -> None:
    assert Rig(sensing="colour").profile.sensing == "colour"
    assert Rig(sensing="colour", profile_name="virtual-9x9").profile.sensing == "colour"


def test_a_black_marble_on_seat_1s_turn_is_refused_with_the_colour_due() -> None:
    rig = Rig(sensing="colour", start={"game": "classic"})
    rig.do("place", "c3", "black")
    rig.wait(GRACE)
    state = rig.core.state()
    assert places(rig) == [] and state["to_move"] == 1
    assert state["state"] == "repair"
    assert state["repair"] == ["remove the black marble on c3: the next marble is white"]
    rig.do("lift", "c3")
    rig.do("place", "c3", "white")
    rig.wait(GRACE)
    assert places(rig) == ["c3"] and rig.core.state()["state"] == "awaiting_twist"


def test_a_colour_no_seat_plays_is_named_and_refused() -> None:
    rig = Rig(sensing="colour", start={"game": "classic"})
    rig.do("place", "d4", "blue")
    rig.wait(GRACE)
    assert places(rig) == []
    assert rig.core.state()["repair"] == ["remove the blue marble on d4: the next marble is white"]


def test_a_colourless_marble_is_still_taken_from_the_turn() -> None:
    """A marble put down with no colour (a test's shorthand) reads "marble", as on presence."""
    rig = Rig(sensing="colour", start={"game": "classic"})
    rig.do("place", "c3")
    rig.wait()
    assert places(rig) == ["c3"]


def test_multiplayer_checks_the_third_seats_colour() -> None:
    rig = Rig(sensing="colour", profile_name="virtual-9x9",
              start={"game": "multiplayer", "players": 3})
    rig.do("place", "a1", "white")
    rig.wait()
    rig.do("place", "c1", "black")  # seat 1 skipped the twist; seat 2 placed
    rig.wait()
    rig.do("place", "e1", "green")  # seat 3 plays red
    rig.wait(GRACE)
    assert places(rig) == ["a1", "c1"]
    assert rig.core.state()["repair"] == ["remove the green marble on e1: the next marble is red"]
    rig.do("lift", "e1")
    rig.do("place", "e1", "red")
    rig.wait(GRACE)
    assert places(rig) == ["a1", "c1", "e1"] and rig.core.state()["to_move"] == 3
    assert rig.core.state()["physical"][-1] == "x.o.y...."  # the sensed colours, as the game's symbols


def test_team_play_checks_the_pairs_colour() -> None:
    rig = Rig(sensing="colour", profile_name="virtual-9x9", start={"game": "teams"})
    seats = [s["colour"] for s in rig.core.state()["seats"]]
    assert seats == ["white", "black", "white", "black"]
    for hole, colour in (("a1", "white"), ("c1", "black")):
        rig.do("place", hole, colour)
        rig.wait()
    rig.do("place", "e1", "black")  # seat 3 is white's partner
    rig.wait(GRACE)
    assert places(rig) == ["a1", "c1"]
    assert rig.core.state()["repair"] == ["remove the black marble on e1: the next marble is white"]


def test_a_polarity_board_still_takes_a_third_colour_from_the_turn() -> None:
    rig = Rig(sensing="polarity", profile_name="virtual-9x9",
              start={"game": "multiplayer", "players": 3})
    for hole, colour in (("a1", "white"), ("c1", "black"), ("e1", "white")):  # seat 3's marble reads a pole
        rig.do("place", hole, colour)
        rig.wait()
    assert places(rig) == ["a1", "c1", "e1"]
