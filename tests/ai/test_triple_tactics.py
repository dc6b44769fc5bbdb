"""Triple seats: every level completes a pattern when it can and never leaves the next seat one
when a move avoids it; the completion finder agrees with the rules on random positions (the
placement phase, the move phase, two-colour, personal and bonus games)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.ai import choose_move, fallback_move
from controller.ai.triple import Table
from controller.ai.triple.board import BARE, can_complete, completions, tables
from controller.rules import Position, TripleGame, TripleMove, TripleOptions, parse_cards

from .family_helpers import triple_at, triple_completions

LEVELS = [0, 1, 2, 3]
MODES = [{}, {"personal": True}, {"bonus": True}, {"two_colour": True}]


def triple(rows: str, cards: str, players: int = 2, to_move: int = 1, last: str | None = None, **options):
    """A Triple game from a 6x6 board written with b, y, r (rows top first, `/` between)."""
    text = rows.replace("b", "x").replace("y", "o").replace("r", "y")
    position = Position.parse(text, colours=3)
    opts = TripleOptions(players=players, cards=parse_cards(cards), **options)
    hole = None if last is None else TripleGame(opts).geometry.hole(ord(last[0]) - 97, int(last[1]) - 1)
    return TripleGame(opts, starter=to_move, position=position, last_played=hole)


def play(game, level, seed=0):
    game.push(choose_move(game, level=level, seed=seed, nodes=40))
    return game


def next_seat_completes(game) -> bool:
    return bool(triple_completions(game))


@pytest.mark.parametrize("level", LEVELS)
def test_completes_a_face_up_pattern_and_wins(level):
    game = triple("....../....../....../....../....../byry..", "BYRYB,RRRRR")
    play(game, level)
    assert game.outcome is not None and game.outcome.winners == (1,)
    assert game.move_name(game.moves[-1]) == "Be1"


@pytest.mark.parametrize("level", LEVELS)
def test_completes_a_pattern_made_by_the_twist(level):
    # B Y R on a1-c1, yellow on f1 and blue on f2: no placement completes BYRYB, but turning
    # block 4 (d1-f3) clockwise takes f1 to d1 and f2 to e1
    game = triple("....../....../....../....../.....b/byr..y", "BYRYB,RRRRR", players=3, to_move=1)
    play(game, level)
    assert game.claims and game.claims[-1].seat == 1
    assert game.eliminated == (3,)  # the seat that moved before seat 1


@pytest.mark.parametrize("level", LEVELS)
def test_completes_its_own_personal_card(level):
    game = triple("....../....../....../....../....../rrrr..", "RRRRR,BBBBB", personal=True)
    play(game, level)
    assert game.outcome is not None and game.outcome.winners == (1,)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_does_not_build_the_fourth_of_a_pattern(level, seed):
    # B Y R on a1-c1 and the card BYRYB: a yellow on d1 (or anywhere that makes four of it in one
    # frame) would hand the card, and the game, to the next seat
    game = play(triple("....../....../....../....../....../byr...", "BYRYB"), level, seed)
    assert not next_seat_completes(game)


@pytest.mark.parametrize("level", LEVELS)
def test_blocks_the_next_seats_personal_card(level):
    # seat 2's card BBBBY stands four-fifths built on a1-d1; seat 1 must spoil e1 or move them
    game = triple("....../....../....../....../....../bbbb..", "RRRRR,BBBBY", personal=True)
    game2 = triple("....../....../....../....../....../bbbb..", "RRRRR,BBBBY", personal=True, to_move=2)
    assert next_seat_completes(game2)
    play(game, level)
    assert not next_seat_completes(game)


@pytest.mark.parametrize("level", LEVELS)
def test_moves_in_the_move_phase_never_the_marble_played_last(level):
    game = triple_at(11, players=2, marbles=27)
    assert game.is_move_phase()
    for _ in range(6):
        if game.is_over():
            break
        move = choose_move(game, level=level, seed=3, nodes=40)
        assert move.origin is not None and move.origin != game.last_played
        game.push(move)


@pytest.mark.parametrize("level", LEVELS)
def test_two_colour_play_uses_the_two_colours(level):
    game = TripleGame(TripleOptions(players=2, cards=parse_cards("BBYYB"), two_colour=True))
    for _ in range(8):
        move = choose_move(game, level=level, seed=5, nodes=40)
        assert move.colour in (0, 1)
        game.push(move)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), marbles=st.sampled_from([12, 20, 26, 27]),
       mode=st.sampled_from(MODES))
def test_the_completion_finder_agrees_with_the_rules(seed, players, marbles, mode):
    game = triple_at(seed, players, marbles, **mode)
    table = Table(game)
    turn = table.turn(game.to_move, game.position.stones, tuple(game.in_box(c) for c in range(3)), game.last_played)
    found = {_as_move(choice) for choice in completions(turn)}
    assert found == triple_completions(game)
    assert can_complete(turn) == bool(found)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3]), marbles=st.sampled_from([14, 22, 27]),
       level=st.sampled_from(LEVELS), mode=st.sampled_from(MODES))
def test_never_leaves_a_pattern_when_a_move_avoids_it(seed, players, marbles, level, mode):
    game = triple_at(seed, players, marbles, **mode)
    if triple_completions(game):
        return  # it completes one itself (tested above)
    move = choose_move(game, level=level, seed=seed, nodes=40)
    assert move in game.legal_moves()
    if _hands_over(game, move):
        # every other move hands one over too: asked of the completion finder (checked against
        # the rules above), since asking the rules of every move takes minutes
        assert all(_finder_says_hands_over(game, m) for m in game.legal_moves())


def test_the_fallback_is_a_legal_move():
    game = triple_at(4, players=3, marbles=27)
    assert fallback_move(game, seed=1) in game.legal_moves()


def test_refuses_a_turn_with_a_marble_in_hand():
    game = triple_at(4, players=2, marbles=27)
    game.lift(next(h for h in range(36) if game.position.colour_at(h) is not None and h != game.last_played))
    with pytest.raises(ValueError, match="only when a placement or move is due"):
        choose_move(game)


def _hands_over(game, move) -> bool:
    game.push(move)
    try:
        return not game.is_over() and next_seat_completes(game)
    finally:
        game.pop()


def _finder_says_hands_over(game, move) -> bool:
    game.push(move)
    try:
        if game.is_over():
            return False
        turn = Table(game).turn(game.to_move, game.position.stones, tuple(game.in_box(c) for c in range(3)),
                                game.last_played)
        return can_complete(turn)
    finally:
        game.pop()


def _as_move(choice) -> TripleMove:
    colour, origin, hole, t = choice
    return TripleMove(hole, None if origin is not None else colour, origin, None if t == BARE else tables().twists[t])


@pytest.mark.parametrize("level", LEVELS)
def test_personal_cards_spoil_a_later_seats_card_too(level):
    # three seats; seat 3's card BBBBY stands four-fifths built on a1-d1 (seat 2 cannot spoil it
    # for sure: any seat that builds its own card wins), so seat 1 spoils it now
    game = triple("....../....../....../....../....../bbbb..", "RRRRR,YYYYY,BBBBY", players=3, personal=True)
    play(game, level)
    seat_3 = TripleGame(game.options, starter=3, position=game.position, last_played=game.last_played)
    assert not triple_completions(seat_3)
