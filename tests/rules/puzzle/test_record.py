"""Picture-Puzzle records: a whole game (with a timed-out restore) round-trips through its text and
replays to the same rounds and standings; bad records are refused naming the header or line."""

import pytest

from controller.games import parse_record, replay
from controller.rules import IllegalMoveError, NotationError, format_record, record_of
from controller.rules.puzzle.pictures import library_picture
from controller.rules.puzzle import PuzzleGame, PuzzleOptions, Reason

PASS = "-c2 5R c2 5L".split()
FAIL = "-c2 5R d2 5L".split()


def three_player_game() -> PuzzleGame:
    game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=3, restore_limit_s=30))
    for step in PASS + FAIL:  # 1 passes, 2 fails
        game.push_text(step)
    game.push_text("-c2")
    game.push_text("5R")
    game.time_out()  # 3 runs out of time: 1 is the last player in
    return game


def test_a_whole_game_round_trips_and_replays_to_the_same_standings():
    game = three_player_game()
    text = format_record(record_of(game, ["Ada", "Bo", "Cy"], date="2026-12-01"))
    assert text == (
        "Variant: puzzle\n"
        "Options: players=3 start-k=1 restore-limit=30 dismantle-limit=off check=colour\n"
        "Picture: H\n"
        "Board: ........./..B...B../..B...B../..B...B../..BBBBB../..B...B../..B...B../..B...B../.........\n"
        "Player 1: Ada\nPlayer 2: Bo\nPlayer 3: Cy\nDate: 2026-12-01\n"
        "Result: 1 > 3 > 2\n"
        "\n"
        "-c2 5R c2 5L\n-c2 5R d2 5L\n-c2 5R time\n"
    )
    assert format_record(parse_record(text)) == text
    again = replay(parse_record(text))
    assert again.outcome == game.outcome and again.eliminated == [2, 3]
    assert [r.reason for r in again.rounds] == [Reason.RESTORED, Reason.DIFFERS, Reason.RESTORE_TIME]


def test_a_round_in_progress_is_its_own_line():
    game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=2))
    for step in PASS + ["-g2"]:
        game.push_text(step)
    record = record_of(game, ["Ada", "Bo"])
    assert record.moves == ["-c2 5R c2 5L", "-g2"] and record.headers["Result"] == "*"
    assert replay(parse_record(format_record(record))).position == game.position


HEAD = "Variant: puzzle\nPicture: Dot\nBoard: W...../....../....../....../....../......\n\n"


@pytest.mark.parametrize("text, error, message", [
    ("Variant: puzzle\n\n", NotationError, "record: a puzzle record names its picture (Picture: title, Board: rows)"),
    (HEAD.replace("W....", "Q...."), NotationError, "record: record Board line 2, column 1: 'Q' is not a colour"),
    (HEAD.replace("Variant", "Options: players=9\nVariant"), NotationError, "record: players must be 2 to 4, not 9"),
    (HEAD + "-a6 1R b6\n", None, None),
    (HEAD + "-a6 1R 1L\n", IllegalMoveError, "record line 1: 1L: the restore places a stone before each twist"),
    (HEAD + "-a6 zz\n", NotationError, "record line 5: 'zz' is not a step"),
])
def test_bad_puzzle_records_name_the_header_or_line(text, error, message):
    if error is None:
        assert replay(parse_record(text)).rounds == []  # a round in progress is fine
        return
    with pytest.raises(error) as raised:
        replay(parse_record(text))
    assert str(raised.value).startswith(message)
