"""Pentago Triple's rules: a test per rule, option and decision of controller/rules/triple/__init__.py."""

import pytest

from controller.games import parse_record, replay
from controller.rules import (
    Card, IllegalMoveError, NotationError, Phase, Position, Termination, TripleGame, TripleMove, TripleOptions, Twist, format_record, geometry, parse_cards, parse_hole, parse_triple_move, record_of, triple_move_name,
)
from controller.rules.triple.cards import occurrences
from controller.rules.triple import deal

G = geometry(6)
B, Y, R = 0, 1, 2


def board(*rows: str) -> Position:
    """A Triple position from six rows, row 6 first, of '.', 'b', 'y', 'r'."""
    assert len(rows) == 6
    return Position.parse("/".join(rows).translate(str.maketrans("byr", "xoy")), colours=3)


def h(name: str) -> int:
    return parse_hole(name, G)


def game(cards: str, players: int = 2, position: Position | None = None, starter: int = 1, **options):
    opts = TripleOptions(players=players, cards=parse_cards(cards), **options)
    return TripleGame(opts, starter, position=position)


def play(g: TripleGame, *moves: str) -> TripleGame:
    for text in moves:
        g.push_text(text)
    return g


# -- patterns ---------------------------------------------------------------------------------

LINES = {  # one line of five per direction, holes in order
    "row": ["a2", "b2", "c2", "d2", "e2"],
    "column": ["f1", "f2", "f3", "f4", "f5"],
    "diagonal": ["a1", "b2", "c3", "d4", "e5"],
    "anti-diagonal": ["a6", "b5", "c4", "d3", "e2"],
}


@pytest.mark.parametrize("direction", list(LINES))
@pytest.mark.parametrize("backwards", [False, True])
def test_a_pattern_reads_both_ways_on_rows_columns_and_both_diagonals(direction, backwards):
    card = Card.parse("RRYBY")
    holes = LINES[direction][::-1] if backwards else LINES[direction]
    p = Position.empty(6, 3)
    for name, colour in zip(holes, card.colours):
        p = p.place(h(name), colour)
    found = occurrences(card, p)
    assert found == [tuple(h(n) for n in holes)]  # holes in the card's order, whichever way it lies
    assert occurrences(Card.parse("RRYBB"), p) == []  # one colour off is no pattern


def test_a_pattern_needs_exactly_its_colours_and_a_longer_run_holds_it_twice():
    p = board("......", "......", "......", "......", "......", "bbbbbb")
    assert len(occurrences(Card.parse("BBBBB"), p)) == 2  # a1-e1 and b1-f1
    assert occurrences(Card.parse("BBBBY"), p) == []


def test_card_values_parse_and_format_and_a_card_read_backwards_is_the_same_pattern():
    card = Card.parse(" rRyBb ")
    assert str(card) == "RRYBB" and eval(repr(card)) == card
    assert card.is_same_pattern(Card.parse("BBYRR")) and not card.is_same_pattern(Card.parse("BBYRY"))
    with pytest.raises(NotationError, match="'BYRY' is not a card"):
        Card.parse("BYRY")


# -- the standard game: placement vs twist, eliminations ---------------------------------------

def test_a_pattern_made_by_the_placement_ends_the_turn_without_a_twist_and_two_players_win():
    g = game("BBBBY", position=board("......", "......", "......", "......", "......", "bbbb.."))
    g.push_text("Ye1")
    assert g.is_over() and g.moves[-1] == TripleMove(h("e1"), Y)
    assert g.outcome.termination is Termination.LAST_PLAYER and g.outcome.winners == (1,)
    assert g.eliminated == (2,) and g.standings == ((1,), (2,)) and g.cards == ()
    assert g.outcome.lines == ((h("a1"), h("b1"), h("c1"), h("d1"), h("e1")),)


def test_a_twist_after_a_placement_pattern_is_refused_and_the_game_is_unchanged():
    g = game("BBBBY", position=board("......", "......", "......", "......", "......", "bbbb.."))
    with pytest.raises(IllegalMoveError, match="'Ye1 4R': the placement completes BBBBY and ends the game; no twist"):
        g.push_text("Ye1 4R")
    assert not g.moves and g.phase is Phase.PLACE and g.position.colour_at(h("e1")) is None


