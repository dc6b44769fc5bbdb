"""Picture-Puzzle's pictures: the text format a teacher edits, and the shipped library.

A picture is a title line, then the grid, top row first: 6 rows of 6 holes (the 6x6 board) or
9 rows of 9 (9x9). ``.`` is an empty hole and one letter names each colour, the product's four
seat colours: ``W`` white, ``B`` black, ``R`` red, ``G`` green (colour indices 0-3, in seat-colour
order, so a polarity board's own two colours are W and B). Cells may be separated by spaces;
letters may be lower case; lines starting with ``#`` and blank lines are ignored anywhere. The
canonical text is the title, then the rows with cells separated by one space (square on
screen), in capitals. Every error names the line and the column.

The library ships as data files (``data/pictures/9x9/<name>.txt`` and ``6x6/``), one picture
each; its name is the file name (``red-cross``), which is also the title in lower case with
dashes (:func:`picture_name`), so ``--picture "Red Cross"`` finds it too. The 9x9 library is the
rulebook's twelve; the 6x6 one has eleven: Four W does not fit (a W is five holes wide, and four
of them facing the four sides would overlap on six). Every shipped picture has at most four
colours and, so the youngest can see it at a glance, a shape that reads as its title.

User pictures (a board captured as it stands, see :func:`picture_of`) are kept by whoever
saved them: the daemon's picture store (:class:`controller.games.puzzle.store.PictureStore`,
``pictures/`` beside its journal) is handed to :func:`library_names` and
:func:`library_picture` as ``saved`` (:class:`SavedPictures`), which list them after the
shipped ones, in name order, for their board size; a user picture never shadows a shipped one.
These rules read and write no user file themselves.

>>> picture = parse_picture("Tiny\\n" + ". . . . . .\\n" * 5 + "R r . . . W\\n")
>>> picture.title, picture.size, picture.stone_count, picture.colours_used
('Tiny', 6, 3, (0, 2))
>>> print(format_picture(picture).splitlines()[-1])
R R . . . W
>>> parse_picture(format_picture(picture)) == picture
True
>>> parse_picture("Tiny\\n" + ". . . . . .\\n" * 5 + "R X . . . W\\n", "tiny.txt")
Traceback (most recent call last):
...
controller.rules.errors.NotationError: tiny.txt line 7, column 3: 'X' is not a colour: write W white, B black, R red, G green, or . for an empty hole
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Protocol

from ..errors import NotationError
from ..geometry import bits, geometry
from ..position import Position

LETTERS = "WBRG"  # colour index -> letter, in the seat colours' order
NAMES = ("white", "black", "red", "green")
EMPTY = "."
SIZES = (6, 9)
LIBRARY = "pictures"
COLOUR_WORDS = ", ".join(f"{letter} {name}" for letter, name in zip(LETTERS, NAMES))
MAX_TITLE_CHARS = 30  # a title the page and a file name show whole
TITLE_CHARS = "letters, digits, spaces, - and '"
MAX_PICTURE_BYTES = 64 * 1024  # a picture file read from a path (a 9x9 picture is about 100 bytes)


class SavedPictures(Protocol):
    """The user pictures saved from a board, as the library asks for them (the daemon's
    picture store answers; see the module doc)."""

    def saved_names(self, size: int, shipped: tuple[str, ...]) -> tuple[str, ...]:
        """The saved pictures' names for the ``size`` board, by name, none of them in ``shipped``."""
        ...

    def saved_text(self, name: str, size: int) -> str:
        """The text of the saved picture ``name`` for the ``size`` board (OSError if unreadable)."""
        ...


