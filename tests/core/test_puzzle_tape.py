"""A whole three-player Picture-Puzzle game recorded as a tape (9x9 presence board, k rising from
1 to 2, one failed restore guided back) replays through the core to the right winner."""

from __future__ import annotations

import json
from pathlib import Path

from controller.commands.replay import replay
from controller.tape import read_tape
from tests.core.test_tapes import without_times

TAPE = Path(__file__).resolve().parents[1] / "data" / "tapes" / "puzzle_three_players.jsonl"


def test_the_three_player_tape_replays_through_the_core_to_the_last_player_in():
    result = replay(read_tape(TAPE))
    assert without_times(result) == json.loads(TAPE.with_name(TAPE.stem + ".expected.json").read_text())
    assert result["outcome"] == {"result": "win", "winners": [1]} and result["eliminated"] == [3, 2]
    assert [line.count("-") for line in result["moves"]] == [1, 1, 1, 2, 2]  # k rose to 2 in the second stage


def test_the_expected_result_comes_from_the_scenario_not_the_core():
    from tests.core.make_puzzle_tape import expected

    assert expected() == json.loads(TAPE.with_name(TAPE.stem + ".expected.json").read_text())


def test_the_state_carries_the_round_in_hand_and_the_teachers_summary():
    from controller.commands.replay import core_for, drive, start

    tape = read_tape(TAPE)
    core = core_for(tape.header)
    start(core, tape.header)
    drive(core, tape.events)
    detail = core.state()["detail"]
    assert detail["picture"] == "H" and detail["step"] == "restore" and detail["k"] == 2 and detail["stage"] == 2
    assert detail["eliminated"] == [3, 2] and [r["passed"] for r in detail["rounds"]] == [True, True, False, True, False]
    lines = detail["summary_csv"].splitlines()
    assert "order of elimination,Seat 3,Seat 2" in lines and "winner,Seat 1" in lines
    assert lines[-1].startswith("fastest restorer,Seat ")  # the tape's times make a stopwatch
    assert core.state()["record"]["headers"]["Variant"] == "puzzle"
