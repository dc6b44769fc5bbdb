"""The registry of games: one module per game declares its :class:`GameSpec`; this lists them.

Adding a game is one new folder, ``games/<name>/`` (its spec, and its flow, board reading and
scene where the shared ones of :mod:`controller.flow` do not fit), plus one line in
:data:`GAMES`; the core, the menu, the config, the journal, the tapes, the records, MQTT and
the web console find it here and nowhere else.

A board offers the games as its :class:`Catalogue` reads them: with the board's picture library
(the pictures saved from it, a :class:`PictureStore`), which the games whose options name a
picture check, list and play (each spec's ``with_pictures``). The daemon makes its board's
catalogue once and hands it to the core and to the checks of its web API and MQTT commands;
this module's :func:`get`, :func:`offered`, :func:`options` and :func:`resumed` are those of a
board that keeps no pictures of its own (the shipped ones only: the classroom, the docs, the
config's check).

>>> [spec.name for spec in offered(6)], [spec.name for spec in offered(9)]
(['classic', 'triple', 'puzzle'], ['classic', 'multiplayer', 'teams', 'puzzle'])
>>> options({"game": "teams", "twist": "both"}, 9)["players"]
4
>>> options({"game": "multiplayer"}, 6)
Traceback (most recent call last):
...
controller.games.spec.OptionError: game 'multiplayer' is not played on the 6x6 board (games: classic, triple, puzzle)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..flow import Resume
from ..flow.options import GameOptions
from ..rules import NotationError
from ..rules import record as records
from ..rules import AnyGame, Record
from ..rules.puzzle.pictures import Picture
from . import classic, multiplayer, puzzle, teams, triple
# The board's pictures are Picture-Puzzle's: captured by the core, kept by the daemon's store.
from .puzzle.capture import capture as capture_picture
from .puzzle.store import PictureStore
from .spec import FLAGS, LEVEL, Choice, Flow, GameSpec, OptionError

GAMES: tuple[GameSpec, ...] = (
    classic.SPEC,
    multiplayer.SPEC,
    teams.SPEC,
    triple.SPEC,
    puzzle.SPEC,
)
NAMES = tuple(spec.name for spec in GAMES)
DEFAULT = "classic"

__all__ = ["DEFAULT", "GAMES", "NAMES", "Catalogue", "Choice", "Flow", "GameOptions", "GameSpec", "OptionError",
           "Picture", "PictureStore", "argument_names", "capture_picture", "get", "offered", "options", "parse_record",
           "replay", "resumed", "start", "variants"]


class Catalogue:
    """The games as one board offers them, reading its picture library ``pictures`` (a store
    without a folder keeps none: the shipped pictures only, see :meth:`shipped`). Each game's
    spec is read with the library once, when first asked (see :attr:`GameSpec.with_pictures`);
    the flows it makes check the games their journal replays here too (a resumed game may play
    a saved picture).

    The library is a required argument: a board's code that forgot to pass its own would
    otherwise play the shipped pictures and refuse to save, with no error to say why.

    >>> Catalogue.shipped()
    Catalogue.shipped()
    """

    def __init__(self, pictures: PictureStore) -> None:
        self.pictures = pictures  # saving to one without a folder is refused
        self._keeps = pictures.folder is not None
        self._read: dict[str, tuple[GameSpec, GameSpec]] = {}  # name -> (the registry's spec, as this board reads it)

    @classmethod
    def shipped(cls) -> Catalogue:
        """The games with the shipped pictures only, as a board that keeps none offers them
        (the tools' and the module functions' catalogue)."""
        return cls(PictureStore())

    def __repr__(self) -> str:
        return f"Catalogue({self.pictures!r})" if self._keeps else "Catalogue.shipped()"

    def _as_read(self, spec: GameSpec) -> GameSpec:
        if not self._keeps:
            return spec
        known = self._read.get(spec.name)
        if known is None or known[0] is not spec:
            known = self._read[spec.name] = (spec, spec.with_pictures(spec, self.pictures))
        return known[1]

    def get(self, name: str) -> GameSpec:
        """The spec of the game called ``name``; OptionError naming the games otherwise."""
        for spec in GAMES:
            if spec.name == name:
                return self._as_read(spec)
        raise OptionError(f"game {name!r} is not available (games: {', '.join(NAMES)})")

    def offered(self, size: int) -> tuple[GameSpec, ...]:
        """The games played on a ``size`` x ``size`` board, in menu order."""
        return tuple(self._as_read(spec) for spec in GAMES if size in spec.sizes)

    def options(self, args: Mapping[str, Any], size: int) -> GameOptions:
        """A new game's complete, checked options from a command's ``args`` ("game" defaults to
        classic) on a ``size`` board; OptionError names what is wrong. Checked once: the core and
        the flow trust what this returns (see :class:`~controller.flow.options.GameOptions`)."""
        name = args.get("game", DEFAULT)
        here = [spec.name for spec in self.offered(size)]
        if name not in here:
            known = isinstance(name, str) and name in NAMES
            where = f"is not played on the {size}x{size} board" if known else "is not available"
            raise OptionError(f"game {name!r} {where} (games: {', '.join(here)})")
        return self.get(name).options(args, size)

    def resumed(self, records: list[Any], board: tuple[str, ...], size: int) -> tuple[Flow, Resume]:
        """The flow rebuilt from journal ``records`` (by the flow of the game their start record
        names), and how much of them it used (see :meth:`PlaceTwistFlow.resumed`)."""
        named = next((r.get("game") for r in records if isinstance(r, dict) and r.get("kind") == "start"), DEFAULT)
        spec = self.get(named) if named in NAMES else self.get(DEFAULT)
        return spec.flow.resumed(records, self, board, size)


SHIPPED = Catalogue.shipped()  # a board that keeps no pictures of its own


def get(name: str) -> GameSpec:
    """The spec of the game called ``name`` (see :meth:`Catalogue.get`)."""
    return SHIPPED.get(name)


def argument_names() -> tuple[str, ...]:
    """Every argument a new-game command may name for some game: each game's options and the
    other names it reads (``aliases``, e.g. Triple's ``personal`` flag); each game checks its own."""
    names = (name for spec in GAMES for name in (*(c.name for c in spec.choices), *spec.aliases))
    return tuple(dict.fromkeys(("game", "names", *FLAGS, LEVEL, *names)))


def variants() -> dict[str, tuple[GameSpec, int]]:
    """Every variant the records and the `game` command name, with its game and board size
    (the first, where one variant is played on two): the one place that says which game a variant is.

    >>> {name: (spec.name, size) for name, (spec, size) in variants().items()}["classic-9x9"]
    ('classic', 9)
    """
    found: dict[str, tuple[GameSpec, int]] = {}
    for spec in GAMES:
        for size in spec.sizes:
            found.setdefault(spec.variant(size), (spec, size))
    return found


def start(record: Record) -> AnyGame:
    """The game ``record`` starts with: the game its ``Variant`` names (:func:`variants`), made
    by that game's rules class from the record's options, seats and starter (``from_record``);
    NotationError naming the header that is wrong."""
    found = variants().get(record.variant)
    if found is None:
        raise NotationError(f"record: unknown variant {record.variant!r} (known: {', '.join(variants())})")
    spec, size = found
    return spec.game.from_record(record, size)


def parse_record(text: str) -> Record:
    """Read a record of any game (the format: :mod:`controller.rules.record`); NotationError
    naming the line or header of any problem.

    >>> parse_record("Variant: chess\\n\\n")
    Traceback (most recent call last):
    ...
    controller.rules.errors.NotationError: record: unknown variant 'chess' (known: classic, classic-9x9, multiplayer, teams, triple, puzzle)
    """
    return records.parse_record(text, start)


def replay(record: Record) -> AnyGame:
    """Play a record's moves through its game's rules; raises naming the first illegal move.

    >>> game = replay(parse_record("Variant: teams\\nStarter: 2\\n\\ne5 5R\\n"))
    >>> game.variant, game.players, game.to_move
    ('teams', 4, 3)
    """
    return records.replay(record, start)


def offered(size: int) -> tuple[GameSpec, ...]:
    """The games played on a ``size`` x ``size`` board, in menu order."""
    return SHIPPED.offered(size)


def options(args: Mapping[str, Any], size: int) -> GameOptions:
    """A new game's complete, checked options (see :meth:`Catalogue.options`)."""
    return SHIPPED.options(args, size)


def resumed(records: list[Any], board: tuple[str, ...], size: int) -> tuple[Flow, Resume]:
    """The flow rebuilt from journal ``records`` (see :meth:`Catalogue.resumed`)."""
    return SHIPPED.resumed(records, board, size)