@dataclass(frozen=True)
class Picture:
    """A named picture: ``title`` and the stones of ``position`` (four colour planes, W B R G)."""

    title: str
    position: Position

    @property
    def size(self) -> int:
        return self.position.geometry.size

    @property
    def name(self) -> str:
        return picture_name(self.title)

    @property
    def stone_count(self) -> int:
        return self.position.stone_count()

    @property
    def colours_used(self) -> tuple[int, ...]:
        """The colour indices the picture uses, lowest first."""
        return tuple(c for c, stones in enumerate(self.position.stones) if stones)

    def blocks_occupied(self) -> tuple[int, ...]:
        """The blocks (1-based) holding at least one stone of the picture."""
        g = self.position.geometry
        occupied = self.position.occupied
        return tuple(b for b in range(1, g.block_count + 1) if occupied & g.block_masks[b - 1])

    def rows(self) -> list[str]:
        """The grid, top row first, one letter per stone and ``.`` per empty hole (the JSON board)."""
        return self.position.rows(LETTERS)

    def holes(self) -> list[tuple[int, int]]:
        """Every stone as (hole, colour index), lowest hole first."""
        return [(hole, c) for c, stones in enumerate(self.position.stones) for hole in bits(stones)]


def picture_name(title: str) -> str:
    """The library name of a picture titled ``title``: lower case, words joined by dashes.

    >>> picture_name("Space Rocket"), picture_name("  Four W ")
    ('space-rocket', 'four-w')
    """
    return "-".join(title.lower().split())


def letter_of(colour: int) -> str:
    """The picture letter of colour index ``colour`` (``W`` for 0)."""
    return LETTERS[colour]


def colour_of_letter(letter: str) -> int | None:
    """The colour index a picture letter names (any case), or None if it names none."""
    upper = letter.upper()
    return LETTERS.index(upper) if len(upper) == 1 and upper in LETTERS else None


