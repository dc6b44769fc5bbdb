"""Whole classic games recorded as noisy tapes replay to the moves the players meant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands.replay import replay
from controller.tape import read_tape

TAPES = sorted((Path(__file__).resolve().parents[1] / "data" / "tapes").glob("*.jsonl"))


def expected(tape: Path) -> dict:
    return json.loads(tape.with_name(tape.stem + ".expected.json").read_text())


def test_every_scenario_has_a_tape() -> None:
    assert len(TAPES) >= 10


def without_times(result: dict) -> dict:
    """The result but its ``accepted`` times: the tape's expected result says what was played,
    not when the core saw it."""
    return {key: value for key, value in result.items() if key != "accepted"}


@pytest.mark.parametrize("tape", TAPES, ids=lambda p: p.stem)
def test_replay_gives_the_expected_moves_outcome_and_repairs(tape: Path) -> None:
    assert without_times(replay(read_tape(tape))) == expected(tape)


@pytest.mark.parametrize("tape", TAPES, ids=lambda p: p.stem)
def test_every_move_is_accepted_after_a_sensor_event_of_the_tape(tape: Path) -> None:
    """One entry per move; its last change is the time of an event on the tape (a reading or a
    step, never a tick), and the move was accepted at it or after it."""
    recorded = read_tape(tape)
    times = {event.t for event in recorded.events}
    accepted = replay(recorded)["accepted"]
    assert [entry["move"] for entry in accepted] == expected(tape)["moves"]
    for entry in accepted:
        assert set(entry) == {"move", "last_change_t", "accepted_t"}
        assert entry["last_change_t"] in times and entry["last_change_t"] <= entry["accepted_t"], entry


def test_replay_json_prints_exactly_the_result(capsys) -> None:
    tape = TAPES[0]
    assert main(["replay", "--json", str(tape)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert without_times(printed) == expected(tape) and printed == replay(read_tape(tape))


def test_replay_text_lists_moves_and_outcome(capsys) -> None:
    tape = next(t for t in TAPES if t.stem == "win_on_placement")
    assert main(["replay", str(tape)]) == 0
    out = capsys.readouterr().out.splitlines()
    moves = expected(tape)["moves"]
    assert out[0] == f"1. {moves[0]}"
    assert out[len(moves) - 1] == f"{len(moves)}. {moves[-1]}"
    assert out[-2:] == ["seat 1 wins" if expected(tape)["outcome"]["winners"] == [1] else "seat 2 wins", "repairs: 0"]


def test_malformed_line_exits_2_naming_the_line(tmp_path: Path, capsys) -> None:
    lines = TAPES[0].read_text().splitlines()[:4] + ['{"t": 99, "hole": "z9", "reading": "marble"}']
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["replay", "--json", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "line 5:" in captured.err and "'z9'" in captured.err


def test_missing_tape_exits_2(tmp_path: Path, capsys) -> None:
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl" in capsys.readouterr().err


def test_a_tape_that_ends_mid_game_has_no_outcome(tmp_path: Path) -> None:
    lines = TAPES[0].read_text().splitlines()[:30]
    result = replay(read_tape(lines))
    assert result["outcome"] == {"result": "none", "winners": []}
    assert result["moves"] == expected(TAPES[0])["moves"][: len(result["moves"])]


def test_draw_and_win_scenes_at_the_end_of_tapes() -> None:
    from controller.commands.replay import core_for, drive, start

    views = {}
    for name in ("draw_after_twist", "win_on_placement"):
        tape = read_tape(next(t for t in TAPES if t.stem == name))
        core = core_for(tape.header)
        start(core, tape.header)
        drive(core, tape.events)
        views[name] = core.view()
    assert views["draw_after_twist"].draw and len(views["draw_after_twist"].win_lines) >= 2
    win = views["win_on_placement"]
    assert not win.draw and win.win_colour == "white" and len(win.win_lines) == 1


def test_marbles_left_at_the_start_are_repaired_first_then_play_goes_on() -> None:
    lines = ['{"tape": 1, "board": "6x6", "sensing": "presence", "detents_per_quarter": 6, "game": "classic",'
             ' "start": [{"hole": "d4", "reading": "marble"}]}',
             '{"t": 1.0, "hole": "d4", "reading": "empty"}',
             '{"t": 2.0, "hole": "a1", "reading": "marble"}']
    assert replay(read_tape(lines)) == {"moves": [], "outcome": {"result": "none", "winners": []}, "repairs": 1,
                                        "accepted": []}


def test_multiplayer_and_team_tapes_replay_to_the_standings(capsys) -> None:
    three = next(t for t in TAPES if t.stem == "multiplayer_three_to_full_standings")
    result = replay(read_tape(three))
    assert result["standings"] == [[1], [2], [3]]  # a first place, then the others played on for second
    assert without_times(result) == expected(three)
    teams = next(t for t in TAPES if t.stem == "teams_win")
    assert replay(read_tape(teams))["standings"] == [[1, 3], [2, 4]]
    assert main(["replay", str(teams)]) == 0
    assert "standings: 1, 3; 2, 4" in capsys.readouterr().out