def test_a_pattern_made_by_the_twist_counts_after_the_twist():
    # Row 6 reads b b b . . ; block 2 (d4-f6) turned clockwise brings d4 to d6 and d5 to e6.
    start = board("bbb...", "...y..", "...b..", "......", "......", "......")
    g = game("BBBBY", position=start)
    g.place(h("f1"), R)  # no pattern through f1: the turn waits for its twist
    assert g.phase is Phase.TWIST and not g.is_over()
    g.twist(Twist(2, True))
    assert g.position.rows("byr")[0] == "bbbby."
    assert g.is_over() and g.outcome.winners == (1,) and g.eliminated == (2,)
    assert g.moves == [TripleMove(h("f1"), R, None, Twist(2, True))]


def test_a_pattern_the_twist_breaks_is_not_counted_though_the_placement_did_not_make_it_either():
    start = board("bbb...", "...y..", "...b..", "......", "......", "......")
    g = game("BBBBY", position=start)
    g.push_text("Rf1 2L")  # the other way: d6 and e6 get what was at f6 and f5 (nothing)
    assert not g.is_over() and g.to_move == 2 and g.cards == (Card.parse("BBBBY"),)


def test_a_pattern_that_stood_before_the_turn_is_not_yours():
    start = board("......", "......", "......", "......", "......", "bbbby.")
    g = game("BBBBY,RRRRY", players=3, position=start)
    g.push_text("Rf6 1R")  # the row still reads BBBBY; it stood before: nobody is eliminated
    assert g.eliminated == () and len(g.cards) == 2 and g.to_move == 2


def test_a_new_occurrence_of_a_card_that_also_already_stands_is_yours():
    start = board("......", "......", "......", "......", "......", "bbbbb.")
    g = game("BBBBB", position=start)
    g.push_text("Bf1")  # a1-e1 stood before; b1-f1 is new and made by this placement
    assert g.is_over() and g.outcome.lines == ((h("b1"), h("c1"), h("d1"), h("e1"), h("f1")),)


def test_completing_a_card_eliminates_the_previous_seat_still_in_and_the_last_left_wins():
    start = board("......", "......", "......", "yyyy..", "rrrr..", "bbbb..")
    g = game("BBBBY,RRRRY,YYYYB", players=4, position=start)
    g.push_text("Ye1")  # seat 1 completes BBBBY: seat 4 moved before it
    assert g.eliminated == (4,) and g.to_move == 2 and [str(c) for c in g.cards] == ["RRRRY", "YYYYB"]
    play(g, "Rf6 1R", "Rf5 1R")  # seats 2 and 3
    g.push_text("Ye2")  # seat 1 again: seat 4, before it, is out, so seat 3 goes
    assert g.eliminated == (4, 3) and g.playing() == (1, 2) and g.to_move == 2
    g.push_text("Be3")  # seat 2 completes YYYYB: seat 1 goes and seat 2 is the last left
    assert g.is_over() and g.outcome.termination is Termination.LAST_PLAYER
    assert g.eliminated == (4, 3, 1) and g.outcome.winners == (2,)
    assert g.standings == ((2,), (1,), (3,), (4,))  # winner, then the eliminated, last out first
    assert [(c.seat, str(c.card), c.eliminated) for c in g.claims] == [
        (1, "BBBBY", 4), (1, "RRRRY", 3), (2, "YYYYB", 1)]


TWO_AT_ONCE = board("......", "....r.", "....r.", "....r.", "....r.", "bbbb..")


def test_two_patterns_in_one_turn_eliminate_once_and_remove_both_cards_then_the_deck_refills():
    g = game("BBBBY,RRRRY,YYYYB,BYRYB", players=4, position=TWO_AT_ONCE)
    g.push_text("Ye1")  # row 1 reads BBBBY and column e, read downwards, RRRRY
    assert g.eliminated == (4,) and len(g.outcome.lines if g.outcome else g.claims) == 2
    assert [str(c) for c in g.cards] == ["YYYYB", "BYRYB"]  # two face-up again for three players
    assert g.reserve == ()


def test_when_no_card_is_left_to_turn_the_players_still_in_share_first_place():
    g = game("BBBBY,RRRRY", players=3, position=TWO_AT_ONCE)
    g.push_text("Ye1")
    assert g.is_over() and g.outcome.termination is Termination.CARDS_OUT
    assert g.eliminated == (3,) and g.outcome.winners == (1, 2) and g.standings == ((1, 2), (3,))
    assert g.outcome.result == "win"


# -- the move phase -----------------------------------------------------------------------------

FULL = board("byrbyr", "yrbyrb", "rbyrby", "byrbyr", "yrb...", "......")  # 9 of each colour out


