"""One test per rule of multiplayer Pentago (every man for himself), and each decision the rulebook
leaves to us (see controller/rules/multiplayer.py)."""

import pytest

from controller.rules import (
    IllegalMoveError, Move, MultiplayerGame, Phase, Position, Termination, Twist, geometry, parse_hole,
)

G = geometry(9)
SYMBOLS = "xoyz"

# A full 9x9 board of three colours without five, before or after any twist; two holes emptied:
# x's placement on c1 makes a1-f1, then o's c2 fills the board.
NEAR_FULL = (
    "yyyoyoyoo/xyoyxxyyx/xxxooyxoy/oyooxoyxy/oxyyoyyyy/yyxyooyxx/xyxyxoooo/xx.ooxyxo/xx.xxxyxy"
)
# The same board with c1 holding o's stone: no five anywhere, c2 to fill.
NO_FIVES = NEAR_FULL.replace("xx.xxxyxy", "xxoxxxyxy")


def h(name: str) -> int:
    return parse_hole(name, G)


def board(players: int = 3, **stones: str) -> Position:
    """A 9x9 position from hole lists per symbol: ``board(x="a1 b1", o="c3")``."""
    position = Position.empty(9, players)
    for symbol, holes in stones.items():
        for name in holes.split():
            position = position.place(h(name), SYMBOLS.index(symbol))
    return position


def game(players: int = 3, to_move: int = 1, **stones: str) -> MultiplayerGame:
    return MultiplayerGame(players, position=board(players, **stones), to_move=to_move)


# Block 7 (a1-c3) turned clockwise: its left column a1 a2 a3 becomes its top row a3 b3 c3 and
# its right column c1 c2 c3 its bottom row a1 b1 c1. So x completes a1-e1 and o completes a3-e3.
DOUBLE = {"x": "c1 c2 c3 d1 e1", "o": "a1 a2 a3 d3 e3"}


def test_five_on_placement_earns_a_place_at_once_without_a_twist():
    g = game(x="a9 b9 c9 d9", o="a1 b1", y="i1")
    g.place(h("e9"))
    assert g.standings == ((1,),) and g.place_lines == (tuple(h(n) for n in "a9 b9 c9 d9 e9".split()),)
    assert g.phase is Phase.PLACE and g.to_move == 2 and g.moves[-1] == Move(h("e9"))
    again = game(x="a9 b9 c9 d9")
    with pytest.raises(IllegalMoveError, match="'e9 5R': the placement on e9 makes five and ends the turn; no twist follows"):
        again.push_text("e9 5R")
    assert again.standings == () and again.position == board(x="a9 b9 c9 d9")


def test_twists_are_clockwise_only_unless_the_option_says_both():
    g = MultiplayerGame(players=3)
    with pytest.raises(IllegalMoveError, match=r"^illegal move 'e5 5L': 5L turns counter-clockwise; twists are clockwise only \(R\)"):
        g.push_text("e5 5L")
    assert g.moves == [] and all(m.twist is None or m.twist.clockwise for m in g.legal_moves())
    both = MultiplayerGame(players=3, twist="both")
    both.push_text("e5 5L")
    assert len(both.twists()) == 18 and len(g.twists()) == 9


def test_several_players_with_five_after_one_turn_share_the_place_and_the_rest_play_on():
    g = game(players=4, **DOUBLE)
    g.push_text("i9 7R")  # seat 1 places far away, then the twist gives seats 1 and 2 five
    assert g.standings == ((1, 2),) and not g.is_over()
    assert g.to_move == 3 and g.playing() == (3, 4)


def test_the_movers_five_and_another_players_five_in_one_twist_share_the_place():
    g = game(players=3, **DOUBLE)
    g.push_text("i9 7R")
    assert g.is_over() and g.outcome.termination is Termination.BOTH_FIVE
    assert g.standings == ((1, 2), (3,)) and g.outcome.winners == (1, 2)  # seat 3, left alone, is last


def test_a_twist_that_gives_only_another_player_five_earns_that_player_the_place():
    g = game(x="i9", o="a1 a2 a3 d3 e3")
    g.push_text("h8 7R")  # seat 1 turns block 7: o has a3-e3
    assert g.standings == ((2,),) and g.to_move == 3 and not g.is_over()


def test_a_winners_stones_stay_on_the_board_and_still_block():
    blocked = game(x="a9 b9 c9 d9 e1", o="a1 b1 c1 d1", y="i5")
    blocked.place(h("e9"))
    assert all(m.hole != h("e1") for m in blocked.legal_moves())  # the winner's stone holds e1
    blocked.push_text("f1 6R")  # f1 does not reach a1-d1 past x's e1
    assert blocked.standings == ((1,),) and blocked.position.colour_at(h("e1")) == 0
    assert blocked.position.stones[0].bit_count() == 6  # all of x's stones are still there


