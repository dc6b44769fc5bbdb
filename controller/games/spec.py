"""What a game declares to the rest of the product: a :class:`GameSpec`, one per game module.

A spec names the game and says where it is played, which options it has (each a
:class:`Choice`: its values in the order the menu lights them, the first the default, and
what each means), how to make its rules object, its flow and how that flow explains a settled
board, its scene, its seat colours and the variant its records name. The core, the menu, the
config, the web console and the records read specs only, never a game by name.

>>> from controller.games import get
>>> spec = get("multiplayer")
>>> spec.title, spec.sizes, [c.name for c in spec.pages()]
('Multiplayer Pentago', (9,), ['players', 'twist', 'computer', 'level'])
>>> dict(spec.options({"players": 3, "computer": [3]}))
{'game': 'multiplayer', 'players': 3, 'twist': 'cw', 'neutral_skip': True, 'computer': [3], 'hints': True}
>>> spec.options({"players": 5})
Traceback (most recent call last):
...
controller.games.spec.OptionError: players 5: Multiplayer Pentago is for 2 to 4 players
>>> get("classic").options({"computer": True, "level": 0})["level"]
0
>>> get("classic").options({"computer": True, "level": 9})
Traceback (most recent call last):
...
controller.games.spec.OptionError: level 9: the levels are 0 (beginner), 1 (easy), 2 (normal), 3 (strong)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from ..ai import LEVEL_TABLE
from ..checks import CheckError
from ..flow import Action, PlaceTwistFlow, explain, is_idle_turn, next_colour
from ..flow.scene import scene
from ..lights.view import View
from ..flow.contract import GameRules
from ..flow.options import GameOptions
from ..rules import PlaceTwistGame
from ..rules import AnyGame, Record

MAX_NAME_CHARS = 24  # a seat's name, as the page and the records show it
FLAGS = ("computer", "match", "hints")  # options every game answers, even those that do not offer them
LEVEL = "level"  # the computer opponent's level: optional, for games the computer plays (spec.computer)
LEVEL_WORDS = ", ".join(f"{level.number} ({level.name})" for level in LEVEL_TABLE)


# What the core drives of any game's flow: the base flow every game's flow builds on, with its
# hooks' defaults (controller.flow.place_twist), over the game contract (controller.flow.contract).
Flow = PlaceTwistFlow[GameRules]


class Variant(Protocol):
    """A game's rules class, as its spec names it: it starts the game a record of it describes
    (on a ``size`` board), so the registry replays records without naming a game."""

    def from_record(self, record: Record, size: int) -> AnyGame: ...


class OptionError(CheckError):
    """New-game options that make no game: the message names the option and what is allowed;
    ``key`` is the option where one alone is wrong."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message, "options", key)


@dataclass(frozen=True)
class Choice:
    """One option of a game: its ``values`` (the menu lights them in this order on the bottom
    row, the default first unless ``default`` names another) and what each means, in words."""

    name: str
    values: tuple[Any, ...]
    words: tuple[str, ...]
    refusal: str = ""  # how a value outside ``values`` is refused, after "<name> <value>: "
    menu: bool = True  # offered on a menu page (when it has more than one value)
    default: Any = None  # None: the first value
    label: str = ""  # the option's name in words, for the page's form and menu ("" : its name, capitalised)
    input: str | None = None  # how the page's form asks a value that cannot be listed: "text" or "number"

    def __post_init__(self) -> None:
        if self.default is None:
            object.__setattr__(self, "default", self.values[0])

    def heading(self) -> str:
        """The option's name as people read it: its label, else its name in words."""
        return self.label or self.name.replace("_", " ").capitalize()

    def check_in(self, value: Any, options: Mapping[str, Any]) -> Any:
        """``value`` checked with the options chosen before it (the computer's seats need the
        number of players)."""
        return self.check(value)

    def values_for(self, chosen: Mapping[str, Any]) -> tuple[Any, ...]:
        """The values its menu page offers after ``chosen`` (the computer's seats depend on the
        number of players; its level is asked only when it plays)."""
        return self.values

    def menu_values(self, size: int) -> tuple[Any, ...]:
        """Every value its menu page may offer on a ``size`` board, in the order of its holes
        (Picture-Puzzle's pictures are the board's own)."""
        return self.values

    def means(self, value: Any, chosen: Mapping[str, Any] | None = None) -> str:
        """What ``value`` means, in words."""
        return self.words[self.values.index(value)] if value in self.values else str(value)

    def check(self, value: Any) -> Any:
        """``value`` if it is one of the values (a bool only where the values are bools)."""
        flag = isinstance(self.default, bool)
        if isinstance(value, bool) == flag and value in self.values:
            return value
        if flag:
            raise OptionError(f"{self.name} {value!r} must be true or false", self.name)
        allowed = ", ".join(map(repr, self.values))
        raise OptionError(f"{self.name} {value!r}: {self.refusal or f'one of {allowed}'}", self.name)


def make_place_twist(spec: GameSpec, options: Mapping[str, Any], size: int, starter: int) -> PlaceTwistGame:
    """The rules object of a place-then-twist game, made by its rules class (which checks the
    combination)."""
    game = cast(type[PlaceTwistGame], spec.game)  # the default maker is the place-then-twist games'
    return game.new(options["players"], options.get("twist"), options.get("neutral_skip", True), starter, size)


def no_classroom_row(detail: Mapping[str, Any], names: Mapping[Any, str]) -> Mapping[str, Any]:
    """Nothing of its own in the teacher's row: the row's common keys say the game."""
    return {}


