"""The search's bitboard move generation agrees with the rules and with the exact solver."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from controller.ai import to_move
from controller.ai.moves import DRAW, LOSES_NEXT, LOSS, WIN, expand, has_winning_move
from controller.rules import ClassicGame

from .helpers import ORACLE, game_of, random_game


def rules_children(game: ClassicGame) -> dict[tuple[int, int], int | None]:
    """Every distinct (mover's stones, opponent's stones) after a legal move, with its result."""
    out = {}
    me, them = game.colour, 1 - game.colour
    for move in game.legal_moves():
        game.push(move)
        stones, outcome = game.position.stones, game.outcome
        if outcome is None:
            result = None
        elif not outcome.winners:
            result = DRAW
        else:
            result = WIN if outcome.winners == (me + 1,) else LOSS
        out[(stones[me], stones[them])] = result
        game.pop()
    return out


def search_children(game: ClassicGame) -> dict[tuple[int, int], int | None]:
    stones = game.position.stones
    children = expand(stones[game.colour], stones[1 - game.colour])
    return {(c[2], c[3]): c[4] for c in children}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), stones=st.integers(0, 35))
@example(seed=510511, stones=24)  # a twist reaches the board of a five on placement: listed once
def test_children_and_results_match_the_rules(seed, stones):
    game = random_game(seed, stones)
    ours = search_children(game)
    assert ours == rules_children(game)
    assert len(ours) == len(expand(*_sides(game)))  # no board listed twice


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), stones=st.integers(0, 35))
def test_winning_move_detection_matches_the_children(seed, stones):
    game = random_game(seed, stones)
    assert has_winning_move(*_sides(game)) == (WIN in search_children(game).values())


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), stones=st.integers(0, 35))
@example(seed=1, stones=24)
def test_a_move_is_marked_lost_next_exactly_when_the_opponent_can_then_win_at_once(seed, stones):
    game = random_game(seed, stones)
    plain = expand(*_sides(game))
    judged = expand(*_sides(game), replies=True)
    assert [c[:4] for c in judged] == [c[:4] for c in plain]  # the same moves, in the same order
    for (*_, after_me, after_opp, result), (*_, before) in zip(judged, plain):
        if before is not None:
            assert result == before  # a finished game keeps its result
        else:
            assert (result == LOSES_NEXT) == has_winning_move(after_opp, after_me)
            assert result in (None, LOSES_NEXT)


def test_oracle_moves_marked_lost_next_are_losses_for_the_solver():
    for entry in ORACLE[::8]:
        game = game_of(entry)
        for hole, t, *_, result in expand(*_sides(game), replies=True):
            if result == LOSES_NEXT:
                assert entry["moves"][game.move_name(to_move(game, hole, t))] == -1, entry["id"]


def test_every_generated_move_is_legal_and_lands_on_its_board():
    for entry in ORACLE[::20]:
        game = game_of(entry)
        legal = set(game.legal_moves())
        me, them = game.colour, 1 - game.colour
        for hole, t, after_me, after_opp, _ in expand(*_sides(game)):
            move = to_move(game, hole, t)
            assert move in legal
            game.push(move)
            assert (game.position.stones[me], game.position.stones[them]) == (after_me, after_opp)
            game.pop()


def test_terminal_results_have_the_solvers_values():
    checked = 0
    for entry in ORACLE:
        game = game_of(entry)
        for hole, t, *_, result in expand(*_sides(game)):
            if result is not None:
                assert entry["moves"][game.move_name(to_move(game, hole, t))] == result, entry["id"]
                checked += 1
    assert checked > 400


def _sides(game: ClassicGame) -> tuple[int, int]:
    stones = game.position.stones
    return stones[game.colour], stones[1 - game.colour]
