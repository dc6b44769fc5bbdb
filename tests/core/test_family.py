"""The core plays the family through the registry: multiplayer and team games started by
command or menu, turn order past finished seats, winners' rows staying lit, the state the web
page reads, journal resume, polarity boards and the record the web console downloads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from controller.core import Core
from controller.daemon.web.record import game_record
from controller.events import ButtonPress, Command, Tick
from controller.profile import load_profile
from controller.games import parse_record, replay

from ..flow.rig import Rig

THREE = {"game": "multiplayer", "players": 3, "names": ["Ada", "Bo", "Cy"]}
# Seat 1 builds column a, seat 2 column c, seat 3 column e; nobody twists (blocks stay neutral).
FIRST_PLACE = ["a1", "c1", "e1", "a2", "c2", "e2", "a3", "c3", "e3", "a4", "c4", "e4", "a5"]


def rig9(start: dict | None = None, **kw) -> Rig:
    return Rig(profile_name="virtual-9x9", start=start, **kw)


def test_a_multiplayer_game_starts_by_command_with_names_seats_and_colours() -> None:
    rig = rig9(THREE)
    state = rig.core.state()
    assert rig.records[0] == {"t": 0.0, "kind": "start", "game": "multiplayer", "players": 3, "twist": "cw",
                              "neutral_skip": True, "computer": False, "hints": True, "names": ["Ada", "Bo", "Cy"],
                              "starter": 1}
    assert state["game"] == "multiplayer" and state["to_move"] == 1 and state["playing"] == [1, 2, 3]
    assert state["seats"] == [{"seat": 1, "name": "Ada", "colour": "white"}, {"seat": 2, "name": "Bo", "colour": "black"},
                              {"seat": 3, "name": "Cy", "colour": "red"}]
    assert state["options"]["twist"] == "cw" and state["standings"] == []
    assert "new game of Multiplayer Pentago: Ada to move" in rig.notices


@pytest.mark.parametrize(("profile", "args", "notice"), [
    ("virtual-6x6", {"game": "multiplayer", "players": 3},
     "new game: game 'multiplayer' is not played on the 6x6 board (games: classic, triple, puzzle)"),
    ("virtual-9x9", {"game": "multiplayer", "players": 5}, "new game: players 5: Multiplayer Pentago is for 2 to 4 players"),
    ("virtual-9x9", {"game": "teams", "computer": [5]},
     "new game: computer [5]: give true (seat 2), false (none) or a list of seats such as [2, 3]"),
])
def test_a_game_the_board_cannot_play_is_refused_with_a_notice(profile, args, notice) -> None:
    core = Core(load_profile(profile))
    assert core.handle(Command(0.0, "new_game", args)).notices == (notice,)
    assert core.state()["state"] == "choosing"


def test_turn_order_skips_the_finished_seat_and_its_row_stays_lit() -> None:
    rig = rig9(THREE)
    for move in FIRST_PLACE:
        rig.play(move)
    state = rig.core.state()
    assert state["standings"] == [[1]] and state["playing"] == [2, 3] and state["to_move"] == 2
    assert "Ada takes place 1" in rig.notices
    seats = []
    for move in ("h9", "h1", "g9", "g1"):
        rig.play(move)  # placed, its twist skipped by the next placement
        seats.append(rig.core.state()["to_move"])
        view = rig.core.view()
        assert view.line_colours == ("white",) and len(view.win_lines) == 1  # seat 1's row, lit on
    assert seats == [2, 3, 2, 3]
    assert rig.lit() == "turn:red red:g1 win:white:1"  # seat 3 placed (lit under it) and may still twist


def test_a_multiplayer_game_played_on_to_full_standings() -> None:
    rig = rig9(THREE)
    for move in FIRST_PLACE + ["c5"]:
        rig.play(move)
    state = rig.core.state()
    assert state["state"] == "game_over" and state["standings"] == [[1], [2], [3]]
    assert rig.records[-1]["kind"] == "end" and rig.records[-1]["standings"] == [[1], [2], [3]]
    assert rig.core.view().status == ("white", "black", "red")
    assert rig.core.view().line_colours == ("white", "black")


def test_the_menu_offers_the_family_on_9x9() -> None:
    rig = rig9()
    menu = rig.core.state()["menu"]
    assert menu["page"] == "game" and [o["value"] for o in menu["options"]] == ["classic", "multiplayer", "teams", "puzzle"]
    assert menu["options"][1]["means"] == "Multiplayer Pentago"
    rig.do("place", menu["holes"][1]); rig.wait(); rig.do("lift", menu["holes"][1]); rig.wait()
    menu = rig.core.state()["menu"]
    assert menu["page"] == "players" and [o["means"] for o in menu["options"]] == ["2 players", "3 players", "4 players"]
    rig.feed(ButtonPress(rig.t, "ok"))  # the default: three players
    assert rig.core.state()["menu"]["page"] == "twist"
    rig.feed(ButtonPress(rig.t, "ok"))
    assert rig.core.state()["menu"]["page"] == "computer"
    rig.feed(ButtonPress(rig.t, "ok"))  # no computer: the level page is not asked
    state = rig.core.state()
    assert state["state"] == "awaiting_placement" and state["options"] == {
        "game": "multiplayer", "players": 3, "twist": "cw", "neutral_skip": True, "computer": False, "hints": True}


def test_a_team_game_alternates_pairs_and_the_pair_wins() -> None:
    rig = rig9({"game": "teams"})
    for move in ["a1", "c1", "a2", "c2", "a3", "c3", "a4", "c4", "a5"]:
        rig.play(move)
    state = rig.core.state()
    assert state["outcome"]["winners"] == [1, 3] and state["standings"] == [[1, 3], [2, 4]]
    assert [s["colour"] for s in state["seats"]] == ["white", "black", "white", "black"]
    assert "standings: Seat 1 & Seat 3; Seat 2 & Seat 4 (five on placement)" in rig.notices


def test_journal_resume_of_a_multiplayer_game() -> None:
    rig = rig9(THREE)
    for move in FIRST_PLACE + ["h9"]:
        rig.play(move)
    before = rig.core.state()
    resumed = Core(rig.profile, journal_records=rig.records, start_time=100.0)
    after = resumed.state()
    assert resumed.resume.problem is None
    for key in ("state", "board", "moves", "to_move", "standings", "playing", "seats", "options"):
        assert after[key] == before[key], key
    assert resumed.view().line_colours == ("white",)


def test_a_polarity_board_judges_a_third_colour_by_whose_turn_it_is() -> None:
    profile = replace(load_profile("virtual-9x9"), sensing="polarity", colours={"north": "white", "south": "black"})
    core = Core(profile)
    core.handle(Command(0.0, "new_game", {"game": "multiplayer", "players": 3}))
    from controller.events import HoleReading
    for t, (hole, reading) in enumerate([(0, "white"), (2, "black"), (4, "white")], start=1):
        core.handle(HoleReading(float(t), hole, reading))  # seat 3's red marble reads white or black
        core.handle(Tick(t + 0.5))
    state = core.state()
    assert state["moves"][:2] == ["a1", "c1"] and state["phase"] == "twist" and state["to_move"] == 3


def test_the_downloaded_record_names_the_starter_and_the_right_winner_in_a_match() -> None:
    """The match bug: seat 2 started game 2 and won it, and the record said Result: 1."""
    rig = Rig(start={"game": "classic", "match": True})
    for move in ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"]:  # seat 1 wins game 1
        rig.play(move)
    for hole in ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"]:
        rig.do("lift", hole)
    rig.wait()
    assert rig.core.state()["state"] == "awaiting_placement" and rig.core.state()["to_move"] == 2
    for move in ["f1", "e1", "f2", "e2", "f3", "e3", "f4", "e4", "f5"]:  # seat 2 starts and wins
        rig.play(move)
    state = rig.core.state()
    assert state["outcome"]["winners"] == [2]
    text = game_record(state, "2026-11-30")
    record = parse_record(text)
    assert record.headers["Starter"] == "2" and record.headers["Result"] == "2"
    assert record.headers["Colours"] == "white, black" and record.headers["Date"] == "2026-11-30"
    assert replay(record).outcome.winners == (2,)


def test_a_counter_clockwise_twist_in_a_clockwise_only_game_is_turned_back() -> None:
    rig = rig9({"game": "multiplayer", "players": 3})
    rig.do("place", "d6")
    rig.wait()
    rig.do("quarter", 5, False)
    rig.wait(2.5)  # past the grace time
    state = rig.core.state()
    assert state["moves"] == [] and state["state"] == "repair" and state["phase"] == "twist"
    assert rig.lit() == "arrow:5R"  # turn it back the other way
    rig.do("quarter", 5, True)
    rig.wait()
    assert rig.core.state()["state"] == "awaiting_twist"
    rig.do("quarter", 5, True)  # the clockwise twist is the move
    rig.wait()
    assert rig.core.state()["moves"] == ["d6 5R"] and rig.core.state()["to_move"] == 2
