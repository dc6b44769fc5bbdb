"""One test per rule of classic Pentago, including each tie and win-before-twist case."""

import pytest

from controller.rules import (
    ClassicGame, IllegalMoveError, Move, Phase, Position, Termination, Twist, geometry, parse_hole,
)

G = geometry(6)


def h(name: str) -> int:
    return parse_hole(name, G)


def game_from(rows: str, to_move: int = 1) -> ClassicGame:
    """A game from six rows of text, top row first (x = seat 1, o = seat 2)."""
    return ClassicGame(position=Position.parse("/".join(rows.split())), to_move=to_move)


def test_place_then_twist_moves_the_marbles_of_that_block():
    game = ClassicGame()
    game.push_text("a6 1R")  # the top-left corner goes to the top-right corner of block 1
    assert game.position.colour_at(h("c6")) == 0
    assert game.position.colour_at(h("a6")) is None
    assert game.to_move == 2 and game.phase is Phase.PLACE


def test_counter_clockwise_twist():
    game = ClassicGame()
    game.push_text("a6 1L")  # counter-clockwise: top-left goes to bottom-left of the block
    assert game.position.colour_at(h("a4")) == 0


def test_twist_is_optional_while_a_block_is_empty():
    game = ClassicGame()
    game.push_text("b5")
    assert game.moves == [Move(h("b5"))] and game.to_move == 2


def test_a_block_with_only_its_centre_filled_is_neutral():
    game = game_from("""
        ....x.
        .x..x.
        ......
        .x....
        ....x.
        x.....""")
    # blocks 2, 3, 4 hold a non-centre stone; block 1 holds only its centre b5
    game.place(h("f1"))
    assert game.may_skip_twist()
    game.skip_twist()
    assert game.to_move == 2


def test_twist_is_mandatory_when_no_block_is_neutral():
    game = game_from("""
        x...x.
        ......
        ......
        ......
        ......
        o....o""", to_move=1)
    game.place(h("c2"))
    with pytest.raises(IllegalMoveError, match="the twist is mandatory"):
        game.skip_twist()
    with pytest.raises(IllegalMoveError, match="illegal move 'c3'"):
        game_from("x...x./....../....../....../....../o....o").push_text("c3")


def test_five_made_by_the_twist():
    # Block 3 counter-clockwise turns its right column (c1 c2 c3) into its top row (a3 b3 c3).
    game = game_from("""
        oo.o..
        .....o
        ......
        ..xxx.
        ..x...
        ......""")
    game.push_text("c1 3L")
    assert game.outcome.termination is Termination.FIVE_AFTER_TWIST
    assert game.outcome.winners == (1,)
    assert game.outcome.lines == (tuple(h(n) for n in ("a3", "b3", "c3", "d3", "e3")),)


def test_five_on_placement_ends_the_game_with_no_twist():
    game = game_from("""
        ......
        ......
        ......
        ......
        ......
        xxxx.o""")
    game.place(h("e1"))
    assert game.is_over() and game.outcome.termination is Termination.FIVE_ON_PLACEMENT
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.twist(Twist(1, True))
    again = game_from("......\n" * 5 + "xxxx.o")
    with pytest.raises(IllegalMoveError, match="makes five and ends the game; no twist follows"):
        again.push_text("e1 2R")
    assert again.position == game_from("......\n" * 5 + "xxxx.o").position  # unchanged


def test_placement_win_stands_even_if_a_twist_would_also_give_the_opponent_five():
    # o has four on row 6 that turning block 2 would complete; x wins first by placement.
    game = game_from("""
        oooo..
        .....o
        ......
        ......
        ......
        xxxx..""")
    game.push_text("e1")
    assert game.outcome.winners == (1,)
    assert game.outcome.termination is Termination.FIVE_ON_PLACEMENT


def test_both_colours_five_after_the_twist_is_a_draw():
    # Block 4 clockwise: f1 -> d1 and f2 -> e1 complete x's a1-e1; d1 -> d3 and d2 -> e3
    # complete o's a3-e3.
    game = game_from("""
        ......
        ......
        ......
        ooo...
        ...o.x
        xxxo.x""")
    game.push_text("a6 4R")
    assert game.outcome.termination is Termination.BOTH_FIVE
    assert game.outcome.winners == () and game.outcome.result == "draw"
    assert len(game.outcome.lines) == 2


def test_only_the_opponent_five_after_the_twist_means_the_opponent_wins():
    # x turns block 4 clockwise, which moves o's d1 and d2 to d3 and e3: o has a3-e3.
    game = game_from("""
        x..x.x
        x.....
        ......
        ooo...
        ...o..
        x..o..""", to_move=1)
    game.push_text("b4 4R")
    assert game.outcome.termination is Termination.FIVE_AFTER_TWIST
    assert game.outcome.winners == (2,)


def test_full_board_without_five_is_a_draw():
    # A full board with no five anywhere, less one hole; the last move fills it.
    rows = ["xxoxxo", "ooxoox", "xxoxxo", "ooxoox", "xxoxxo", "ooxoo."]
    game = game_from("\n".join(rows), to_move=2)
    assert not game.position.has_neutral_block()
    game.push_text("f1 1R")
    assert game.outcome.termination is Termination.BOARD_FULL and game.outcome.winners == ()


def test_six_in_a_row_is_one_run_of_six():
    game = game_from("......\n" * 5 + "xxx.xx")
    game.push_text("d1")
    assert [len(run) for run in game.outcome.lines] == [6]


def test_no_placement_on_a_taken_hole():
    game = ClassicGame()
    game.push_text("b5 4R")
    with pytest.raises(IllegalMoveError, match="illegal move 'b5 1R': hole b5 is already taken"):
        game.push_text("b5 1R")
    assert game.to_move == 2 and len(game.moves) == 1


def test_half_moves_must_come_in_order():
    game = ClassicGame()
    with pytest.raises(IllegalMoveError, match="twisting 1R: the game awaits a placement from seat 1"):
        game.twist(Twist(1, True))
    game.place(h("a1"))
    with pytest.raises(IllegalMoveError, match="placing on b1: the game awaits a twist from seat 1"):
        game.place(h("b1"))


def test_legal_moves_from_the_start():
    moves = ClassicGame().legal_moves()
    assert len(moves) == 36 * 8 + 36  # every twist, plus skipping (all blocks are neutral)
    assert len(set(moves)) == len(moves)


def test_legal_moves_list_a_placement_win_bare_and_once():
    game = game_from("......\n" * 5 + "xxxx.o")
    moves = [m for m in game.legal_moves() if m.hole == h("e1")]
    assert moves == [Move(h("e1"))]


def test_take_back_restores_the_position_and_turn():
    game = ClassicGame()
    game.push_text("a1 1R")
    before = (game.position, game.to_move)
    game.push_text("f6 3L")
    assert game.pop() == Move(h("f6"), Twist(3, False))
    assert (game.position, game.to_move) == before
    game.place(h("c3"))
    assert game.pop() == Move(h("c3"))  # a placement awaiting its twist is taken back alone
    assert (game.position, game.to_move, game.phase) == (*before, Phase.PLACE)


def test_take_back_after_the_end_reopens_the_game():
    game = game_from("......\n" * 5 + "xxxx.o")
    game.push_text("e1")
    game.pop()
    assert game.outcome is None and game.phase is Phase.PLACE


def test_nothing_to_take_back():
    with pytest.raises(IllegalMoveError, match="there is no move to take back"):
        ClassicGame().pop()