def test_the_move_phase_begins_when_every_marble_is_out_and_placing_is_refused():
    g = game("BBBBY", position=FULL)
    assert g.is_move_phase() and [g.in_box(c) for c in (B, Y, R)] == [0, 0, 0]
    with pytest.raises(IllegalMoveError, match="'Ba1 1R': all 27 marbles are on the board: move one"):
        g.push_text("Ba1 1R")
    g.push_text("a3-a1 1R")
    assert g.position.colour_at(h("a1")) == B and g.position.colour_at(h("a3")) is None
    assert g.moves == [TripleMove(h("a1"), None, h("a3"), Twist(1, True))]


def test_the_marble_played_last_may_not_move_even_after_a_twist_carried_it():
    g = game("BBBBY", position=FULL)
    g.push_text("a3-b1 3R")  # block 3 clockwise carries b1 (bottom middle) to a2 (middle left)
    assert g.last_played == h("a2")
    with pytest.raises(IllegalMoveError, match="'a2-c1 1R': the marble on a2 was played last; move another"):
        g.push_text("a2-c1 1R")
    g.push_text("d3-f1 1R")  # any other marble may move


def test_lift_and_drop_are_the_two_halves_of_a_move_and_pop_puts_the_marble_back():
    g = game("BBBBY", position=FULL)
    g.lift(h("a3"))
    assert g.lifted == h("a3") and g.position.colour_at(h("a3")) is None and g.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the marble from a3 is in hand"):
        g.place(h("a1"), B)
    with pytest.raises(IllegalMoveError, match="hole b3 is already taken"):
        g.drop(h("b3"))
    assert g.pop() == TripleMove(h("a3"), None, h("a3"))
    assert g.position == FULL and g.lifted is None
    g.lift(h("a3"))
    g.drop(h("f1"))
    assert g.phase is Phase.TWIST and g.may_skip_twist() is False


def test_a_move_that_completes_a_pattern_counts_at_once_without_a_twist():
    # e6 d5 c4 b3 read Y Y Y Y down to the empty a2: a blue moved there makes YYYYB.
    start = board("byrbyr", "yrbyrb", "rbyrby", "byrbyr", ".rb...", "y.....")
    g = game("YYYYB", position=start)
    with pytest.raises(IllegalMoveError, match="'c2-a2 1R': the move completes YYYYB and ends the game; no twist"):
        g.push_text("c2-a2 1R")
    g.push_text("c2-a2")
    assert g.is_over() and g.outcome.winners == (1,) and g.moves == [TripleMove(h("a2"), None, h("c2"))]
    assert g.outcome.lines == (tuple(map(h, ["e6", "d5", "c4", "b3", "a2"])),)


def test_a_move_phase_always_has_a_legal_move():
    g = TripleGame(TripleOptions(cards=parse_cards("BBBBY")), position=FULL, last_played=h("a6"))
    moves = g.legal_moves()  # 26 marbles x 9 holes, each with 8 twists or bare (a pattern)
    assert {m.origin for m in moves} == set(range(36)) - {h("a6")} - set(map(h, ["d2", "e2", "f2"])) - set(range(6))
    assert {m.hole for m in moves} == set(map(h, ["d2", "e2", "f2"])) | set(range(6))


def test_the_third_repetition_of_a_move_phase_position_ends_the_game():
    g = game("BYRYB", position=FULL)
    cycle = ["a3-a1 2R", "b3-b1 2L", "a1-a3 2R", "b1-b3 2L"]  # four turns bring the board back
    play(g, *cycle, *cycle)
    assert not g.is_over()
    g.push_text(cycle[0])  # the position after the first turn comes round a third time
    assert g.is_over() and g.outcome.termination is Termination.REPETITION
    assert g.outcome.winners == () and g.outcome.result == "draw" and g.standings == ((1, 2),)


# -- colours ------------------------------------------------------------------------------------

def test_a_colour_runs_out_of_the_box_after_nine():
    start = board("b.b.b.", "......", "b.b.b.", "......", "b.b.b.", "......")
    g = game("BBBBY", position=start)
    assert g.in_box(B) == 0 and g.in_box(Y) == 9
    with pytest.raises(IllegalMoveError, match="'Bf6 1R': no blue marble is left in the box .all 9 are on the board."):
        g.push_text("Bf6 1R")
    g.push_text("Yf6 1R")
    assert g.in_box(Y) == 8 and g.out == (9, 1, 0)


