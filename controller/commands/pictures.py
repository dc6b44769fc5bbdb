"""`pentago-board pictures`: the Picture-Puzzle library with each picture's difficulty, and
`pentago-board pictures show NAME` to draw one in the terminal."""

from __future__ import annotations

import argparse
import os
import sys

from ..rules.puzzle.picture_rating import rate
from ..rules.puzzle.pictures import LETTERS, library_names, library_picture
from ..rules.position import Position

BOARDS = {"6x6": 6, "9x9": 9}
# How a terminal that understands colour draws each stone: ANSI foreground colours.
ANSI = {"W": "\x1b[97m", "B": "\x1b[90m", "R": "\x1b[91m", "G": "\x1b[92m"}
RESET = "\x1b[0m"

DESCRIPTION = """\
List the pictures of Picture-Puzzle with their difficulty (1 easiest to 5), or draw one with
'pictures show NAME'. Without --board the list shows both boards and 'show' draws the 9x9
picture. Names are the file names of the library (red-cross) or the titles ("Red Cross").
Stones are letters: W white, B black, R red, G green; '.' is an empty hole."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pictures", help="the Picture-Puzzle library: list it, or show a picture",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--board", choices=tuple(BOARDS), help="only this board's pictures")
    parser.add_argument("words", nargs="*", metavar="show NAME", help="draw the picture NAME")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    words = args.words
    if not words:
        print(listing([BOARDS[args.board]] if args.board else [9, 6]))
        return 0
    if words[0] != "show" or len(words) != 2:
        print(f"pentago-board pictures: {' '.join(words)!r}: write 'pictures' to list them, "
              "or 'pictures show NAME'", file=sys.stderr)
        return 2
    try:
        picture = library_picture(words[1], BOARDS[args.board] if args.board else 9)
    except ValueError as error:
        print(f"pentago-board pictures: {error}", file=sys.stderr)
        return 2
    print(diagram(picture.title, picture.position, colour=_wants_colour()))
    print(rate(picture).words())
    return 0


def listing(sizes: list[int]) -> str:
    """One line per picture: its board, name, title and difficulty."""
    lines = []
    for size in sizes:
        for name in library_names(size):
            picture = library_picture(name, size)
            lines.append(f"{size}x{size}  {name:<16} {picture.title:<16} {rate(picture).words()}")
    return "\n".join(lines)


def diagram(title: str, position: Position, colour: bool) -> str:
    """The title over a labelled board of picture letters, in colour when ``colour``."""
    board = position.diagram().translate(str.maketrans("xoyz", LETTERS))
    if colour:
        for letter, code in ANSI.items():
            board = board.replace(f" {letter}", f" {code}{letter}{RESET}")
    return f"{title}\n{board}"


def _wants_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ
