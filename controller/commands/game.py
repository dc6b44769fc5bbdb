"""`pentago-board game`: referee a list of moves and print the board and the outcome."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from ..rules import IllegalMoveError, NotationError, PlaceTwistGame, TripleGame, hole_name, parse_cards
from ..rules.notation import split_moves
from .. import games
from . import game_puzzle

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
move exits 2 naming the move and the rule.

Pentago Triple (--variant triple, 6x6, --players 2-4, default 2): any player places a marble of
any colour still in the box (9 each of B blue, Y yellow, R red), then twists any block either
way; the twist is always made. A placement is the colour then the hole and the twist ('Rb5 4R'),
or 'Rb5' alone when the placement completes a pattern (the turn ends there). Once all 27 marbles
are out, a turn moves one ('a1-b5 4R'), never the marble played last. Completing a face-up card
(five colours in a line, read either way) eliminates the seat that moved before you and removes
the card; the last player left wins. --cards CARD,... gives the cards (five letters, e.g. BYRYB):
the face-up ones in order, then the rest of the deck, turned when one turn removes several;
--personal: one per seat, in seat order (the first to build their own wins); --bonus: the deck
in the order it is turned (who completes the card takes it; when the cards run out, most cards
wins). Without --cards the cards come from the shipped deck shuffled with --seed (default 0).
--two-colour: the cards use two colours and the third is refused. A move-phase position seen
for the third time ends the game (the players still in share first place; bonus: most cards).
Triple's --json: {"board": rows from row 6 down ("." "b" "y" "r"), "to_move": seat or null
when the game is over, "cards": the face-up cards still in play (personal: one per seat),
"outcome": {"result": "win", "draw" or "none", "winners": seats, "eliminated": seats in the
order they went out, "taken": {seat: cards} (bonus game only)}}. A first place shared by some
seats (bonus tie, or a repeated position) is a "win" with several winners; shared by every
seat, it is a "draw" with no winners.

""" + game_puzzle.HELP
# Picture-Puzzle's removals ('-e5', '-2/5') start with a dash: argparse is told they are values,
# as it is for negative numbers (it has no public hook for this), and -h gives way to --help
# because '-h5' is a removal on the 9x9 board.
REMOVAL = re.compile(r"^-([a-z]\d{1,2}|\d/\d)$", re.IGNORECASE)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "game",
        help="referee a move list and print the board",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,
    )
    parser.add_argument("--help", action="help", help="show this help message and exit")
    parser._negative_number_matcher = REMOVAL
    parser.add_argument("--variant", choices=tuple(games.variants()), default=games.DEFAULT,
                        help="the game (default classic)")
    parser.add_argument("--players", type=int, metavar="N", help="multiplayer, triple and puzzle: 2 to 4 players")
    parser.add_argument("--twist", choices=("cw", "both"),
                        help="multiplayer and teams: clockwise only (cw, the default) or both ways")
    parser.add_argument("--cards", metavar="CARD,CARD,...", help="triple: the cards in order, e.g. BYRYB,RRYBB")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="triple: shuffle the shipped deck with S (default 0) when --cards is not given")
    parser.add_argument("--two-colour", action="store_true", help="triple: two-colour play")
    parser.add_argument("--personal", action="store_true", help="triple: one personal card per seat")
    parser.add_argument("--bonus", action="store_true", help="triple: the bonus game (most cards wins)")
    game_puzzle.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a diagram")
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="the moves (puzzle: the steps)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.variant == "puzzle":
        return game_puzzle.run(args)
    if refusal := game_puzzle.refuse_puzzle_options(args):
        print(f"pentago-board game: {refusal}", file=sys.stderr)
        return 2
    try:
        game = new_game(args)
    except ValueError as error:
        print(f"pentago-board game: {error}", file=sys.stderr)
        return 2
    for number, text in enumerate(split_moves(args.moves, game.geometry), start=1):
        try:
            game.push_text(text)
        except (IllegalMoveError, NotationError) as error:
            print(f"pentago-board game: move {number}: {error}", file=sys.stderr)
            return 2
    if isinstance(game, TripleGame):
        print(json.dumps(triple_json(game)) if args.json else triple_text(game))
    else:
        print(json.dumps(as_json(game)) if args.json else as_text(game))
    return 0


def new_game(args: argparse.Namespace) -> PlaceTwistGame | TripleGame:
    """The game ``--variant`` names (the registry says which), with the options given; an
    option the variant has not raises ValueError naming it (Triple's first: they are flags)."""
    spec, size = games.variants()[args.variant]
    triple = {"cards": parse_cards(args.cards or ""), "seed": args.seed, "two_colour": args.two_colour,
              "personal": args.personal, "bonus": args.bonus}
    if spec.game is not TripleGame:
        for name, given in triple.items():
            if given:
                raise ValueError(f"{name.replace('_', '-')} is an option of triple only")
        triple = {}
    game: PlaceTwistGame | TripleGame = spec.game.new(args.players, args.twist, size=size, **triple)
    return game


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


def triple_json(game: TripleGame) -> dict[str, Any]:
    """The JSON of a Triple game (see the help's Triple paragraph)."""
    outcome = game.outcome
    out: dict[str, Any] = {
        "result": "none" if outcome is None else outcome.result,
        "winners": [] if outcome is None else list(outcome.winners),
        "eliminated": list(game.eliminated),
    }
    if game.mode == "bonus":
        out["taken"] = {str(seat): [str(card) for card in cards] for seat, cards in game.taken.items()}
    return {
        "board": game.rows(),
        "to_move": None if game.is_over() else game.to_move,
        "cards": [str(card) for card in game.cards],
        "outcome": out,
    }


def triple_text(game: TripleGame) -> str:
    """A Triple game for people: the board, the cards, who is out, whose turn or the result."""
    lines = [game.position.diagram().translate(str.maketrans("xoy", "byr"))]
    lines.append("cards: " + (", ".join(map(str, game.cards)) or "none left"))
    if game.eliminated:
        lines.append("eliminated: " + ", ".join(f"seat {seat}" for seat in game.eliminated))
    if game.mode == "bonus":
        lines.append("taken: " + "; ".join(f"seat {s} {len(c)}" for s, c in game.taken.items()))
    outcome = game.outcome
    if outcome is None:
        phase = "moves a marble" if game.is_move_phase() else "places a marble"
        lines.append(f"seat {game.to_move} to move ({phase})")
    else:
        lines.append(f"{_who_wins(outcome.winners)} ({outcome.termination.value})")
        places = (f"{ORDINALS[i]} {_seats(place)}" for i, place in enumerate(outcome.standings))
        lines.append("standings: " + "; ".join(places))
    return "\n".join(lines)
