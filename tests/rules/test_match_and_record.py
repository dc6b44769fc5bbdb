"""Match play and game records."""

import pytest

from controller.games import parse_record, replay
from controller.rules import (
    ClassicGame, IllegalMoveError, Match, NotationError, Outcome, Termination, format_record, record_of,
)

WIN1 = Outcome(Termination.FIVE_AFTER_TWIST, (1,))
WIN2 = Outcome(Termination.FIVE_ON_PLACEMENT, (2,))
DRAW = Outcome(Termination.BOARD_FULL, ())


def test_first_to_three_wins_the_match():
    match = Match()
    for outcome in (WIN1, WIN2, WIN1, WIN1):
        assert not match.is_over()
        match.record(outcome)
    assert match.is_over() and match.winner() == 1
    with pytest.raises(ValueError, match="the match is over"):
        match.record(WIN2)


def test_a_game_taken_back_is_forgotten_and_the_next_one_counts_again():
    match = Match()
    match.record(WIN1)
    assert match.take_back() == WIN1 and match.outcomes == [] and match.starter() == 1
    with pytest.raises(ValueError, match="no game of the match has ended"):
        match.take_back()


def test_starts_alternate_game_by_game():
    match = Match()
    starters = []
    for outcome in (DRAW, WIN1, WIN2, DRAW):
        starters.append(match.starter())
        match.record(outcome)
    assert starters == [1, 2, 1, 2]


def test_ties_count_as_played_games():
    match = Match()
    for outcome in (DRAW, DRAW, WIN1, DRAW, WIN2):
        match.record(outcome)
    assert match.is_over() and match.winner() is None  # five played, 1-1: a drawn match
    match = Match()
    for outcome in (DRAW, DRAW, DRAW, DRAW, WIN2):
        match.record(outcome)
    assert match.is_over() and match.winner() == 2


RECORD = """\
Variant: classic
Player 1: Ada Lovelace
Player 2: Bo
Date: 2026-11-29
Event: club night
Result: 1

a1 2R
b2 2R
a2 1L
b3 1R
a3 1L
b4 2R
a4 2R
c4 2R
a5
"""


def test_a_record_round_trips_exactly_and_replays():
    record = parse_record(RECORD)
    assert format_record(record) == RECORD
    assert record.players == ["Ada Lovelace", "Bo"]
    game = replay(record)
    assert game.outcome.winners == (1,)


def test_records_are_read_generously():
    loose = RECORD.replace("a1 2R", "A1  2r").replace("a5", "3/7")
    record = parse_record(loose)
    assert record.moves[0] == "a1 2R" and record.moves[-1] == "a1"


def test_record_errors_name_the_line():
    with pytest.raises(NotationError, match=r"record line 9: '7R': there is no block 7 \(blocks 1-4\)"):
        parse_record(RECORD.replace("b2 2R", "b2 7R"))
    with pytest.raises(NotationError, match="record line 1: 'Variant classic' is not a 'Key: value' header"):
        parse_record(RECORD.replace("Variant: classic", "Variant classic"))
    with pytest.raises(IllegalMoveError, match="record move 3: illegal move 'a1 1L': hole a1 is already taken"):
        replay(parse_record(RECORD.replace("a2 1L", "a1 1L")))
    with pytest.raises(IllegalMoveError, match="record says Result: 2, but the moves give 1"):
        replay(parse_record(RECORD.replace("Result: 1", "Result: 2")))


def test_unfinished_game_record():
    game = ClassicGame()
    game.push_text("f6 1L")
    assert "Result: *" in format_record(record_of(game, ["A", "B"]))