def reads_no_pictures(spec: GameSpec, pictures: Any) -> GameSpec:
    """A game whose options name no picture: the same whatever the board's library holds."""
    return spec


def board_pair(options: Mapping[str, Any], board: tuple[str, ...]) -> tuple[str, ...]:
    """Two colours, the board's own: classic's players and team play's two pairs."""
    return board[:2]


@dataclass(frozen=True)
class GameSpec:
    """Everything the product needs to know about one game (see the module doc)."""

    name: str  # as commands, journal records, tapes and the config spell it
    title: str  # as people read it
    sizes: tuple[int, ...]  # the board sizes it is played on
    choices: tuple[Choice, ...]  # its options, in menu order
    game: Variant = field(kw_only=True)  # its rules class (ClassicGame, ...): makes its games, starts its records
    # Its flow, how that flow reads a settled board, and its scene: by default the ones every
    # place-then-twist game shares (controller.flow); a game of another kind names its own.
    flow: type[Flow] = PlaceTwistFlow  # (catalogue, board colours, size) -> a Flow, with resumed(records, ...)
    explain: Callable[..., tuple[Action, ...] | None] = explain  # (game, diff, placed hole, physical) -> actions or None
    is_idle_turn: Callable[..., bool] = is_idle_turn  # (game, diff) -> nothing changed that matters
    next_colour: Callable[..., int | None] = next_colour  # (game) -> the colour index of the next marble due, if one is
    scene: Callable[..., View] = scene  # (flow, menu, repair steps, prompt) -> View
    colours: Callable[[Mapping[str, Any], tuple[str, ...]], tuple[str, ...]] = board_pair
    variants: Mapping[int, str] = field(default_factory=dict)  # record variant by board size
    rules: Callable[[GameSpec, Mapping[str, Any], int, int], GameRules] = make_place_twist
    computer: bool = False  # the computer opponent can play a seat
    opponent: str = "search"  # which of the AI's opponents plays its seats (controller.ai.OPPONENTS)
    lights: tuple[tuple[str, str], ...] = ()  # (marble colour, what it means lit on a hole): the page's legend
    # Moves are judged as soon as the board explains them, and withdrawn if a later reading
    # proves them wrong (controller.core.provisional); else only once the board has settled.
    # Only for flows that can take any move back (``rewind``), even the game's last.
    eager: bool = False
    aliases: tuple[str, ...] = ()  # other names a new-game command may give (Triple's ``personal`` flag)
    # (the state's ``detail``, seat -> name) -> the keys it adds to its board's row on the
    # classroom's page (controller.classroom.boards): Picture-Puzzle's round in hand
    classroom_row: Callable[[Mapping[str, Any], Mapping[Any, str]], Mapping[str, Any]] = no_classroom_row
    # (spec, the board's picture library: a PictureStore) -> the spec as that board offers it,
    # its options checking, listing and playing the pictures saved there (see Catalogue)
    with_pictures: Callable[[GameSpec, Any], GameSpec] = reads_no_pictures

    def variant(self, size: int) -> str:
        """The variant its records name on a ``size`` board (``classic-9x9``)."""
        return self.variants.get(size, self.name)

    def pages(self) -> tuple[Choice, ...]:
        """The menu pages it asks (options with more than one value)."""
        return tuple(c for c in self.choices if c.menu and len(c.values) > 1)

    def choice(self, name: str) -> Choice | None:
        return next((c for c in self.choices if c.name == name), None)

    def options(self, args: Mapping[str, Any], size: int | None = None) -> GameOptions:
        """Complete, checked options from a command's ``args`` for a ``size`` board (by default
        its first; unknown keys are ignored; the flags a game does not offer may be given as
        false), the value the core and the flow trust. Raises :class:`OptionError`."""
        options: dict[str, Any] = {"game": self.name}
        for choice in self.choices:
            options[choice.name] = choice.check_in(args.get(choice.name, choice.default), options)
        for flag in FLAGS:
            if flag not in options and args.get(flag, False) is not False:
                raise OptionError(f"{flag} {args[flag]!r}: {self.title} has no {flag} option")
        if args.get("names") is not None:
            options["names"] = seat_names(args["names"], options["players"])
        if args.get(LEVEL) is not None and LEVEL not in options:
            self.level(args[LEVEL])  # refused: this game has no computer opponent
        if options.get(LEVEL, 0) is None:
            del options[LEVEL]  # no level named: the daemon's configured one plays
        checked = GameOptions(self, size or self.sizes[0], options)
        try:
            checked.make()  # the rules judge the combination (cards per mode, a seat's level, ...)
        except ValueError as error:
            raise OptionError(str(error)) from None
        return checked

    def level(self, value: Any) -> int:
        """Refuses ``level`` ``value`` for a game without the computer opponent (games with it
        check the level as one of their choices, see :mod:`controller.games.computer`)."""
        raise OptionError(f"level {value!r}: {self.title} has no computer opponent")

    def make(self, options: Mapping[str, Any], size: int, starter: int = 1) -> GameRules:
        """Its rules object for checked ``options`` on a ``size`` board, ``starter`` first."""
        return self.rules(self, options, size, starter)


def seat_names(names: Any, players: int) -> list[str]:
    """One short name per seat, or OptionError saying what is wrong."""
    if not isinstance(names, Sequence) or isinstance(names, str) or len(names) != players:
        raise OptionError(f"names {names!r}: give one name per seat ({players})", "names")
    out = []
    for name in names:
        if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME_CHARS:
            raise OptionError(f"names: {name!r} is not a name of 1 to {MAX_NAME_CHARS} characters", "names")
        out.append(name.strip())
    return out
