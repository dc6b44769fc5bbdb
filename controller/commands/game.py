"""`pentago-board game`: referee a list of moves and print the board and the outcome."""

from __future__ import annotations

import argparse
import json
import sys

from ..rules import ClassicGame, IllegalMoveError, NotationError, Outcome, hole_name
from ..rules.notation import split_moves

VARIANTS = {"classic": 6}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "game",
        help="referee a move list and print the board",
        description="Play MOVEs in classic notation ('b5 4R', or 'b5' for a win on placement or a "
        "skipped twist) and print the board, whose turn it is, or the outcome.",
    )
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="classic")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a diagram")
    parser.add_argument("moves", nargs="*", metavar="MOVE")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    game = ClassicGame(size=VARIANTS[args.variant])
    for number, text in enumerate(split_moves(args.moves, game.geometry), start=1):
        try:
            game.push_text(text)
        except (IllegalMoveError, NotationError) as error:
            print(f"pentago-board game: move {number}: {error}", file=sys.stderr)
            return 2
    print(json.dumps(as_json(game)) if args.json else as_text(game))
    return 0


def outcome_json(game: ClassicGame) -> dict:
    outcome: Outcome | None = game.outcome
    if outcome is None:
        return {"result": "none", "winners": [], "lines": []}
    lines = [[hole_name(h, game.geometry) for h in run] for run in outcome.lines]
    return {"result": outcome.result, "winners": list(outcome.winners), "lines": lines}


def as_json(game: ClassicGame) -> dict:
    return {
        "board": game.position.rows(),
        "to_move": None if game.is_over() else game.to_move,
        "outcome": outcome_json(game),
    }


def as_text(game: ClassicGame) -> str:
    lines = [game.position.diagram()]
    outcome = game.outcome
    if outcome is None:
        lines.append(f"seat {game.to_move} to move")
    else:
        runs = "; ".join(" ".join(hole_name(h, game.geometry) for h in run) for run in outcome.lines)
        who = f"seat {', '.join(map(str, outcome.winners))} wins" if outcome.winners else "draw"
        lines.append(f"{who} ({outcome.termination.value})" + (f": {runs}" if runs else ""))
    return "\n".join(lines)
