"""`pentago-board game`: the referee on the command line."""

import json
import subprocess
import sys

from controller.cli import main

WIN = ["a1 2R", "b2 2R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R", "a5"]


def run_json(capsys, *moves):
    assert main(["game", "--variant", "classic", "--json", *moves]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_for_a_running_game(capsys):
    out = run_json(capsys, "b5 4R", "a1", "1L")
    assert out == {
        "board": ["......", ".x....", "......", "......", "......", "o....."],
        "to_move": 1,
        "outcome": {"result": "none", "winners": [], "lines": []},
    }


def test_json_for_a_win_names_the_line(capsys):
    out = run_json(capsys, *WIN)
    assert out["outcome"] == {"result": "win", "winners": [1], "lines": [["a1", "a2", "a3", "a4", "a5"]]}
    assert out["to_move"] is None


def test_text_board_rows_6_to_1(capsys):
    assert main(["game", *WIN]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "6 . . . . . ."
    assert text.splitlines()[6] == "  a b c d e f"
    assert "seat 1 wins (five on placement): a1 a2 a3 a4 a5" in text


def test_illegal_move_exits_2_naming_the_move_and_rule(capsys):
    assert main(["game", "a1 2R", "a1 1L"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "pentago-board game: move 2: illegal move 'a1 1L': hole a1 is already taken"


def test_malformed_move_exits_2():
    done = subprocess.run(
        [sys.executable, "-m", "controller", "game", "b5 4R", "q9"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "move 2: 'q9' is not a hole on the 6x6 board" in done.stderr