def test_two_colour_play_refuses_the_third_colour_and_moves_once_eighteen_are_out():
    g = game("BYBYB,YYBYB", players=3, two_colour=True)
    assert g.allowed == (B, Y) and g.in_box(R) == 0
    with pytest.raises(IllegalMoveError, match="'Rf6 1R': red is out of play: two-colour play uses only blue and yellow"):
        g.push_text("Rf6 1R")
    start = board("bybyby", "ybybyb", "bybyby", "......", "......", "......")
    g = game("BYBYB,YYBYB", players=3, two_colour=True, position=start)
    assert g.is_move_phase()


def test_two_colour_play_needs_cards_in_exactly_two_colours():
    with pytest.raises(ValueError, match="two-colour play needs cards in exactly two colours; these use blue, yellow, red"):
        game("BYBYB,RRYRY", players=3, two_colour=True)
    cards = deal(TripleOptions(players=4, two_colour=True, seed=3))
    assert len({c for card in cards for c in card.colours}) == 2 and len(cards) >= 3


# -- options: personal cards, the bonus game ----------------------------------------------------

def test_personal_cards_the_first_to_build_their_own_wins_and_another_players_does_nothing():
    start = board("......", "......", "......", "......", "rrrr..", "bbbb..")
    g = game("BBBBY,RRRRY", personal=True, position=start)
    assert g.personal == g.cards == parse_cards("BBBBY,RRRRY")
    g.push_text("Ye2 1R")  # seat 1 builds seat 2's RRRRY: nothing happens, the twist follows
    assert not g.is_over() and g.to_move == 2
    g.push_text("Rf6 1R")  # RRRRY stood before seat 2's turn: not seat 2's
    assert not g.is_over()
    g.push_text("Ye1")  # seat 1 builds its own card
    assert g.is_over() and g.outcome.termination is Termination.OWN_PATTERN
    assert g.outcome.winners == (1,) and g.standings == ((1,), (2,)) and g.eliminated == ()


def test_the_bonus_game_takes_cards_one_at_a_time_and_most_cards_wins():
    start = board("......", "......", "......", "yyyy..", "rrrr..", "bbbb..")
    g = game("BBBBY,RRRRY,YYYYB", players=3, bonus=True, position=start)
    assert g.cards == (Card.parse("BBBBY"),)
    g.push_text("Ye2 1R")  # RRRRY is not face-up yet: nothing
    g.push_text("Ye1")  # seat 2 takes BBBBY; RRRRY is turned, but it already stands: nobody's
    assert g.cards == (Card.parse("RRRRY"),) and g.taken[2] == [Card.parse("BBBBY")] and not g.is_over()
    g.push_text("Rf5 1R")  # seat 3 cannot take it either: it stood before the turn
    assert g.cards == (Card.parse("RRRRY"),) and g.taken[3] == []


def test_bonus_game_scoring_ties_share_first_place():
    start = board("......", "......", "......", "......", "rrrr..", "bbbb..")
    g = game("BBBBY,RRRRY", players=3, bonus=True, position=start)
    play(g, "Ye1", "Ye2")  # seat 1 takes BBBBY, seat 2 takes RRRRY: the cards have run out
    assert g.is_over() and g.outcome.termination is Termination.CARDS_OUT
    assert g.standings == ((1, 2), (3,)) and g.outcome.winners == (1, 2) and g.outcome.result == "win"
    assert {seat: [str(c) for c in cards] for seat, cards in g.taken.items()} == {1: ["BBBBY"], 2: ["RRRRY"], 3: []}
    g2 = game("BBBBY,RRRRY", players=2, bonus=True, position=start)
    play(g2, "Ye1", "Ye2")
    assert g2.standings == ((1, 2),) and g2.outcome.winners == () and g2.outcome.result == "draw"
    g3 = game("BBBBY,RRRRY", players=2, bonus=True, position=start)
    play(g3, "Ye1", "Rf6 1R", "Ye2")
    assert g3.standings == ((1,), (2,)) and g3.outcome.winners == (1,)


# -- the twist, take-back, notation, options, records ---------------------------------------------

def test_the_twist_is_always_made():
    g = game("BBBBY")
    with pytest.raises(IllegalMoveError, match="'Rb5': the twist is missing: every turn ends with a twist"):
        g.push_text("Rb5")
    g.place(h("b5"), R)
    with pytest.raises(IllegalMoveError, match="every turn ends with a twist"):
        g.skip_twist()
    g.twist(Twist(4, False))  # an empty block may be turned
    assert g.to_move == 2


def test_anything_after_the_game_is_over_is_refused():
    g = game("BBBBY", position=board("......", "......", "......", "......", "......", "bbbb.."))
    g.push_text("Ye1")
    with pytest.raises(IllegalMoveError, match="'Rf6 1R': placing R on f6: the game is over"):
        g.push_text("Rf6 1R")


