"""Shared helpers for the computer opponent's tests: oracle positions and random games."""

from __future__ import annotations

import json
import random
from pathlib import Path

from controller.rules import ClassicGame, Position

DATA = Path(__file__).resolve().parent.parent / "data" / "oracle-positions.jsonl"
ORACLE = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def game_of(entry: dict) -> ClassicGame:
    """The oracle entry as a game awaiting the placement of the side to move."""
    return ClassicGame(position=Position.parse(entry["board"]), to_move=1 if entry["to_move"] == "x" else 2)


def game_from(board: str, to_move: int = 1) -> ClassicGame:
    """A game from a board drawn as six rows, top row first (spaces ignored)."""
    return ClassicGame(position=Position.parse(board.replace(" ", "")), to_move=to_move)


def random_game(seed: int, stones: int) -> ClassicGame:
    """A game after up to ``stones`` random moves, stopped early rather than finished."""
    rng = random.Random(seed)
    game = ClassicGame()
    for _ in range(stones):
        moves = game.legal_moves()
        move = rng.choice(moves)
        game.push(move)
        if game.is_over():
            game.pop()
            break
    return game
