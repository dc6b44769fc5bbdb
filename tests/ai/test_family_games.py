"""Seeded whole games: at every level, in every game of the family, the computer's every move is
one the rules accept (they raise on an illegal move), and the game finishes."""

import random

import pytest

from controller.ai import choose_move
from controller.rules import MultiplayerGame, TeamGame, TripleGame, TripleOptions

LEVELS = [0, 1, 2, 3]
NODES = 20  # small budgets: these games check legality, bench/ai_family.py measures strength
TRIPLE_TURNS = 400  # a bound for the loop: a Triple game against careless seats is far shorter

NINE = {
    "multiplayer 2 players, no skip": lambda: MultiplayerGame(2, neutral_skip=False),
    "multiplayer 3 players": lambda: MultiplayerGame(3),
    "multiplayer 4 players, both ways": lambda: MultiplayerGame(4, twist="both"),
    "teams": lambda: TeamGame(),
    "teams, both ways, no skip": lambda: TeamGame(twist="both", neutral_skip=False),
}

TRIPLE = {
    "2 players": TripleOptions(players=2, seed=1),
    "3 players": TripleOptions(players=3, seed=2),
    "4 players, personal cards": TripleOptions(players=4, seed=3, personal=True),
    "2 players, bonus game": TripleOptions(players=2, seed=4, bonus=True),
    "3 players, two colours": TripleOptions(players=3, seed=5, two_colour=True),
}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", NINE)
def test_the_computer_at_every_seat_finishes_a_9x9_game(name, level):
    game = NINE[name]()
    while not game.is_over():
        game.push(choose_move(game, level=level, seed=len(game.moves), nodes=NODES))
    assert game.outcome is not None and len(game.moves) <= 81


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", TRIPLE)
def test_the_computer_finishes_a_triple_game_against_careless_seats(name, level):
    # the other seats play any legal move (drawn by the seed): they hand patterns over, so the
    # game ends (two careful seats may play on for long: the repetition rule ends that in the end)
    game = TripleGame(TRIPLE[name])
    rng = random.Random(level)
    while not game.is_over() and len(game.moves) < TRIPLE_TURNS:
        if game.to_move != 1:
            game.push(rng.choice(game.legal_moves()))
        else:
            game.push(choose_move(game, level=level, seed=len(game.moves), nodes=NODES))
    assert game.is_over()


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", TRIPLE)
def test_the_computer_at_every_triple_seat_plays_into_the_move_phase(name, level):
    # 45 turns take the game past the 27 placements (18 with two colours) into the move phase
    game = TripleGame(TRIPLE[name])
    while not game.is_over() and len(game.moves) < 45:
        game.push(choose_move(game, level=level, seed=len(game.moves), nodes=NODES))
    assert game.is_over() or game.is_move_phase()


DEADLINE_GAMES = {
    "multiplayer": lambda: MultiplayerGame(3),
    "teams": lambda: TeamGame(),
    "triple": lambda: TripleGame(TripleOptions(players=2, seed=6)),
}


@pytest.mark.parametrize("calls", [0, 3])
@pytest.mark.parametrize("level", [2, 3])
@pytest.mark.parametrize("name", DEADLINE_GAMES)
def test_a_deadline_that_runs_out_still_gets_a_legal_move(name, level, calls):
    # the deadline is up at once, or after a few of the search's looks at it
    game = DEADLINE_GAMES[name]()
    rng = random.Random(calls)
    for _ in range(6):
        game.push(rng.choice(game.legal_moves()))
    asked = []

    def deadline():
        asked.append(1)
        return len(asked) > calls

    move = choose_move(game, level=level, deadline=deadline)
    assert move in game.legal_moves()
