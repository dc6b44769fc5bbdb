"""Resuming from journal records: any content starts the core, and it keeps the longest prefix
of records that replays cleanly (issue 9, items 1, 2 and 4)."""

from __future__ import annotations

import pytest

from controller.core import Core
from controller.events import HoleReading, Tick
from controller.profile import load_profile

PROFILE = load_profile("virtual-6x6")
START = {"t": 1.0, "kind": "start", "game": "classic", "players": 2, "computer": False, "match": False, "starter": 1}
A1 = {"t": 2.0, "kind": "place", "hole": "a1"}
TWIST = {"t": 3.0, "kind": "twist", "twist": "1R"}


def resumed(records: list) -> Core:
    return Core(PROFILE, journal_records=records, start_time=10.0)


def test_a_journal_of_only_menu_starts_at_the_menu_with_nothing_to_set_aside() -> None:
    core = resumed([{"t": 1.0, "kind": "menu"}])  # what the daemon writes after OK at game over
    assert core.state()["state"] == "choosing"
    assert core.resume.problem is None and core.resume.used == 1


def test_a_kill_between_the_two_rewrites_of_a_new_game_resumes_the_game() -> None:
    core = resumed([{"t": 1.0, "kind": "menu"}, START])
    assert core.state()["state"] == "awaiting_placement"


BAD_RECORDS = [
    {"kind": "place", "hole": 5},  # AttributeError before the fix
    {"kind": "place", "hole": None},
    {"kind": "place"},
    {"kind": "place", "hole": "zz"},
    {"kind": "place", "hole": "a2"},  # a placement while a twist is due
    {"kind": "twist", "twist": 7},
    {"kind": "twist", "twist": "9R"},
    {"kind": "twist", "twist": ["1R"]},
    {"kind": "next_game"},  # no match between games
    {"kind": "start", "game": "classic", "players": "x"},  # TypeError before the fix
    {"kind": "start", "game": "classic", "players": True},
    {"kind": "start", "game": "classic", "players": 3},
    {"kind": "start", "game": 5, "players": 2},
    {"kind": "start", "game": "chess", "players": 2},
    {"kind": "start", "game": "classic", "players": 2, "match": "yes"},
    {"kind": "start", "game": "classic", "players": 2, "computer": 1},
    {"kind": "start", "game": "classic", "players": 2, "starter": "x"},
    {"kind": 3},
    {"kind": ["place"]},
    {"hole": "a2"},
    {"kind": "skip", "t": "noon"},
    {"kind": "skip", "t": True},
]


@pytest.mark.parametrize("bad", BAD_RECORDS, ids=repr)
def test_a_bad_record_keeps_the_records_before_it(bad: dict) -> None:
    core = resumed([START, A1, bad, TWIST])
    state = core.state()
    assert state["state"] == "awaiting_twist"  # start and a1 stand; the bad record and the rest go
    assert state["board"][-1] == "x....."
    assert core.resume.used == 2 and core.resume.total == 4
    assert core.resume.problem and "record 3" in core.resume.problem


@pytest.mark.parametrize("bad", BAD_RECORDS, ids=repr)
def test_a_bad_first_record_starts_at_the_menu(bad: dict) -> None:
    core = resumed([bad, START])
    assert core.state()["state"] == "choosing"
    assert core.resume.used == 0


def test_the_notice_names_the_record_and_the_reason() -> None:
    core = resumed([START, {"t": 2.0, "kind": "place", "hole": 5}])
    notices = core.handle(Tick(10.0)).notices
    assert any("record 2" in n and "hole" in n and "5" in n for n in notices), notices


def test_moves_after_a_game_ended_are_not_played() -> None:
    # seat 1 makes five in column a on placement; every twist turns the empty block 4
    records = [START]
    for white, black in zip(["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"]):
        records += [{"kind": "place", "hole": white}, {"kind": "twist", "twist": "4R"},
                    {"kind": "place", "hole": black}, {"kind": "twist", "twist": "4R"}]
    records += [{"kind": "place", "hole": "a5"}, {"kind": "end", "result": "win", "winners": [1]},
                {"kind": "place", "hole": "f5"}]
    core = resumed(records)
    assert core.state()["state"] == "game_over"
    assert core.resume.used == len(records) - 1


def test_a_replay_that_fails_unexpectedly_still_starts_at_the_menu(monkeypatch) -> None:
    from controller.flow import PlaceTwistFlow

    def broken(self, action, t):
        raise RuntimeError("a bug in replay")

    monkeypatch.setattr(PlaceTwistFlow, "apply", broken)
    core = resumed([START, A1])
    assert core.state()["state"] == "choosing"
    assert core.resume.used == 0 and "a bug in replay" in core.resume.problem


# -- item 4: an empty board after a resume is a repair, never a take-back ------------------------

def settle(core: Core, t: float) -> None:
    for step in range(1, 40):
        core.handle(Tick(t + step * 0.1))


@pytest.mark.parametrize("records", [[START, A1], [START, A1, TWIST],
                                     [START, A1, TWIST, {"kind": "place", "hole": "f6"}]], ids=len)
def test_a_resume_on_an_empty_board_never_takes_back_the_only_marble(records: list) -> None:
    core = resumed(records)
    journalled = []
    for step in range(40):
        journalled += core.handle(Tick(10.0 + step * 0.1)).records
    assert journalled == []
    state = core.state()
    assert state["state"] == "repair" and state["repair"][0].startswith("put")


def test_after_the_marble_is_put_back_a_take_back_works_again() -> None:
    core = resumed([START, A1, TWIST])  # block 1 is empty: the twist leaves a1 where it was
    settle(core, 10.0)
    assert core.state()["repair"] == ["put a white marble on a1"]
    core.handle(HoleReading(15.0, 0, "marble"))
    settle(core, 15.0)
    assert core.state()["state"] == "awaiting_placement"
    core.handle(HoleReading(20.0, 0, "empty"))  # now lifting it is the players' take-back
    records = []
    for step in range(1, 40):
        records += core.handle(Tick(20.0 + step * 0.1)).records
    assert [r["kind"] for r in records] == ["take_back", "take_back"]