def test_pop_takes_back_whole_turns_and_eliminations():
    start = board("......", "......", "......", "yyyy..", "rrrr..", "bbbb..")
    g = game("BBBBY,RRRRY,YYYYB", players=4, position=start)
    play(g, "Rf6 1R", "Ye1")
    assert g.eliminated == (1,)
    assert g.pop() == TripleMove(h("e1"), Y)
    assert g.eliminated == () and len(g.cards) == 3 and g.to_move == 2 and g.out == (4, 4, 5)
    assert g.pop() == TripleMove(h("f6"), R, None, Twist(1, True))
    assert g.position == start and g.to_move == 1 and g.last_played is None
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        g.pop()


@pytest.mark.parametrize("text, canonical", [
    ("Rb5 4R", "Rb5 4R"), ("rb5", "Rb5"), ("a1-b5 4R", "a1-b5 4R"), ("A1-B5", "a1-b5"), ("y2/5 1l", "Ye5 1L"),
    ("bb5 2R", "Bb5 2R"),
])
def test_triple_notation_round_trips(text, canonical):
    move = parse_triple_move(text, G)
    assert triple_move_name(move, G) == canonical
    assert parse_triple_move(canonical, G) == move


@pytest.mark.parametrize("text, message", [
    ("b5 4R", "'b5' names no colour"),
    ("Gb5 4R", "'Gb5' is not a placement"),
    ("Rb7 4R", "'b7' is not a hole"),
    ("a1-b9", "'b9' is not a hole"),
    ("Rb5 5R", "there is no block 5"),
])
def test_triple_notation_errors_name_the_text(text, message):
    with pytest.raises(NotationError, match=message):
        parse_triple_move(text, G)


def test_options_round_trip_and_the_seed_makes_the_deal_repeatable():
    options = TripleOptions(players=4, cards=parse_cards("BYRYB,RRYBB,YYRYY"), seed=5, two_colour=False)
    assert TripleOptions.parse(options.text()) == options
    assert deal(TripleOptions(players=3, seed=9)) == deal(TripleOptions(players=3, seed=9))
    assert deal(TripleOptions(players=3, seed=9)) != deal(TripleOptions(players=3, seed=10))
    assert TripleGame(TripleOptions(players=3)).cards == deal(TripleOptions(players=3))[:2]
    with pytest.raises(ValueError, match="option 'colour=red' is not one of"):
        TripleOptions.parse("colour=red")
    with pytest.raises(ValueError, match="card BBYRR is given twice .RRYBB read backwards."):
        game("RRYBB,BBYRR", players=3)
    with pytest.raises(ValueError, match="4 players need 3 face-up cards, not 2"):
        game("RRYBB,BBYRY", players=4)


def test_a_triple_record_round_trips_and_replays_without_the_deck_file():
    g = TripleGame.new(players=3, seed=4, bonus=True)
    play(g, "Rb5 4R", "Ya1 1L", "Bf6 2R")
    text = format_record(record_of(g, ["Ada", "Bo", "Cy"]))
    assert text.splitlines()[:2] == ["Variant: triple", "Options: players=3 cards=" + ",".join(map(str, g.dealt))
                                     + " seed=4 two-colour=off personal=off bonus=on"]
    assert format_record(parse_record(text)) == text
    again = replay(parse_record(text))
    assert again.position == g.position and again.cards == g.cards and again.moves == g.moves


def test_a_running_triple_record_and_a_bad_move_line_in_one():
    start_moves = ["Bf6 1R"]
    g = game("BBBBY,RRRRY,YYYYB", players=4)
    play(g, *start_moves)
    record = record_of(g, ["A", "B", "C", "D"])
    assert record.headers["Result"] == "*" and record.moves == ["Bf6 1R"]
    with pytest.raises(NotationError, match="record line 11: 'b5' names no colour"):
        parse_record(format_record(record) + "b5 1R\n")


def test_a_finished_triple_record_gives_the_standings_and_replays_to_them():
    g = TripleGame.new(players=3, cards=parse_cards("BBBBY,RRRRY"))
    play(g, "Ba1 2R", "Bb1 2R", "Bc1 2R", "Bd1 2R", "Ye1", "Ra2 2R", "Rb2 2R", "Rc2 2R", "Rd2 2R", "Ye2")
    record = record_of(g, ["A", "B", "C"])
    assert record.headers["Result"] == "3 > 2 > 1" and g.eliminated == (1, 2)
    assert replay(parse_record(format_record(record))).standings == ((3,), (2,), (1,))
