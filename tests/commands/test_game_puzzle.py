"""`pentago-board game --variant puzzle` and `pentago-board pictures`: the steps as the issue
writes them (removals with a leading dash too), the JSON keys to the letter, refusals that name
the step and the rule, and the library listing and drawing."""

import json
import subprocess
import sys

import pytest

from controller.cli import main

H = ("--variant", "puzzle", "--picture", "h")
PASS = ("-c2", "5R", "c2", "5L")  # B off c2, the middle block turned; put back, turned back
FAIL = ("-c2", "5R", "d2", "5L")  # put back one hole off


def puzzle_json(capsys, *args):
    assert main(["game", *H, "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_keys_are_the_issues_to_the_letter(capsys):
    out = puzzle_json(capsys, "--players", "3", *PASS, *FAIL)
    assert out == {
        "board": [".........", "..B...B..", "..B...B..", "..B...B..", "..BBBBB..",
                  "..B...B..", "..B...B..", "..B...B..", "........."],
        "k": 1,
        "stage": 1,
        "restorer": 3,
        "dismantler": 1,
        "rounds": [{"restorer": 1, "dismantler": 2, "k": 1, "passed": True},
                   {"restorer": 2, "dismantler": 3, "k": 1, "passed": False}],
        "outcome": {"result": "none", "winners": [], "eliminated": [2]},
    }


def test_a_whole_game_with_rising_k_to_the_winner(capsys):
    stage_2 = ("-c2", "-g2", "5R", "5R", "c2", "5L", "g2", "5L")
    out = puzzle_json(capsys, "--players", "2", *PASS, *PASS, *stage_2, "-c2", "-g2", "5R", "5R", "c2", "5L", "d2", "5L")
    assert [r["k"] for r in out["rounds"]] == [1, 1, 2, 2]
    assert out["outcome"] == {"result": "win", "winners": [1], "eliminated": [2]}
    assert out["restorer"] is None and out["dismantler"] is None


def test_the_board_mid_round_shows_the_dismantle(capsys):
    out = puzzle_json(capsys, "-c2", "5R")
    assert out["board"][7] == "......B.."  # c2 taken out
    assert out["board"][3:6] == ["..B.B.B..", "..B.B.B..", "..B.B.B.."]  # the crossbar turned upright


def test_a_many_coloured_picture_takes_colour_letters(capsys):
    out = puzzle_json(capsys, "--picture", "house", "-e9", "1R", "Re9", "1L")
    assert out["rounds"] == [{"restorer": 1, "dismantler": 2, "k": 1, "passed": True}]


def test_the_6x6_board_and_the_start_k(capsys):
    out = puzzle_json(capsys, "--board", "6x6", "--start-k", "2", "-b5", "-e5", "1R", "2R")
    assert out["k"] == 2 and len(out["board"]) == 6


def test_a_picture_file(tmp_path, capsys):
    mine = tmp_path / "mine.txt"
    mine.write_text("Mine\nW . . . . .\n" + ". . . . . .\n" * 5)
    out = puzzle_json(capsys, "--picture", str(mine), "-a6", "4R", "a6", "4L")
    assert out["rounds"][0]["passed"] is True


def test_text_output_names_the_rounds_and_whose_turn(capsys):
    assert main(["game", *H, "--players", "3", *PASS, *FAIL]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "H" and lines[1] == "9 . . . . . . . . ."
    assert lines[-3:] == [
        "round 1 (stage 1, k = 1): seat 1 restored, seat 2 dismantled: passed",
        "round 2 (stage 1, k = 1): seat 2 restored, seat 3 dismantled: failed (the board differs from the picture): seat 2 is out",
        "stage 1, k = 1: seat 1 dismantles (1 removal and 1 twist to go), then seat 3 restores",
    ]


@pytest.mark.parametrize("steps, message", [
    (("-c2", "-g2"), "step 2: -g2: the dismantle has its 1 removal at k = 1; 1 twist to go"),
    (("-c2", "5R", "-g2"), "step 3: -g2: seat 1 is restoring (a placement then a twist, 1 time); a placed stone is never taken back"),
    (("-c2", "5R", "5L"), "step 3: 5L: the restore places a stone before each twist; seat 1 places next"),
    (("c2",), "step 1: c2: seat 2 is dismantling (1 removal and 1 twist to go); stones are placed in the restore"),
    (("-c2", "5X"), "step 2: '5X' is not a twist: write the block number then R (clockwise) or L (counter-clockwise), e.g. 4R"),
    (("-h5",), "step 1: -h5: hole h5 is empty; nothing to remove"),
])
def test_a_wrong_step_exits_2_naming_the_step_and_the_rule(capsys, steps, message):
    assert main(["game", *H, *steps]) == 2
    assert capsys.readouterr().err.strip() == f"pentago-board game: {message}"


@pytest.mark.parametrize("args, message", [
    (("--variant", "puzzle"), "--variant puzzle needs --picture NAME_OR_FILE (see pentago-board pictures)"),
    ((*H, "--players", "5"), "players must be 2 to 4, not 5"),
    ((*H, "--start-k", "18"), "the starting k 18 is more than the picture's 17 stones"),
    (("--variant", "puzzle", "--picture", "four-w", "--board", "6x6"), "no picture 'four-w' for the 6x6 board"),
    (("--variant", "puzzle", "--picture", "nowhere/mine.txt"), "[Errno 2] No such file or directory: 'nowhere/mine.txt'"),
    (("--picture", "h", "b5", "4R"), "--picture is an option of --variant puzzle only"),
])
def test_a_bad_setup_exits_2_saying_what_is_wrong(capsys, args, message):
    assert main(["game", *args]) == 2
    assert capsys.readouterr().err.strip().startswith(f"pentago-board game: {message}")


def test_removal_steps_reach_the_referee_from_a_real_shell():
    done = subprocess.run([sys.executable, "-m", "controller", "game", *H, "--json", "-h5"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "-h5: hole h5 is empty" in done.stderr  # not taken for -h


def test_pictures_lists_the_library_with_difficulty(capsys):
    assert main(["pictures", "--board", "9x9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 12
    assert lines[0].split()[:4] == ["9x9", "red-cross", "Red", "Cross"]
    assert "difficulty 5/5" in lines[-1] and "jackson-pollock" in lines[-1]
    assert main(["pictures"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 12 + 11


def test_pictures_show_draws_one(capsys):
    assert main(["pictures", "show", "Love", "--board", "6x6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["Love", "6 . R . . R .", "5 R . R R . R"]
    assert lines[-1].startswith("difficulty ")


@pytest.mark.parametrize("args, message", [
    (("show",), "'show': write 'pictures' to list them, or 'pictures show NAME'"),
    (("show", "unicorn"), "no picture 'unicorn' for the 9x9 board (pictures: red-cross,"),
])
def test_pictures_refuses_what_it_cannot_show(capsys, args, message):
    assert main(["pictures", *args]) == 2
    assert capsys.readouterr().err.startswith(f"pentago-board pictures: {message}")
