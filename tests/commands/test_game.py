"""`pentago-board game`: the referee on the command line."""

import json
import subprocess
import sys

import pytest

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


def test_a_bad_twist_is_named_as_the_twist_not_as_the_next_move(capsys):
    assert main(["game", "b5", "4X"]) == 2  # issue 9, item 18: it blamed "'4X' is not a hole"
    err = capsys.readouterr().err.strip()
    assert err == ("pentago-board game: move 1: '4X' is not a twist: write the block number then R "
                   "(clockwise) or L (counter-clockwise), e.g. 4R")


# Three players, twists skipped (blocks 3, 6 and 9 stay empty): x fills a9-e9, o a5-e5, y scatters.
THREE = ["a9", "a5", "a1", "b9", "b5", "c1", "c9", "c5", "e1", "d9", "d5", "g1", "e9", "e5"]


def run_variant(capsys, *words):
    assert main(["game", *words]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_multiplayer_json_while_the_others_play_on(capsys):
    out = run_variant(capsys, "--variant", "multiplayer", "--players", "3", "--json", *THREE[:13])
    assert out["to_move"] == 2 and out["standings"] == [[1]]
    assert out["outcome"] == {"result": "none", "winners": [1], "standings": [[1]],
                              "lines": [["a9", "b9", "c9", "d9", "e9"]]}
    assert out["board"][0] == "xxxxx...."


def test_multiplayer_json_to_full_standings(capsys):
    out = run_variant(capsys, "--variant", "multiplayer", "--players", "3", "--json", *THREE)
    assert out["to_move"] is None and out["standings"] == [[1], [2], [3]]
    assert out["outcome"]["result"] == "win" and out["outcome"]["winners"] == [1]
    assert out["outcome"]["standings"] == [[1], [2], [3]]
    assert len(out["board"]) == 9 and out["board"][4] == "ooooo...."


def test_multiplayer_text_names_the_standings(capsys):
    assert main(["game", "--variant", "multiplayer", "--players", "3", *THREE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "9 x x x x x . . . ." and lines[9] == "  a b c d e f g h i"
    assert lines[10] == "seat 1 wins (five on placement): a9 b9 c9 d9 e9; a5 b5 c5 d5 e5"
    assert lines[11] == "standings: 1st seat 1; 2nd seat 2; 3rd seat 3"


def test_teams_json_win_names_both_partners(capsys):
    moves = ["a9", "a1", "b9", "b1", "c9", "c1", "d9", "d1", "e9"]  # seats 1, 3 play x; 2, 4 play o
    out = run_variant(capsys, "--variant", "teams", "--json", *moves)
    assert out["outcome"]["result"] == "win" and out["outcome"]["winners"] == [1, 3]
    assert out["standings"] == [[1, 3], [2, 4]]


def test_twist_both_allows_anticlockwise(capsys):
    out = run_variant(capsys, "--variant", "multiplayer", "--players", "2", "--twist", "both", "--json", "a9 1L")
    assert out["board"][2] == "x........" and out["standings"] == []


@pytest.mark.parametrize("words, message", [
    (["--variant", "multiplayer", "--players", "3", "e5 5L"],
     "move 1: illegal move 'e5 5L': 5L turns counter-clockwise; twists are clockwise only (R) in this game"),
    (["--variant", "teams", "e5 10R"], "move 1: '10R': there is no block 10 (blocks 1-9)"),
    (["--variant", "multiplayer", "--players", "4", "e5", "0R"], "move 1: '0R': there is no block 0 (blocks 1-9)"),
    (["--variant", "multiplayer", "--players", "3", *THREE, "f5"],
     "move 15: illegal move 'f5': placing on f5: the game is over"),
    (["--variant", "multiplayer", "j1"], "multiplayer needs the number of players: 2 to 4"),
    (["--variant", "multiplayer", "--players", "5"], "players must be 2 to 4, not 5"),
    (["--variant", "teams", "--players", "3"], "team play needs exactly 4 players (two pairs), not 3"),
    (["--variant", "classic", "--twist", "cw"],
     "classic Pentago twists either way; twist 'cw' is an option of multiplayer and teams"),
    (["--variant", "classic", "--bonus"], "bonus is an option of triple only"),
    (["--variant", "teams", "--seed", "3", "--two-colour"], "seed is an option of triple only"),
    (["--variant", "classic-9x9", "--two-colour"], "two-colour is an option of triple only"),
    (["--variant", "multiplayer", "--players", "3", "--cards", "BYRYB"], "cards is an option of triple only"),
    (["--variant", "triple", "--twist", "cw"],
     "Pentago Triple twists either way; twist 'cw' is an option of multiplayer and teams"),
])
def test_variant_errors_exit_2_naming_the_move_and_the_rule(capsys, words, message):
    assert main(["game", *words]) == 2
    assert capsys.readouterr().err.strip() == f"pentago-board game: {message}"


def test_teams_text_names_both_partners(capsys):
    assert main(["game", "--variant", "teams", "a9", "a1", "b9", "b1", "c9", "c1", "d9", "d1", "e9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["seats 1, 3 win (five on placement): a9 b9 c9 d9 e9",
                          "standings: 1st seats 1, 3; 2nd seats 2, 4"]


# -- Pentago Triple ---------------------------------------------------------------------------

def triple(capsys, *words):
    code = main(["game", "--variant", "triple", "--json", *words])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if code == 0 else captured.err.strip())


def test_triple_json_while_the_game_runs(capsys):
    code, out = triple(capsys, "--players", "3", "--cards", "BBBBY,RRRRY", "Bb5 4R", "Ya1", "1L")
    assert code == 0
    assert out == {
        "board": ["......", ".b....", "......", "......", "......", "y....."],
        "to_move": 3, "cards": ["BBBBY", "RRRRY"],
        "outcome": {"result": "none", "winners": [], "eliminated": []},
    }


# Seats 1, 2, 3, 1 build row 1 to b b b b; seat 2 completes BBBBY with Ye1: seat 1, before it, goes.
ROW = ["Ba1 2R", "Bb1 2R", "Bc1 2R", "Bd1 2R"]


def test_triple_json_elimination_of_the_previous_seat_then_the_last_left_wins(capsys):
    code, out = triple(capsys, "--players", "3", "--cards", "BBBBY,RRRRY", *ROW)
    assert out["to_move"] == 2
    code, out = triple(capsys, "--players", "3", "--cards", "BBBBY,RRRRY", *ROW, "Ye1")
    assert code == 0 and out["outcome"] == {"result": "none", "winners": [], "eliminated": [1]}
    assert out["cards"] == ["RRRRY"] and out["to_move"] == 3 and out["board"][5] == "bbbby."
    rest = ["Ra2 2R", "Rb2 2R", "Rc2 2R", "Rd2 2R", "Ye2"]  # seats 3, 2, 3, 2; seat 3 completes RRRRY
    code, out = triple(capsys, "--players", "3", "--cards", "BBBBY,RRRRY", *ROW, "Ye1", *rest)
    assert code == 0 and out["to_move"] is None and out["cards"] == []
    assert out["outcome"] == {"result": "win", "winners": [3], "eliminated": [1, 2]}


def test_triple_bonus_json_lists_the_cards_taken_and_a_shared_first_place_wins(capsys):
    words = ["--players", "3", "--bonus", "--cards", "BBBBY,RRRRY", *ROW, "Ye1"]
    code, out = triple(capsys, *words)
    assert out["outcome"] == {"result": "none", "winners": [], "eliminated": [],
                              "taken": {"1": [], "2": ["BBBBY"], "3": []}}
    assert out["cards"] == ["RRRRY"] and out["to_move"] == 3
    rest = ["Ra2 2R", "Rb2 2R", "Rc2 2R", "Rd2 2R", "Ye2"]  # seats 3, 1, 2, 3; seat 1 takes RRRRY
    code, out = triple(capsys, *words, *rest)
    assert out["to_move"] is None and out["cards"] == []
    assert out["outcome"] == {"result": "win", "winners": [1, 2], "eliminated": [],
                              "taken": {"1": ["RRRRY"], "2": ["BBBBY"], "3": []}}


def test_triple_personal_and_seeded_cards(capsys):
    code, out = triple(capsys, "--players", "4", "--personal", "--seed", "3")
    again = triple(capsys, "--players", "4", "--personal", "--seed", "3")[1]
    assert code == 0 and len(out["cards"]) == 4 and out["cards"] == again["cards"]
    default = triple(capsys, "--players", "2")[1]
    assert default["cards"] == triple(capsys, "--players", "2", "--seed", "0")[1]["cards"]
    assert len(default["cards"]) == 1


@pytest.mark.parametrize("words, message", [
    (["--cards", "BBBBY", "Bb5 4R", "Rb5 1R"], "move 2: illegal move 'Rb5 1R': hole b5 is already taken"),
    (["--cards", "BBBBY", "Bb5"], "move 1: illegal move 'Bb5': the twist is missing: every turn ends with a twist"
     " in Pentago Triple (an empty block may be turned), e.g. 'Rb5 4R'"),
    (["--cards", "BYBYB", "--two-colour", "Rb5 4R"],
     "move 1: illegal move 'Rb5 4R': red is out of play: two-colour play uses only blue and yellow"),
    (["--cards", "BYRYB", "--two-colour"], "two-colour play needs cards in exactly two colours; these use blue, yellow, red"),
    (["--cards", "BBBBY", *ROW, "Ye1", "Ra6 1R"], "move 6: illegal move 'Ra6 1R': placing R on a6: the game is over"),
    (["--cards", "BBBBY", "b5 4R"], "move 1: 'b5' names no colour: write B, Y or R before the hole, e.g. Rb5 4R"),
    (["--cards", "BYRX"], "'BYRX' is not a card: write five colour letters B, Y or R, e.g. BYRYB"),
    (["--players", "5"], "players must be 2 to 4, not 5"),
])
def test_triple_illegal_input_exits_2_naming_the_move_and_the_rule(capsys, words, message):
    code, err = triple(capsys, *words)
    assert code == 2 and err == f"pentago-board game: {message}"


def test_triple_a_colour_with_none_left_in_the_box_and_the_move_phase(capsys):
    # 27 placements with a fixed twist that keeps the colours apart: block 2 turns, nothing in it.
    holes = [f"{c}{r}" for r in "123" for c in "abcdef"] + [f"{c}{r}" for r in "456" for c in "abc"]
    moves = [f"{'BYR'[i // 9]}{hole} 2R" for i, hole in enumerate(holes)]
    code, out = triple(capsys, "--cards", "RRRRR", *moves[:9], "Bd6 2R")
    assert code == 2 and out.endswith("no blue marble is left in the box (all 9 are on the board)")
    code, out = triple(capsys, "--cards", "RRRRR", *moves)
    assert code == 0 and out["to_move"] == 2, out
    code, err = triple(capsys, "--cards", "RRRRR", *moves, "Bd6 2R")
    assert code == 2 and err.endswith("all 27 marbles are on the board: move one (e.g. a1-b5 4R) instead of placing")
    last = moves[-1].split()[0][1:]
    code, err = triple(capsys, "--cards", "RRRRR", *moves, f"{last}-d6 2R")
    assert code == 2 and err.endswith(f"the marble on {last} was played last; move another marble")
    code, out = triple(capsys, "--cards", "RRRRR", *moves, "a1-d6 2R")
    assert code == 0 and out["to_move"] == 1


def test_triple_text_output_and_help(capsys):
    assert main(["game", "--variant", "triple", "--players", "3", "--cards", "BBBBY,RRRRY", *ROW, "Ye1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[5] == "1 b b b b y ." and lines[7:] == ["cards: RRRRY", "eliminated: seat 1", "seat 3 to move (places a marble)"]
    with pytest.raises(SystemExit):
        main(["game", "--help"])
    assert "shared by every\nseat, it is a \"draw\"" in capsys.readouterr().out
