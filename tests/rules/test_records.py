"""Records that stand alone: the header names the variant, its options, the seats and the starter."""

import pytest

from controller.games import parse_record, replay
from controller.rules import (
    ClassicGame, IllegalMoveError, MultiplayerGame, NotationError, PlayOptions, TeamGame, format_record, record_of,
)

MULTIPLAYER = """\
Variant: multiplayer
Options: players=3 twist=cw neutral-skip=on
Player 1: Ada
Player 2: Bo
Player 3: Cy
Colours: white, black, red
Starter: 2
Date: 2026-11-30
Result: 2 > 3 > 1

a5
a9
a1
b5
b9
c1
c5
c9
e1
d5
d9
g1
e5
e9
"""


def test_a_multiplayer_record_names_everything_and_replays_to_its_standings():
    record = parse_record(MULTIPLAYER)
    assert format_record(record) == MULTIPLAYER
    assert record.players == ["Ada", "Bo", "Cy"] and record.colours == ["white", "black", "red"]
    assert record.starter == 2 and PlayOptions.parse(record.headers["Options"]).twist == "cw"
    game = replay(record)
    assert isinstance(game, MultiplayerGame) and game.starter == 2
    assert game.standings == ((2,), (3,), (1,))


def test_record_of_writes_the_header_the_reader_reads():
    game = MultiplayerGame(3, to_move=2)
    for move in parse_record(MULTIPLAYER).moves:
        game.push_text(move)
    text = format_record(record_of(game, ["Ada", "Bo", "Cy"], "2026-11-30", ["white", "black", "red"]))
    assert text == MULTIPLAYER


def test_a_team_record_gives_the_winning_pair():
    game = TeamGame(twist="both")
    for move in ["a9", "a1", "b9", "b1", "c9", "c1", "d9", "d1", "e9"]:
        game.push_text(move)
    text = format_record(record_of(game, ["A", "B", "C", "D"]))
    assert text.splitlines()[:7] == [
        "Variant: teams", "Options: players=4 twist=both neutral-skip=on",
        "Player 1: A", "Player 2: B", "Player 3: C", "Player 4: D", "Starter: 1",
    ]
    assert "Result: 1,3" in text
    assert replay(parse_record(text)).standings == ((1, 3), (2, 4))


def test_a_classic_game_that_seat_2_started_replays_from_seat_2():
    # The match bug of issue 10: game 2 of a match, started by seat 2, was replayed from seat 1.
    game = ClassicGame(to_move=2)
    for move in ["a1 2R", "b2 2R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R", "a5"]:
        game.push_text(move)
    assert game.outcome.winners == (2,)
    text = format_record(record_of(game, ["Seat 1", "Seat 2"], "2026-11-30"))
    assert "Starter: 2\n" in text and "Result: 2\n" in text
    assert replay(parse_record(text)).outcome == game.outcome


def test_classic_records_stay_as_they_were():
    game = ClassicGame()
    game.push_text("b5 4R")
    assert format_record(record_of(game, ["A", "B"])) == "Variant: classic\nPlayer 1: A\nPlayer 2: B\nResult: *\n\nb5 4R\n"


def test_a_multiplayer_record_without_options_takes_a_seat_per_player_and_clockwise_twists():
    text = "Variant: multiplayer\nPlayer 1: A\nPlayer 2: B\nPlayer 3: C\n\ne5 5R\n"
    game = replay(parse_record(text))
    assert game.players == 3 and game.options.twist == "cw"
    with pytest.raises(IllegalMoveError, match="record move 1: illegal move 'e5 5L': 5L turns counter-clockwise"):
        replay(parse_record(text.replace("5R", "5L")))


@pytest.mark.parametrize("change, message", [
    (("Options: players=3", "Options: players=5"), "record: players must be 2 to 4, not 5"),
    (("twist=cw", "twist=left"), "record: twist must be 'cw' (clockwise only) or 'both', not 'left'"),
    (("neutral-skip=on", "skip=on"),
     "record: option 'skip=on' is not one of players=N, twist=cw|both, neutral-skip=on|off"),
    (("Starter: 2", "Starter: 4"), "record: Starter must be a seat from 1 to 3, not 4"),
    (("Starter: 2", "Starter: two"), "record: Starter must be a seat number, not 'two'"),
    (("white, black, red", "white, black"), "record: Colours names 2 colours for 3 seats"),
    (("Variant: multiplayer", "Variant: chess"), "record: unknown variant 'chess'"),
    (("e9\n", "e9 10R\n"), "record line 24: '10R': there is no block 10 (blocks 1-9)"),
])
def test_record_header_errors_name_the_header(change, message):
    with pytest.raises(NotationError) as error:
        parse_record(MULTIPLAYER.replace(*change))
    assert str(error.value).startswith(message)


def test_a_wrong_multiplayer_result_is_refused():
    with pytest.raises(IllegalMoveError, match=r"record says Result: 1 > 2 > 3, but the moves give 2 > 3 > 1"):
        replay(parse_record(MULTIPLAYER.replace("Result: 2 > 3 > 1", "Result: 1 > 2 > 3")))


def test_a_game_s_class_says_how_its_record_is_written_and_read():
    """record.py asks the game (its record_* methods), so a game whose record differs says so
    in its own class and record.py needs no change, nor any test of which class a game is."""
    import ast
    from pathlib import Path

    from controller.rules import parse_hole
    from controller.rules import record as records

    class Marked(ClassicGame):  # a game of another kind: its lines say whose move, and it keeps a header
        def record_headers(self):
            return {**super().record_headers(), "Marks": "on"}

        def record_lines(self):
            return [f"{n}. {line}" for n, line in enumerate(super().record_lines(), start=1)]

        def record_line(self, line, number):
            return super().record_line(line.split(". ", 1)[-1], number)

        def play_record_line(self, text, number):
            self.push_text(text.split(". ", 1)[-1])

    game = Marked()
    game.place(parse_hole("b5", game.geometry))
    game.skip_twist()
    text = format_record(record_of(game, ["Ada", "Bo"]))
    assert text == "Variant: classic\nMarks: on\nPlayer 1: Ada\nPlayer 2: Bo\nResult: *\n\n1. b5\n"
    again = records.replay(records.parse_record(text, lambda record: Marked()), lambda record: Marked())
    assert again.position == game.position
    source = Path(records.__file__).read_text()
    tree = ast.parse(source)
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == "isinstance"]
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert not imported & {"ClassicGame", "MultiplayerGame", "TeamGame", "TripleGame", "PuzzleGame"}
