"""`pentago-board game`: referee a list of moves and print the board and the outcome."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..rules import IllegalMoveError, NotationError, PlaceTwistGame, hole_name, new_game
from ..rules.notation import split_moves
from ..rules.variants import VARIANTS

RANKED = ("multiplayer", "teams")  # variants whose JSON adds "standings"
ORDINALS = ("1st", "2nd", "3rd", "4th")

DESCRIPTION = """\
Play MOVEs and print the board, whose turn it is, or the outcome. A move is a hole and a twist
('b5 4R': block 4 clockwise, L counter-clockwise), or the hole alone ('b5') for a five on
placement or a skipped twist. Blocks are numbered in reading order from the top left.

Variants: classic (6x6, two players, twists either way), classic-9x9, multiplayer (9x9,
--players 2-4, every man for himself: players with five keep their stones on the board and
stop moving while the rest play on for the next places) and teams (9x9, four seats, seats 1
and 3 against 2 and 4). Multiplayer and teams twist clockwise only unless --twist both.

--json prints {"board": rows from the top, "to_move": seat or null, "outcome": {"result": "win",
"draw" or "none" while the game goes on, "winners": seats, "lines": the fives}}; multiplayer
and teams add "standings" (at the top and in "outcome"): a list of places, best first, each a
sorted list of seats, e.g. [[3], [1], [2]]. While a multiplayer game goes on, the standings
are the places earned so far and "winners" the first place once someone has it; a draw is one
place shared by all, with no winners. Teams: the winning pair, then the other. Classic prints
as it always has (its standings would be the winner, then the loser). An illegal or malformed
move exits 2 naming the move and the rule."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "game",
        help="referee a move list and print the board",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--variant", choices=VARIANTS, default="classic", help="the game (default classic)")
    parser.add_argument("--players", type=int, metavar="N", help="multiplayer: 2 to 4 players")
    parser.add_argument("--twist", choices=("cw", "both"),
                        help="multiplayer and teams: clockwise only (cw, the default) or both ways")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a diagram")
    parser.add_argument("moves", nargs="*", metavar="MOVE")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        game = new_game(args.variant, players=args.players, twist=args.twist)
    except ValueError as error:
        print(f"pentago-board game: {error}", file=sys.stderr)
        return 2
    for number, text in enumerate(split_moves(args.moves, game.geometry), start=1):
        try:
            game.push_text(text)
        except (IllegalMoveError, NotationError) as error:
            print(f"pentago-board game: move {number}: {error}", file=sys.stderr)
            return 2
    print(json.dumps(as_json(game)) if args.json else as_text(game))
    return 0


def outcome_json(game: PlaceTwistGame) -> dict[str, Any]:
    outcome = game.outcome
    if outcome is None:
        out: dict[str, Any] = {"result": "none", "winners": [], "lines": []}
        if game.variant in RANKED:
            out["winners"] = list(game.standings[0]) if game.standings else []
            out["lines"] = _names(game, game.place_lines)
    else:
        out = {"result": outcome.result, "winners": list(outcome.winners), "lines": _names(game, outcome.lines)}
    if game.variant in RANKED:
        out["standings"] = [list(place) for place in game.standings]
    return out


def as_json(game: PlaceTwistGame) -> dict[str, Any]:
    out = {
        "board": game.position.rows(),
        "to_move": None if game.is_over() else game.to_move,
        "outcome": outcome_json(game),
    }
    if game.variant in RANKED:
        out["standings"] = [list(place) for place in game.standings]
    return out


def as_text(game: PlaceTwistGame) -> str:
    lines = [game.position.diagram()]
    outcome = game.outcome
    if outcome is None:
        lines.append(f"seat {game.to_move} to move")
    else:
        runs = "; ".join(" ".join(run) for run in _names(game, outcome.lines))
        who = _who_wins(outcome.winners)
        lines.append(f"{who} ({outcome.termination.value})" + (f": {runs}" if runs else ""))
    if game.variant in RANKED and game.standings:
        places = (f"{ORDINALS[i]} {_seats(place)}" for i, place in enumerate(game.standings))
        lines.append("standings: " + "; ".join(places))
    return "\n".join(lines)


def _who_wins(winners: tuple[int, ...]) -> str:
    if not winners:
        return "draw"
    return f"{_seats(winners)} {'wins' if len(winners) == 1 else 'win'}"


def _seats(seats: tuple[int, ...]) -> str:
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"


def _names(game: PlaceTwistGame, runs: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [[hole_name(h, game.geometry) for h in run] for run in runs]