def parse_picture(text: str, source: str = "picture") -> Picture:
    """The picture written in ``text``; NotationError naming ``source``, the line and column."""
    lines = [(n, line.rstrip()) for n, line in enumerate(text.splitlines(), start=1)]
    lines = [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise NotationError(f"{source}: empty; a picture is a title line, then its rows (top row first)")
    (title_at, title), grid = lines[0], lines[1:]
    size = len(grid)
    if size not in SIZES:
        where = grid[-1][0] if grid else title_at
        raise NotationError(
            f"{source} line {where}: the picture has {size} rows after its title {title.strip()!r}; "
            f"a picture has 6 rows of 6 holes (6x6) or 9 rows of 9 (9x9)"
        )
    stones = [0, 0, 0, 0]
    for row_index, (number, line) in enumerate(grid):
        row = size - 1 - row_index
        for column, colour in _cells(line, number, size, source):
            if colour is not None:
                stones[colour] |= 1 << (row * size + column)
    picture = Picture(title.strip(), Position(geometry(size), tuple(stones)))
    if not picture.stone_count:
        raise NotationError(f"{source} line {title_at}: the picture {picture.title!r} has no stones")
    return picture


def _cells(line: str, number: int, size: int, source: str) -> list[tuple[int, int | None]]:
    """(column, colour or None) for each hole of a grid ``line``, checked."""
    cells: list[tuple[int, int | None]] = []
    for at, char in enumerate(line, start=1):
        if char in " \t":
            continue
        colour = colour_of_letter(char)
        if colour is None and char != EMPTY:
            raise NotationError(
                f"{source} line {number}, column {at}: {char!r} is not a colour: "
                f"write {COLOUR_WORDS}, or {EMPTY} for an empty hole"
            )
        if len(cells) == size:
            raise NotationError(f"{source} line {number}, column {at}: a row has {size} holes; this one has more")
        cells.append((len(cells), colour))
    if len(cells) < size:
        raise NotationError(
            f"{source} line {number}, column {len(line) + 1}: a row has {size} holes; this one has {len(cells)}"
        )
    return cells


def picture_of(title: str, position: Position) -> Picture:
    """The picture of the stones on ``position`` (up to four colour planes, W B R G), titled
    ``title``: a board captured as it stands. ValueError for a blank title or an empty board.

    >>> board = Position.empty(6, colours=2).place(0, 1)
    >>> print(format_picture(picture_of("Corner", board)).splitlines()[-1])
    B . . . . .
    """
    name = " ".join(title.split())
    if not name:
        raise ValueError(f"a picture needs a title, not {title!r}")
    if not position.stone_count():
        raise ValueError("the board is empty: put the picture's stones on it first")
    planes = position.stones + (0,) * (len(LETTERS) - len(position.stones))
    return Picture(name, Position(position.geometry, planes))


def check_title(title: object) -> str:
    """``title`` with its spaces tidied, if it can name a picture (and so a file): 1 to
    MAX_TITLE_CHARS characters, only letters, digits, spaces, ``-`` and ``'``; ValueError says why.

    >>> check_title("  Our  Boat "), check_title("../etc")
    Traceback (most recent call last):
    ...
    ValueError: title '../etc': only letters, digits, spaces, - and ' (no '.')
    """
    if not isinstance(title, str):
        raise ValueError(f"title {title!r}: give the picture's title as text")
    tidy = " ".join(title.split())
    if not 0 < len(tidy) <= MAX_TITLE_CHARS:
        raise ValueError(f"title {title[:40]!r}: a title has 1 to {MAX_TITLE_CHARS} characters")
    bad = next((c for c in tidy if not (c.isalnum() and c.isascii()) and c not in " -'"), None)
    if bad is not None or not picture_name(tidy).strip("-'"):
        raise ValueError(f"title {tidy!r}: only {TITLE_CHARS}" + (f" (no {bad!r})" if bad else ""))
    return tidy


def format_picture(picture: Picture) -> str:
    """The canonical text of ``picture`` (the inverse of :func:`parse_picture`)."""
    rows = (" ".join(row) for row in picture.rows())
    return "\n".join((picture.title, *rows)) + "\n"


# -- the library --------------------------------------------------------------------------------

def _folder(size: int) -> Traversable:
    return resources.files(__name__.rpartition(".")[0]).joinpath("data", LIBRARY, f"{size}x{size}")


def shipped_names(size: int) -> tuple[str, ...]:
    """The names of the pictures shipped for the ``size`` board, in the library's order."""
    if size not in SIZES:
        raise ValueError(f"board size {size} has no pictures (6 or 9)")
    return tuple(_folder(size).joinpath("order.txt").read_text(encoding="utf-8").split())


def library_names(size: int, saved: SavedPictures | None = None) -> tuple[str, ...]:
    """The names of the pictures for the ``size`` board: the shipped ones in the library's
    order (the rulebook's, its file ``order.txt``, so the list reads as the rulebook does),
    then the ``saved`` ones, by name."""
    shipped = shipped_names(size)
    return shipped + (saved.saved_names(size, shipped) if saved is not None else ())


def library_picture(name: str, size: int, saved: SavedPictures | None = None) -> Picture:
    """The picture ``name`` (or its title) for the ``size`` board, shipped or ``saved``;
    ValueError names the pictures there when there is none, and the board a picture of the
    other size is for (a teacher picks by title from both sizes' pictures)."""
    wanted = picture_name(name)
    names = library_names(size, saved)
    if wanted not in names:
        elsewhere = [other for other in SIZES if other != size and wanted in library_names(other, saved)]
        where = "".join(f": {library_picture(wanted, other, saved).title} is for the {other}x{other} board only"
                        for other in elsewhere)
        raise ValueError(f"no picture {name!r} for the {size}x{size} board{where} (pictures: {', '.join(names)})")
    if wanted in shipped_names(size):
        text = _folder(size).joinpath(f"{wanted}.txt").read_text(encoding="utf-8")
    else:
        assert saved is not None  # a name outside the shipped ones is a saved picture's
        text = saved.saved_text(wanted, size)
    return parse_picture(text, f"{size}x{size}/{wanted}.txt")


def load_picture(name_or_file: str, size: int | None = None,
                 read: Callable[[Path], str] = lambda path: path.read_text(encoding="utf-8")) -> Picture:
    """A picture from the library by name (``size`` default 9), or from a file when
    ``name_or_file`` names one (then ``size``, if given, must be the file's board), its text
    given by ``read`` (the shell passes a reader that refuses FIFOs, devices and huge files).

    Raises ValueError (NotationError for a bad file) saying what is wrong, OSError when a file
    cannot be read.
    """
    path = Path(name_or_file)
    if path.suffix == ".txt" or path.is_file():
        picture = parse_picture(read(path), path.name)
        if size is not None and picture.size != size:
            raise ValueError(f"{path.name} is a {picture.size}x{picture.size} picture, not for the {size}x{size} board")
        return picture
    return library_picture(name_or_file, size or 9)
