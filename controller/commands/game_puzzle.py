"""The Picture-Puzzle branch of `pentago-board game` (``--variant puzzle``): the referee of a
list of steps, printed as a board and the rounds, or as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..files import read_bounded
from ..rules import IllegalMoveError, NotationError
from ..rules.puzzle.pictures import MAX_PICTURE_BYTES, Picture, load_picture
from ..rules.puzzle import Phase, PuzzleGame, PuzzleOptions, Round
from .pictures import BOARDS, diagram


HELP = """\
Picture-Puzzle (--variant puzzle --picture NAME_OR_FILE --players N [--board 6x6|9x9]
[--start-k K]): the picture (a library name, see 'pentago-board pictures', or a picture file)
stands on the board (9x9 unless --board or the file says otherwise). Each round the restorer
looks away; the dismantler removes k stones and makes k twists in any order; the restorer places
one stone and twists one block, k times. STEPs are the physical actions in order: a removal
'-e5', a twist '3R' / '3L', a placement 'e5' ('Re5' with the colour letter, W B R G, when the
picture has more than one colour). Seat 1 restores first with seat 2 dismantling, then seat 2
with the next seat still in, and so on; a restore that does not give back the picture exactly
puts the restorer out, and the next round starts from the picture again. After every player
in has restored once, k grows by one (from 1, or --start-k, up to the picture's stones). The
last player in wins (--players 2-4, default 2). Puzzle's --json: {"board": rows from the top
in picture letters, "k": current k, "stage": n, "restorer": seat, "dismantler": seat (both null
once the game is over), "rounds": [{"restorer", "dismantler", "k", "passed"}], "outcome":
{"result": "win" or "none", "winners": [seat], "eliminated": seats in the order they went
out}}. A step of the wrong kind exits 2 naming the step and the rule."""

PUZZLE_ONLY = ("picture", "board", "start_k")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options only the puzzle takes."""
    parser.add_argument("--picture", metavar="NAME_OR_FILE", help="puzzle: the picture (a library name or a file)")
    parser.add_argument("--board", choices=tuple(BOARDS), help="puzzle: the board, 6x6 or 9x9 (default 9x9)")
    parser.add_argument("--start-k", type=int, metavar="K", help="puzzle: the k of the first stage (default 1)")


def refuse_puzzle_options(args: argparse.Namespace) -> str | None:
    """A refusal when a puzzle-only option was given to another variant, else None."""
    for name in PUZZLE_ONLY:
        if getattr(args, name) is not None:
            return f"--{name.replace('_', '-')} is an option of --variant puzzle only"
    return None


def run(args: argparse.Namespace) -> int:
    try:
        game = _new_game(args)
    except (ValueError, OSError) as error:
        return _refuse(str(error))
    for number, text in enumerate(args.moves, start=1):
        try:
            game.push_text(text)
        except (IllegalMoveError, NotationError) as error:
            return _refuse(f"step {number}: {error}")
    print(json.dumps(as_json(game)) if args.json else as_text(game))
    return 0


def _new_game(args: argparse.Namespace) -> PuzzleGame:
    if not args.picture:
        raise ValueError("--variant puzzle needs --picture NAME_OR_FILE (see pentago-board pictures)")
    picture: Picture = load_picture(args.picture, BOARDS[args.board] if args.board else None, read=_read_picture)
    options = PuzzleOptions(players=2 if args.players is None else args.players, start_k=args.start_k or 1)
    return PuzzleGame(picture, options)


def _read_picture(path: Path) -> str:
    return read_bounded(path, MAX_PICTURE_BYTES).decode("utf-8")


def _refuse(message: str) -> int:
    print(f"pentago-board game: {message}", file=sys.stderr)
    return 2


def as_json(game: PuzzleGame) -> dict[str, Any]:
    """The JSON of a puzzle game, keys as issue 12 spells them."""
    outcome = game.outcome
    return {
        "board": game.position.rows("WBRG"),
        "k": game.k,
        "stage": game.stage,
        "restorer": game.restorer,
        "dismantler": game.dismantler,
        "rounds": [_round_json(r) for r in game.rounds],
        "outcome": {
            "result": "none" if outcome is None else outcome.result,
            "winners": [] if outcome is None else list(outcome.winners),
            "eliminated": list(game.eliminated),
        },
    }


def _round_json(done: Round) -> dict[str, Any]:
    return {"restorer": done.restorer, "dismantler": done.dismantler, "k": done.k, "passed": done.passed}


def as_text(game: PuzzleGame) -> str:
    """A puzzle game for people: the board, the rounds so far, whose turn or the winner."""
    lines = [diagram(game.picture.title, game.position, colour=False)]
    for r in game.rounds:
        verdict = "passed" if r.passed else f"failed ({r.reason.value}): seat {r.out} is out"
        lines.append(f"round {r.number} (stage {r.stage}, k = {r.k}): seat {r.restorer} restored, "
                     f"seat {r.dismantler} dismantled: {verdict}")
    if game.outcome is not None:
        lines.append(f"seat {game.outcome.winners[0]} wins (the last player in)")
    else:
        first, second = game.to_do()
        now = (f"seat {game.dismantler} dismantles ({_count(first, 'removal')} and {_count(second, 'twist')} "
               f"to go), then seat {game.restorer} restores" if game.phase is Phase.DISMANTLE else
               f"seat {game.restorer} restores ({_count(first, 'placement')} and {_count(second, 'twist')} to go)")
        lines.append(f"stage {game.stage}, k = {game.k}: {now}")
    return "\n".join(lines)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