def test_a_placed_players_new_five_changes_nothing():
    g = game(x="a9 b9 c9 d9 c1 c2 c3 d1 e1", o="i5", y="i4")
    g.place(h("e9"))  # seat 1 is first
    g.push_text("h5 7R")  # seat 2 turns block 7, which completes x's a1-e1
    assert g.standings == ((1,),) and g.to_move == 3


def test_the_turn_passes_to_the_next_seat_still_playing():
    g = game(players=4, to_move=1, o="a9 b9 c9 d9")
    order = []
    g.push_text("a1 7R")
    order.append(g.to_move)
    g.place(h("e9"))  # seat 2 has five: seat 2 is done
    for move in ("b5 5R", "c5 5R", "d5 5R", "e5 5R"):
        order.append(g.to_move)
        g.push_text(move)
    order.append(g.to_move)
    assert order == [2, 3, 4, 1, 3, 4]


def test_the_last_player_left_takes_the_last_place():
    g = game(x="a9 b9 c9 d9", o="a5 b5 c5 d5", y="i1")
    g.place(h("e9"))
    g.place(h("e5"))
    assert g.is_over() and g.standings == ((1,), (2,), (3,))
    assert g.outcome.winners == (1,) and g.outcome.termination is Termination.FIVE_ON_PLACEMENT
    assert len(g.outcome.lines) == 2  # each place's five, in the order they were made
    with pytest.raises(IllegalMoveError, match="placing on a1: the game is over"):
        g.place(h("a1"))


def test_full_board_ends_the_game_the_rest_share_the_last_place():
    g = MultiplayerGame(3, position=Position.parse(NEAR_FULL, colours=3))
    g.place(h("c1"))  # x makes a1-f1 on placement
    assert g.standings == ((1,),) and g.to_move == 2
    g.push_text("c2 1R")  # the last hole; the twist is mandatory and makes no five
    assert g.is_over() and g.outcome.termination is Termination.BOARD_FULL
    assert g.standings == ((1,), (2, 3)) and g.outcome.winners == (1,)


def test_full_board_without_any_five_is_a_draw_of_all():
    with_gap = Position.parse(NO_FIVES, colours=3)
    g = MultiplayerGame(3, position=with_gap, to_move=2)
    g.place(h("c2"))
    with pytest.raises(IllegalMoveError, match="the twist is mandatory"):
        g.skip_twist()
    g.twist(Twist(1, True))
    assert g.is_over() and g.outcome.termination is Termination.BOARD_FULL
    assert g.standings == ((1, 2, 3),) and g.outcome.winners == () and g.outcome.result == "draw"


def test_two_players_placement_five_wins_and_the_other_is_second():
    g = MultiplayerGame(2, position=board(2, x="a9 b9 c9 d9", o="a1"))
    g.push_text("e9")
    assert g.is_over() and g.standings == ((1,), (2,)) and g.outcome.winners == (1,)


def test_two_players_both_five_after_one_twist_is_a_draw():
    g = MultiplayerGame(2, position=board(2, **DOUBLE))
    g.push_text("i9 7R")
    assert g.standings == ((1, 2),) and g.outcome.result == "draw" and g.outcome.winners == ()


def test_the_skip_rule_is_an_option_and_needs_a_neutral_block():
    g = MultiplayerGame(3)
    g.push_text("e5")  # every block is neutral: the twist may be skipped
    assert g.to_move == 2
    strict = MultiplayerGame(3, neutral_skip=False)
    with pytest.raises(IllegalMoveError, match="the twist is mandatory: this game has no neutral-block skip"):
        strict.push_text("e5")
    assert all(m.twist is not None for m in strict.legal_moves())
    corners = " ".join(f"{c}{r}" for c in "adg" for r in "369")  # a corner of every block
    busy = game(x=corners)
    busy.place(h("e5"))
    assert not busy.may_skip_twist()


def test_take_back_returns_an_earned_place():
    g = game(x="a9 b9 c9 d9", o="a1", y="i1")
    g.place(h("e9"))
    assert g.pop() == Move(h("e9"))
    assert g.standings == () and g.to_move == 1 and g.phase is Phase.PLACE


@pytest.mark.parametrize("kwargs, message", [
    ({"players": 5}, "players must be 2 to 4, not 5"),
    ({"players": 1}, "players must be 2 to 4, not 1"),
    ({"players": 3, "twist": "ccw"}, "twist must be 'cw' (clockwise only) or 'both', not 'ccw'"),
    ({"players": 3, "position": Position.empty(6, 3)}, "multiplayer Pentago is played on the 9x9 board, not 6x6"),
    ({"players": 3, "position": Position.empty(9, 2)}, "the position has 2 colours; this game plays 3"),
    ({"players": 3, "to_move": 4}, "to_move must be a seat from 1 to 3, not 4"),
])
def test_bad_options_say_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError) as error:
        MultiplayerGame(**kwargs)
    assert str(error.value) == message
