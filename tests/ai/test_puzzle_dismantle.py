"""The computer's Picture-Puzzle dismantle: always exactly k removals and k twists, each legal when
played in order (the rules' own referee plays them), repeatable from its seed; the beginner's
twists leave the removed stones' holes where they were when they can."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.ai.puzzle import LEVELS, dismantle
from controller.rules.geometry import geometry
from controller.rules.puzzle.pictures import Picture, library_picture
from controller.rules.position import Position
from controller.rules.puzzle import Phase, PuzzleGame, PuzzleOptions
from controller.rules.puzzle.notation import Kind


@st.composite
def games(draw) -> PuzzleGame:
    size = draw(st.sampled_from((6, 9)))
    holes = draw(st.lists(st.integers(0, size * size - 1), min_size=1, max_size=14, unique=True))
    stones = [0, 0, 0, 0]
    for hole in holes:
        stones[draw(st.integers(0, 3))] |= 1 << hole
    picture = Picture("Random", Position(geometry(size), tuple(stones)))
    k = draw(st.integers(1, len(holes)))
    return PuzzleGame(picture, PuzzleOptions(players=2, start_k=k))


@settings(max_examples=150, deadline=None)
@given(games(), st.sampled_from(LEVELS), st.integers(0, 2**32))
def test_the_dismantle_is_exactly_k_of_each_and_every_step_is_legal(game, level, seed):
    steps = dismantle(game, seed=seed, level=level)
    kinds = [step.kind for step in steps]
    assert kinds.count(Kind.REMOVE) == game.k and kinds.count(Kind.TWIST) == game.k
    for step in steps:
        assert game.push(step) is None  # the referee refuses an illegal step with an error
    assert game.phase is Phase.PLACE
    assert steps == dismantle(_fresh(game), seed=seed, level=level)


def _fresh(game: PuzzleGame) -> PuzzleGame:
    return PuzzleGame(game.picture, game.options)


def test_the_beginner_leaves_the_holes_where_the_stones_were_on_a_picture_with_an_empty_block():
    game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=2, start_k=3))
    steps = dismantle(game, seed=5, level=0)
    removed = {step.hole for step in steps if step.kind is Kind.REMOVE}
    for step in steps:
        game.push(step)
    holes = game.picture.position.occupied & ~game.position.occupied
    assert {h for h in range(81) if holes >> h & 1} == removed


def test_the_harder_levels_move_a_hole_with_a_twist():
    game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=2, start_k=2))
    steps = dismantle(game, seed=3, level=1)
    plain = game.picture.position
    for step in steps:
        game.push(step)
        if step.kind is Kind.REMOVE:
            plain = plain.lift(step.hole)
    assert game.position != plain  # not just the picture with its stones taken out


@pytest.mark.parametrize("level", [-1, 4, True])
def test_a_bad_level_is_refused(level):
    game = PuzzleGame(library_picture("h", 9))
    with pytest.raises(ValueError, match="level"):
        dismantle(game, level=level)


def test_only_the_dismantle_is_planned():
    game = PuzzleGame(library_picture("h", 9))
    for step in dismantle(game):
        game.push(step)
    with pytest.raises(ValueError, match="phase 'place'"):
        dismantle(game)


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 2**32))
def test_the_strongest_level_twists_the_block_that_changes_most_and_never_undoes_a_twist(game, seed):
    steps = dismantle(game, seed=seed, level=3)
    position, last = game.position, None
    for step in steps:
        if step.kind is Kind.TWIST:
            changes = [_changed(position, block) for block in range(1, position.geometry.block_count + 1)]
            assert changes[step.twist.block - 1] == max(changes)
            assert last is None or step.twist != (last.block, not last.clockwise)
            last = step.twist
        game.push(step)
        position = game.position


def _changed(position: Position, block: int) -> int:
    turned = position.rotate(block, True)
    return sum((a ^ b).bit_count() for a, b in zip(position.stones, turned.stones))
