"""`pentago-board analyse --board ROWS --to-move x|o [--time S] [--level L] [--json]`: ask the
computer opponent for its move in a classic position, from the shell."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

WIN = 1_000_000  # controller.ai.evaluate.WIN, the scale of a proven result (kept in step by a test)
PROVEN = WIN - 1000

DESCRIPTION = f"""\
Ask the computer opponent which move it would play in a classic 6x6 position, and print the
move, its score, the depth of the search and the number of positions (nodes) it looked at.

ROWS is the board as 36 characters, the form of the oracle positions: row 6 (the top) first,
down to row 1, each row from column a to f; '.' is an empty hole, 'x' a marble of the player who
moved first, 'o' of the other. --to-move says whose turn it is; x is to move exactly when both
have as many marbles, so --to-move must agree with the board (a disagreement is refused, not
corrected). A board that no game can reach is refused with exit status 2 and the reason: a
wrong length or character, marble counts that cannot be (x has as many as o or one more), a
game already won (five in a row) or a full board.

The move is written as in the rulebook: 'b5 4R' is a marble on b5, then block 4 (blocks 1 2 /
3 4 in reading order) turned clockwise, L counter-clockwise; a hole alone ('b5') is a five made
by the marble, which ends the game before the twist.

The score is from the view of the side to move: positive is good for it. Up to a few thousand
it is the static evaluation (open lines of five, weighted steeply by how many marbles they hold:
an open four is worth about 300). A proven result is far outside that: {WIN} minus N means
the side to move wins by force in N plies (its own move counts as one), minus ({WIN} minus N)
that it loses by force within N plies; 0 may also be a proven draw.

Levels: 0 beginner and 1 easy look one move ahead (depth 1; the beginner often plays a safe
move at random, as it would at the board); 2 normal and 3 strong search deeper until the time is
up. --time is the thinking time in wall-clock seconds (default: the level's, as the daemon gives
it on a Raspberry Pi: 1.5 s for level 2, 6 s for level 3). Levels 0 and 1 always answer the same
for the same board; levels 2 and 3 may answer differently on a busier or faster machine.

The thinking time starts when the search does, so a whole call takes longer than --time: about
half a second more to start Python and load the computer, and with the compiled engine another
1-2 s (more on a busy machine or a Raspberry Pi) to load numba's cached build of the search, or
tens of seconds the first time, while numba compiles it. The daemon loads it once, off the
clock, so at the board the computer thinks for its time and no more.

--engine compiled searches with the compiled search (numba, the 'fast' extra): the same search
at many times the speed; auto (the default) uses it when it is installed, python never does.

--json prints {{"move": "b5 4R", "score": 123, "depth": 4, "nodes": 56789}}."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("analyse", help="ask the computer for its move in a classic position",
                                   description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", required=True, metavar="ROWS",
                        help="36 characters: rows 6 down to 1, columns a to f; '.', 'x' or 'o'")
    parser.add_argument("--to-move", required=True, choices=("x", "o"), dest="to_move",
                        help="whose turn it is (must agree with the marble counts)")
    parser.add_argument("--time", type=_seconds, metavar="S",
                        help="thinking time in wall-clock seconds, from when the search starts (default: the level's)")
    parser.add_argument("--level", type=int, default=2, metavar="L",
                        help="0 beginner, 1 easy, 2 normal (the default), 3 strong")
    parser.add_argument("--engine", default="auto", metavar="E",
                        help="auto (the default: compiled when the fast extra is installed), python or compiled")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..ai import LEVELS, THINK_SECONDS, analyse, engine_in_use, to_move
    from ..ai.board import game_from_board
    from ..ai.compiled import warm_up

    if args.level not in LEVELS:
        return _refuse(f"--level {args.level}: the levels are {', '.join(map(str, LEVELS))}")
    try:
        game = game_from_board(args.board, args.to_move)
        engine = engine_in_use(args.engine)
    except ValueError as error:  # a BoardError, or the compiled engine without its extra
        return _refuse(str(error))
    if engine == "compiled" and args.level >= 2:
        warm_up()  # compiling (or loading the cached build) is not thinking time
    seconds = args.time if args.time is not None else THINK_SECONDS[args.level]
    stop = time.monotonic() + seconds
    result = analyse(game, level=args.level, deadline=lambda: time.monotonic() >= stop, engine=engine)
    answer: dict[str, Any] = {"move": game.move_name(to_move(game, *result.move)), "score": result.score,
                              "depth": result.depth, "nodes": result.nodes}
    if args.json:
        print(json.dumps(answer))
    else:
        print(f"move:  {answer['move']}\nscore: {result.score:+d}{_meaning(result.score, args.to_move)}\n"
              f"depth: {result.depth}\nnodes: {result.nodes}")
    return 0


def _meaning(score: int, side: str) -> str:
    if score > PROVEN:
        return f" ({side} wins by force in {_plies(WIN - score)})"
    if score < -PROVEN:
        return f" ({side} loses by force within {_plies(WIN + score)})"
    return f" (static evaluation for {side}; positive is good for {side})"


def _plies(n: int) -> str:
    return "1 ply" if n == 1 else f"{n} plies"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} seconds: give more than 0 and at most 3600")
    return value


def _refuse(reason: str) -> int:
    print(f"pentago-board analyse: {reason}", file=sys.stderr)
    return 2
