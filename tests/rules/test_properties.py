"""Property tests: the bitboard engine against plain definitions, on 6x6 and 9x9 boards."""

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import parse_record, replay
from controller.rules import ClassicGame, Position, format_record, geometry, record_of

from . import naive

sizes = st.sampled_from([6, 9])


@st.composite
def positions(draw, colours=st.integers(1, 4), density=st.floats(0.0, 0.9)):
    size, count, fill = draw(sizes), draw(colours), draw(density)
    g = geometry(size)
    cells = draw(st.lists(st.integers(0, count), min_size=g.hole_count, max_size=g.hole_count))
    stones = [0] * count
    for hole, c in enumerate(cells):
        if c and draw(st.floats(0, 1)) < fill + 0.1:
            stones[c - 1] |= 1 << hole
    return Position(g, tuple(stones))


def blocks(position):
    return st.integers(1, position.geometry.block_count)


@given(positions(), st.data())
def test_four_quarter_turns_are_the_identity(position, data):
    block, clockwise = data.draw(blocks(position)), data.draw(st.booleans())
    turned = position
    for _ in range(4):
        turned = turned.rotate(block, clockwise)
    assert turned == position


@given(positions(), st.data())
def test_r_then_l_is_the_identity(position, data):
    block = data.draw(blocks(position))
    assert position.rotate(block, True).rotate(block, False) == position


@given(positions(), st.data())
def test_rotation_matches_the_plain_definition(position, data):
    block, clockwise = data.draw(blocks(position)), data.draw(st.booleans())
    expected = naive.rotate(naive.board_of(position), block, clockwise)
    assert naive.board_of(position.rotate(block, clockwise)) == expected


@settings(max_examples=300)
@given(positions())
def test_fast_win_detection_equals_a_scan_of_every_line(position):
    board = naive.board_of(position)
    for colour in range(len(position.stones)):
        assert position.has_five(colour) == naive.has_five(board, colour)
        assert bool(position.fives(colour)) == naive.has_five(board, colour)


@st.composite
def games(draw, max_moves=30):
    """A game after a random sequence of legal moves (it may have ended)."""
    game = ClassicGame(size=draw(sizes))
    for _ in range(draw(st.integers(0, max_moves))):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(draw(st.sampled_from(moves)))
    return game


@settings(max_examples=60, deadline=None)
@given(games())
def test_legal_moves_never_place_on_an_occupied_hole(game):
    occupied = game.position.occupied
    assert all(not occupied >> m.hole & 1 for m in game.legal_moves())


@settings(max_examples=60, deadline=None)
@given(games())
def test_every_legal_move_can_be_played(game):
    for move in game.legal_moves()[:40]:
        game.push(move)
        game.pop()


@settings(max_examples=60, deadline=None)
@given(games(), st.text(st.characters(min_codepoint=65, max_codepoint=122), min_size=1, max_size=12))
def test_records_round_trip(game, name):
    text = format_record(record_of(game, [name.strip() or "A", "B"], date="2026-11-29"))
    record = parse_record(text)
    assert format_record(record) == text
    again = replay(record)
    assert again.position == game.position and again.outcome == game.outcome
