"""`pentago-board analyse`: a legal move for any reachable position, its JSON, and every board
that cannot arise refused with exit status 2 and its reason."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.ai.evaluate import WIN
from controller.cli import main
from controller.commands import analyse as command

from ..ai.helpers import ORACLE, game_from, random_game
from ..ai.test_tactics import _opponent_can_win_at_once

LEVELS = ["0", "1", "2", "3"]
# x four on row 6, o four on row 1: x to move makes five on e6.
X_WINS = "xxxx.." + "." * 24 + "oooo.."
# x four on row 6, o three on row 1: o to move must stop x's five.
O_BLOCKS = "xxxx.." + "." * 24 + "oo.o.."


def analyse(capsys, board: str, to_move: str, *extra: str) -> tuple[int, str, str]:
    status = main(["analyse", "--board", board, "--to-move", to_move, *extra])
    out = capsys.readouterr()
    return status, out.out, out.err


def answer(capsys, board: str, to_move: str, *extra: str) -> dict:
    status, out, err = analyse(capsys, board, to_move, "--json", *extra)
    assert status == 0, err
    return json.loads(out)


def rows(game) -> str:
    return game.position.text().replace("/", "")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), stones=st.integers(0, 34), level=st.sampled_from(LEVELS))
def test_the_move_is_legal_in_random_positions(capsys, seed, stones, level):
    game = random_game(seed, stones)
    side = "x" if game.to_move == 1 else "o"
    out = answer(capsys, rows(game), side, "--level", level, "--time", "0.05")
    legal = game.legal_moves()
    game.push_text(out["move"])  # the rules accept it as one whole move
    assert game.moves[-1] in legal


def test_the_json_has_exactly_move_score_depth_and_nodes(capsys):
    entry = ORACLE[7]
    out = answer(capsys, entry["board"], entry["to_move"], "--time", "0.2")
    assert set(out) == {"move", "score", "depth", "nodes"}
    assert isinstance(out["move"], str) and out["move"] in entry["moves"]
    assert all(isinstance(out[key], int) and not isinstance(out[key], bool) for key in ("score", "depth", "nodes"))
    assert out["depth"] >= 1 and out["nodes"] >= 1


def test_the_text_names_the_move_the_score_the_depth_and_the_nodes(capsys):
    status, out, _ = analyse(capsys, X_WINS, "x", "--time", "0.2")
    assert status == 0
    assert out == f"move:  e6\nscore: +{WIN - 1} (x wins by force in 1 ply)\ndepth: 1\nnodes: {out.split()[-1]}\n"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_takes_a_win_in_one(capsys, level):
    out = answer(capsys, X_WINS, "x", "--level", level, "--time", "0.2")
    assert out["move"] == "e6" and out["score"] == WIN - 1


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_blocks_the_opponents_win_in_one(capsys, level):
    game = game_from(O_BLOCKS, to_move=2)
    assert _opponent_can_win_at_once(game_from(O_BLOCKS, to_move=1))
    out = answer(capsys, O_BLOCKS, "o", "--level", level, "--time", "0.2")
    game.push_text(out["move"])
    assert not _opponent_can_win_at_once(game)


BAD = [
    ("x" * 35, "x", "the board has 35 characters; it needs 36 (rows 6 down to 1, columns a to f)"),
    ("." * 37, "x", "the board has 37 characters; it needs 36 (rows 6 down to 1, columns a to f)"),
    ("." * 7 + "X" + "." * 28, "x", "the board has 'X' at character 8 (b5); a hole is '.', 'x' or 'o'"),
    ("o" + "." * 35, "x", "x has 0 stones and o has 1: x moves first, so x has as many stones as o or one more"),
    ("xxx" + "." * 32 + "o", "o", "x has 3 stones and o has 1: x moves first, so x has as many stones as o or one more"),
    ("x" + "." * 34 + "o", "o", "x has 1 stone and o has 1, so x is to move, not o"),
    ("x" + "." * 35, "x", "x has 1 stone and o has 0, so o is to move, not x"),
    ("xxxxx." + "." * 24 + "oooo.o", "x",
     "the game is already over: x has five in a row (a6 b6 c6 d6 e6)"),
    ("xxxxx." + "." * 24 + "ooooo.", "x",
     "the game is already over: x and o have five in a row (a6 b6 c6 d6 e6; a1 b1 c1 d1 e1)"),
    ("xoxoxo" "xoxoxo" "oxoxox" "oxoxox" "xoxoxo" "xoxoxo", "x", "the board is full: the game is over (a draw)"),
]


@pytest.mark.parametrize(("board", "to_move", "reason"), BAD)
def test_a_board_that_cannot_arise_is_refused_with_its_reason(capsys, board, to_move, reason):
    status, out, err = analyse(capsys, board, to_move, "--json")
    assert (status, out, err) == (2, "", f"pentago-board analyse: {reason}\n")


def test_a_bad_level_and_a_bad_time_are_refused(capsys):
    assert analyse(capsys, X_WINS, "x", "--level", "7")[:3:2] == (
        2, "pentago-board analyse: --level 7: the levels are 0, 1, 2, 3\n")
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", "--board", X_WINS, "--to-move", "x", "--time", "0"])
    assert exit_.value.code == 2
    assert "0 seconds: give more than 0 and at most 3600" in capsys.readouterr().err


def test_help_is_in_plain_words(capsys):
    with pytest.raises(SystemExit):
        main(["analyse", "--help"])
    text = capsys.readouterr().out
    for words in ("row 6 (the top) first", "--to-move must agree", "from the view of the side to move",
                  "wins by force", "thinking time", "The thinking time starts when the search does",
                  "load numba's cached build", "--json prints"):
        assert words in " ".join(text.split()), words


def test_the_score_scale_matches_the_search():
    assert command.WIN == WIN
