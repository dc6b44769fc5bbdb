"""Build the Pentago Triple tape in tests/data/tapes with its expected replay result.

Run ``python -m tests.core.make_triple_tape`` from the repository root to rebuild it. Three
players on a presence board (no sensor sees colour): every placement is put down, its colour
cycled with the back button to the one meant and confirmed with ok, then the block is turned;
in the move phase a marble is lifted and put down elsewhere. The game is found by a seeded
playout through the rules that takes a card whenever it can, so seats are knocked out; the
expected result comes from the rules (the moves meant, the eliminations, the winner), never
from running the core.
"""

from __future__ import annotations

import random

from controller.rules import TripleGame, TripleMove, TripleOptions, hole_name, parse_cards, parse_triple_move

from .make_tapes import write
from .tapebuilder import TapeBuilder

NAME = "triple_three_players_to_a_winner"
OPTIONS = {"game": "triple", "players": 3, "cards": "BBYBB,RRYRR"}


def rules_options() -> TripleOptions:
    return TripleOptions(players=3, cards=parse_cards(OPTIONS["cards"]))


def find_game(seed: int) -> list[str]:
    """A whole game: a move completing a card when there is one, else a random legal move."""
    rng = random.Random(seed)
    game = TripleGame(rules_options())
    while not game.is_over():
        moves = game.legal_moves()
        taking = [m for m in moves if _takes(game, m)]
        move = rng.choice(taking or moves)
        game.push(move)
    return [game.move_name(m) for m in game.moves]


def _takes(game: TripleGame, move: TripleMove) -> bool:
    before = len(game.claims)
    game.push(move)
    took = len(game.claims) > before
    game.pop()
    return took


def presses(game: TripleGame, colour: int) -> int:
    """Presses of the cycle button from the colour the board assumes to ``colour`` (the flow's
    guess: the last colour placed if any is left, else the first left; cycling among those left)."""
    left = [c for c in game.allowed if game.in_box(c)]
    placed = [m.colour for m in game.moves if m.colour is not None]
    guess = placed[-1] if placed and placed[-1] in left else left[0]
    return (left.index(colour) - left.index(guess)) % len(left)


def build(seed: int = 31) -> tuple[TapeBuilder, list[str], dict]:
    moves = find_game(seed)
    b = TapeBuilder(seed=seed, options=OPTIONS)
    game = TripleGame(rules_options())
    g = game.geometry
    for i, text in enumerate(moves):
        move = parse_triple_move(text, g)
        if move.origin is None:
            b.put(hole_name(move.hole, g), colour=0, bounce=1 if i % 5 == 2 else 0).pause()
            for _ in range(presses(game, move.colour)):
                b.button("back")
            b.button("ok")
        else:
            b.lift(hole_name(move.origin, g)).pause(0.3).put(hole_name(move.hole, g), colour=0).pause()
        if move.twist is not None:
            b.turn(move.twist.block, 1 if move.twist.clockwise else -1)
        b.pause()
        game.push(move)
    outcome = game.outcome
    assert outcome is not None and len(game.eliminated) == 2
    result = {"moves": moves, "outcome": {"result": outcome.result, "winners": list(outcome.winners)},
              "repairs": 0, "standings": [list(place) for place in outcome.standings],
              "eliminated": list(game.eliminated)}
    return b, moves, result


def main() -> None:
    builder, moves, result = build()
    write(NAME, builder, moves, result)


if __name__ == "__main__":
    main()
