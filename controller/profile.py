"""Hardware profiles: board size, sensing kind, driver, pins and the LED chain, from TOML.

A profile says everything about one physical build; code reads it and hard-codes no wiring.
The shipped profiles live in ``hardware/profiles/*.toml`` of the git checkout. They are found,
in this order: in ``$PENTAGO_BOARD_PROFILES``; next to the package when it runs from the checkout
(``pip install -e``, tests); in the checkout a non-editable install was made from (pip records it
in the installed metadata, PEP 610), which is how the Pi installer in systemd/ installs. Any other
profile is loaded by its path.

Every problem in a file raises :class:`~controller.errors.ProfileError` naming the file, the exact
key and the problem, e.g. ``my.toml: leds.brightness_cap: 1.5 is out of range (0 < cap <= 1)``.

>>> p = load_profile("A-6x6")
>>> p.size, p.sensing, p.driver, p.geometry.block_count
(6, 'presence', 'gpio', 4)
>>> p.leds.hole_pixel[0], p.leds.arrow_pixels[(1, True)]
(0, (36, 37, 38))
>>> "virtual-9x9" in shipped_profiles()
True
"""

from __future__ import annotations

import difflib
import importlib.metadata
import json
import os
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import NotationError, ProfileError, shown
from .colours import MARBLE_COLOURS
from .rules import Geometry, geometry, hole_name, parse_hole, parse_twist
from .files import read_bounded
from .tomlfile import decode_toml

PROFILES_ENV = "PENTAGO_BOARD_PROFILES"
CHECKOUT = Path(__file__).resolve().parents[1]  # the checkout, when the package runs from one
IN_CHECKOUT = Path("hardware") / "profiles"


def installed_from(direct_url: str | None) -> Path | None:
    """The local directory a package was pip-installed from, given its ``direct_url.json``.

    >>> installed_from('{"url": "file:///home/pi/pentago-board", "dir_info": {}}')
    PosixPath('/home/pi/pentago-board')
    >>> installed_from(None) is None, installed_from('{"url": "https://x/y.whl"}') is None
    (True, True)
    """
    try:
        url = json.loads(direct_url or "null")["url"]
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(url, str) or not url.startswith("file://"):
        return None
    return Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))


def _profile_dir() -> Path:
    if os.environ.get(PROFILES_ENV):
        return Path(os.environ[PROFILES_ENV])
    if (CHECKOUT / IN_CHECKOUT).is_dir():
        return CHECKOUT / IN_CHECKOUT
    try:
        source = installed_from(importlib.metadata.distribution("pentago-board")
                                .read_text("direct_url.json"))
    except importlib.metadata.PackageNotFoundError:
        source = None
    return (source or CHECKOUT) / IN_CHECKOUT


PROFILE_DIR = _profile_dir()
MAX_PROFILE_BYTES = 1024 * 1024  # the largest shipped profile is a few KiB

SIZES = (6, 9)
SENSINGS = ("presence", "polarity", "colour")
# Sensing kinds a real driver can have; "colour" (every marble colour told apart) is the virtual
# board's: no sensor of a real build tells more than two colours apart reliably.
REAL_SENSINGS = ("presence", "polarity")
DRIVERS = ("gpio", "mcu", "virtual")
LED_DRIVERS = ("spi", "pwm", "virtual")
HEADER_PINS = range(28)  # BCM GPIO 0-27 are the ones brought out on the 40-pin header
LED_DRIVER_PINS = {"spi": (10,), "pwm": (12, 13, 18, 19)}  # SPI0 MOSI; the PWM-capable pins
POLES = ("north", "south")
MAX_PER_ARROW = 8  # pixels per block arrow
MAX_COUNTED = 16  # status pixels, cards
PATTERN_PIXELS = 5  # a pattern card (Pentago Triple) is a row of five marbles
PER_CARD = (1, PATTERN_PIXELS)  # pixels per card: a score pixel, or a pattern card's five
COLOUR_METHODS = ("sensed", "confirm")
COLOUR_BUTTONS = {"cycle": "back", "confirm": "ok"}  # [colour_input] button keys and defaults
SIM_BUTTONS = ("ok", "back")  # the simulator's own buttons, for a virtual board without [buttons]
GESTURES = {"hint": "ok"}  # [gestures]: what a button pressed during a game asks for, and the default button
NO_PIN = -1  # the LED pin of a virtual chain


@dataclass(frozen=True)
class GpioPins:
    """Sensors and encoders wired straight to the Pi (build A).

    Reed switches sit in a diode matrix: each row pin is driven low in turn while the column pins
    (pulled up) are read; a closed switch pulls its column low through its diode (cathode towards
    the row), and the diodes stop ghosting when several switches are closed.
    """

    matrix_rows: tuple[int, ...]  # BCM pins driven, one per matrix row
    matrix_columns: tuple[int, ...]  # BCM pins read, one per matrix column
    matrix_holes: tuple[int, ...]  # hole at each crossing, row-major: r * len(columns) + c
    encoders: tuple[tuple[int, int], ...]  # (pin A, pin B) per block, blocks 1..n in order


@dataclass(frozen=True)
class McuLink:
    """The microcontroller on USB serial (build B): the udev name of its port and the baud."""

    port: str
    baud: int


@dataclass(frozen=True)
class Pixel:
    """One NeoPixel: lights a hole, part of a block's arrow, a status pixel or a card pixel."""

    kind: str  # "hole" | "arrow" | "status" | "card"
    hole: int | None = None
    block: int | None = None
    clockwise: bool | None = None
    index: int | None = None  # position among the status (or card) pixels, from 0
    card: int | None = None  # a card pixel's card, from 0 (one pixel per card unless per_card)


@dataclass(frozen=True)
class LedChain:
    """The NeoPixel chain in wiring order, with lookups from what to light to chain indices.

    Arrow pixels are listed in animation order: the strip segment of an arrow is laid so that
    chain order runs the way the block turns.

    Card pixels come in ``card_slots``, one tuple of chain indices per card. A card strip
    (``cards = 3`` with ``per_card = 5``) shows a pattern card as five pixels, laid left to right
    as the players see them; ``pattern_slots`` is that strip, or () when the chain has only one
    pixel per card (a match score), and the pattern cards then fall back to the bottom row's
    hole pixels (see :mod:`controller.lights.render`).
    """

    driver: str  # "spi" | "pwm" | "virtual"
    pin: int  # BCM data pin: 10 for SPI MOSI, 18 for PWM; NO_PIN for a virtual chain
    order: str  # colour order of the pixels, e.g. "GRB"
    pixels: tuple[Pixel, ...]
    brightness_cap: float  # 0 < cap <= 1, applied by the pixel output to every frame
    current_budget_ma: int  # the output scales a frame down when it would draw more
    ma_per_channel: float  # full-scale current of one colour channel (20 mA for WS2812B)
    hole_pixel: dict[int, int] = field(init=False, repr=False, compare=False)
    arrow_pixels: dict[tuple[int, bool], tuple[int, ...]] = field(
        init=False, repr=False, compare=False
    )
    status_pixels: tuple[int, ...] = field(init=False, repr=False, compare=False)
    card_pixels: tuple[int, ...] = field(init=False, repr=False, compare=False)
    card_slots: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        put = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (frozen)
        put("hole_pixel", {p.hole: i for i, p in enumerate(self.pixels) if p.kind == "hole"})
        arrows: dict[tuple[int, bool], tuple[int, ...]] = {}
        for i, p in enumerate(self.pixels):
            if p.kind == "arrow" and p.block is not None and p.clockwise is not None:
                key = (p.block, p.clockwise)
                arrows[key] = arrows.get(key, ()) + (i,)
        put("arrow_pixels", arrows)
        put("status_pixels", self._indices("status"))
        put("card_pixels", self._indices("card"))
        slots: dict[int, tuple[int, ...]] = {}
        for i in self.card_pixels:
            card = self.pixels[i].card
            key = self.pixels[i].index if card is None else card
            slots[key] = slots.get(key, ()) + (i,)
        put("card_slots", tuple(slots[k] for k in sorted(slots)))

    @property
    def pattern_slots(self) -> tuple[tuple[int, ...], ...]:
        """The card strip: five chain indices per card, or () when the chain has none."""
        if self.card_slots and all(len(s) == PATTERN_PIXELS for s in self.card_slots):
            return self.card_slots
        return ()

    @property
    def length(self) -> int:
        """The number of pixels in the chain."""
        return len(self.pixels)

    def full_current_ma(self) -> float:
        """The LED current with every channel of every pixel full on, no cap (what a frame past
        the pixel output could ask for)."""
        return self.length * len(self.order) * self.ma_per_channel

    def _indices(self, kind: str) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.pixels) if p.kind == kind)


@dataclass(frozen=True)
class ColourInput:
    """How the board learns the colour of a new marble when the player chooses it (Pentago
    Triple: any colour still in the box), from ``[colour_input]``.

    ``method`` is "sensed" (the sensors read every colour: the virtual board only) or "confirm":
    after a placement the hole's pixel blinks in the colour the board assumes (a polarity board:
    what it sensed; a presence board: the flow's guess), the ``cycle`` button steps it to the
    next colour until it is right and the ``confirm`` button accepts it. ``cycle`` and
    ``confirm`` name buttons of the profile's ``[buttons]`` (the simulator's ok and back on a
    virtual board without that table); both are None with "sensed".

    >>> ask = ColourInput("confirm", "back", "ok")
    >>> ask.cycle_order(("blue", "yellow", "red"), "yellow")
    ('yellow', 'red', 'blue')
    >>> ask.next_colour(("blue", "yellow", "red"), "red")
    'blue'
    """

    method: str = "confirm"  # "sensed" | "confirm"
    cycle: str | None = COLOUR_BUTTONS["cycle"]  # button that steps to the next colour
    confirm: str | None = COLOUR_BUTTONS["confirm"]  # button that accepts the colour shown

    def cycle_order(self, colours: tuple[str, ...], assumed: str) -> tuple[str, ...]:
        """The colours in the order presses of ``cycle`` show them, ``assumed`` first, then on
        in the game's order (``colours``), wrapping. ValueError if ``assumed`` is not one."""
        n = colours.index(assumed)
        return colours[n:] + colours[:n]

    def next_colour(self, colours: tuple[str, ...], current: str) -> str:
        """The colour one press of ``cycle`` shows after ``current``."""
        return self.cycle_order(colours, current)[1 % len(colours)]


@dataclass(frozen=True)
class Gestures:
    """What buttons pressed during a game ask for, from ``[gestures]``: ``hint`` names the
    button that asks the computer for the best move of the player to move ("ok" by default:
    ok does nothing else while a game is played; "" for no hint button). It may not be the
    back button, which takes back the last move."""

    hint: str | None = GESTURES["hint"]


@dataclass(frozen=True)
class Profile:
    """One hardware build: what the board is, how it senses, and how it is wired."""

    name: str
    size: int  # 6 or 9
    sensing: str  # "presence" (reed / digital Hall) | "polarity" (linear Hall, two colours)
    #               | "colour" (the virtual board only: every marble colour)
    driver: str  # "gpio" | "mcu" | "virtual"
    detents_per_quarter: int  # encoder steps for a quarter turn of a block
    colours: dict[str, str]  # polarity only: {"north": "white", "south": "black"}
    buttons: dict[str, int]  # button name -> BCM pin; "ok" and "back" on real builds
    gpio: GpioPins | None
    mcu: McuLink | None
    leds: LedChain
    description: str = ""
    colour_input: ColourInput = ColourInput()
    gestures: Gestures = Gestures()

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size)

    def tells_apart(self, colours: tuple[str, ...]) -> bool:
        """Whether the sensors alone tell every one of ``colours`` apart (then a placement needs
        no confirmation): colour sensing always, polarity sensing when they are among its two
        pole colours, presence sensing only for a single colour."""
        if self.sensing == "colour":
            return True
        if self.sensing == "polarity":
            return set(colours) <= set(self.colours.values())
        return len(set(colours)) <= 1

    def assumed_colour(self, reading: str, colours: tuple[str, ...], fallback: str) -> str:
        """The colour the board assumes for a new marble of one of ``colours``, from the hole's
        ``reading`` (a colour name, or "marble" for presence sensing): the reading itself when
        it is one of ``colours``; on a polarity board a pole's colour stands for the game colour
        at the pole's place (north the first, south the second: fit Triple's blue marbles with
        the north pole up and yellow with the south; red marbles read as either and are cycled
        to); else ``fallback`` (the flow's guess, e.g. the colour this seat played last).

        >>> p = load_profile("B-6x6")
        >>> p.assumed_colour("black", ("blue", "yellow", "red"), "red")
        'yellow'
        >>> load_profile("A-6x6").assumed_colour("marble", ("blue", "yellow", "red"), "red")
        'red'
        """
        if reading in colours:
            return reading
        poles = [self.colours.get(pole) for pole in POLES]
        if reading in poles and poles.index(reading) < len(colours):
            return colours[poles.index(reading)]
        return fallback


def shipped_profiles() -> list[str]:
    """The names of the profiles shipped in hardware/profiles, sorted."""
    return sorted(path.stem for path in PROFILE_DIR.glob("*.toml"))


def load_profile(name_or_path: str | Path) -> Profile:
    """The profile with a shipped name (``"A-6x6"``) or in the TOML file at a path.

    Raises ProfileError naming the file, the key and the problem.
    """
    path = _locate(name_or_path)
    try:
        data = decode_toml(read_bounded(path, MAX_PROFILE_BYTES))
    except OSError as exc:
        raise ProfileError(f"{_shown(path)}: cannot read the profile ({exc.strerror})") from exc
    except ValueError as exc:
        raise ProfileError(f"{_shown(path)}: {exc}") from None
    return parse_profile(data, _shown(path), path.stem)


def parse_profile(data: dict[str, Any], source: str = "<profile>", name: str = "") -> Profile:
    """The profile in ``data``, a decoded TOML document; errors name ``source`` as the file.

    ``name`` is the default for a document without a ``name`` key.

    >>> parse_profile({"size": 6}, "inline")
    Traceback (most recent call last):
    ...
    controller.errors.ProfileError: inline: sensing: missing key
    """
    return _read_profile(_Table(source, "", data, TOP_KEYS), name)


def _shown(path: Path) -> str:
    """The file name errors show: relative to the checkout when inside it, else as given."""
    try:
        return str(path.resolve().relative_to(CHECKOUT))
    except (ValueError, OSError, RuntimeError):  # outside the checkout; a NUL; a symlink loop
        return str(path).replace("\0", "\\0")


def _locate(name_or_path: str | Path) -> Path:
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or "/" in text or text.endswith(".toml"):
        return Path(name_or_path)
    if text in shipped_profiles():
        return PROFILE_DIR / f"{text}.toml"
    if not os.access(PROFILE_DIR, os.R_OK | os.X_OK):
        raise ProfileError(
            f"no shipped profile named {shown(text)}: the profile folder {PROFILE_DIR} is missing or "
            f"unreadable (checkout moved, or a private home directory?); set {PROFILES_ENV} to "
            "a readable copy of hardware/profiles, or give the path of a .toml file"
        )
    raise ProfileError(
        f"no shipped profile named {shown(text)} (shipped: {', '.join(shipped_profiles())}); "
        f"give one of those or the path of a .toml file"
    )


# ---------------------------------------------------------------------------------------------
# Reading TOML tables with exact, keyed error messages

_MISSING: Any = object()
_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}


def _is_type(value: Any, kind: type) -> bool:
    if isinstance(value, bool):  # TOML booleans are not numbers, whatever Python thinks
        return kind is bool
    if kind is float:
        return isinstance(value, int | float)
    return isinstance(value, kind)


class _Table:
    """One TOML table being read, with its dotted key prefix for error messages.

    ``keys`` are the keys this table may hold; any other key is rejected up front, with the
    closest known key as a hint, so a typo is reported as the typo and not as a missing key.
    """

    def __init__(self, source: str, prefix: str, data: dict[str, Any],
                 keys: tuple[str, ...] | None) -> None:
        self.source, self.prefix, self.data = source, prefix, data
        unknown = [name for name in data if name not in keys] if keys is not None else []
        if keys is not None and unknown:
            raise self.error(unknown[0], f"unknown key ({_hint(unknown[0], keys)})")

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def error(self, name: str, problem: str) -> ProfileError:
        return ProfileError(f"{self.source}: {self.key(name)}: {problem}")

    def get(self, name: str, kind: type, default: Any = _MISSING) -> Any:
        if name not in self.data:
            if default is _MISSING:
                raise self.error(name, "missing key")
            return default
        value = self.data[name]
        if not _is_type(value, kind):
            raise self.error(name, f"expected {_TYPE_NAMES[kind]}, got {shown(value)}")
        return value

    def choice(self, name: str, choices: tuple[str, ...], default: Any = _MISSING) -> str:
        value = self.get(name, str, default)
        if value not in choices:
            raise self.error(name, f"{shown(value)} is not one of {', '.join(map(repr, choices))}")
        return value

    def sub(self, name: str, keys: tuple[str, ...] | None) -> _Table | None:
        """The table at ``name``, or None when the key is absent."""
        return self.child(name, self.data[name], keys) if name in self.data else None

    def child(self, name: str, value: Any, keys: tuple[str, ...] | None) -> _Table:
        if not isinstance(value, dict):
            raise self.error(name, f"expected {_TYPE_NAMES[dict]}, got {shown(value)}")
        return _Table(self.source, f"{self.key(name)}.", value, keys)

    def items(self, name: str, kind: type, value: list[Any]) -> list[Any]:
        """Check every item of the list ``value`` read from key ``name``."""
        for i, item in enumerate(value):
            if not _is_type(item, kind):
                raise self.error(f"{name}[{i}]", f"expected {_TYPE_NAMES[kind]}, got {shown(item)}")
        return value


def _hint(name: str, keys: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(name, keys, n=1)
    return f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(keys)}"


class _Pins:
    """The BCM pins claimed so far, so that a pin used twice names both uses."""

    def __init__(self) -> None:
        self.users: dict[int, str] = {}

    def claim(self, table: _Table, name: str, pin: Any) -> int:
        if not _is_type(pin, int):
            raise table.error(name, f"expected a BCM pin number, got {shown(pin)}")
        if pin not in HEADER_PINS:
            raise table.error(name, f"GPIO {pin} is not on the Pi's 40-pin header (GPIO 0-27)")
        if pin in self.users:
            raise table.error(name, f"GPIO {pin} is already used by {self.users[pin]}")
        self.users[pin] = table.key(name)
        return pin


# ---------------------------------------------------------------------------------------------
# The sections of a profile


TOP_KEYS = ("name", "description", "size", "sensing", "driver", "detents_per_quarter", "colours",
            "colour_input", "gestures", "buttons", "gpio", "mcu", "leds")
COLOUR_INPUT_KEYS = ("method", *COLOUR_BUTTONS)
GPIO_KEYS = ("matrix_rows", "matrix_columns", "matrix_holes", "encoders")
MCU_KEYS = ("port", "baud")
LED_KEYS = ("driver", "pin", "order", "brightness_cap", "current_budget_ma", "ma_per_channel",
            "chain")
SEGMENT_KEYS = ("holes", "start", "arrows", "per_arrow", "status", "cards", "per_card")
SECTION_NEEDS = {"gpio": "matrix_rows, matrix_columns, matrix_holes and encoders",
                 "mcu": "port and baud"}


def _read_profile(top: _Table, stem: str) -> Profile:
    name = top.get("name", str, stem)
    description = top.get("description", str, "")
    size = top.get("size", int)
    if size not in SIZES:
        raise top.error("size", f"{size} is not a supported board size (6 or 9)")
    g = geometry(size)
    sensing = top.choice("sensing", SENSINGS)
    driver = top.choice("driver", DRIVERS)
    if sensing not in REAL_SENSINGS and driver != "virtual":
        raise top.error("sensing", f"{sensing!r} is the virtual board's (it tells every marble "
                        f"colour apart); a {driver} board senses presence (reed switches, "
                        "digital Hall) or polarity (linear Hall, two colours)")
    detents = top.get("detents_per_quarter", int)
    if detents < 1:
        raise top.error("detents_per_quarter", f"{detents} is out of range (at least 1)")
    colours = _read_colours(top, sensing)
    pins = _Pins()
    buttons = _read_buttons(top, driver, pins)
    gpio = _read_gpio(top, driver, g, pins)
    mcu = _read_mcu(top, driver)
    leds = _read_leds(top, g, pins)
    colour_input = _read_colour_input(top, sensing, driver, buttons)
    gestures = _read_gestures(top, driver, buttons)
    return Profile(name, size, sensing, driver, detents, colours, buttons, gpio, mcu, leds,
                   description, colour_input, gestures)


def _read_gestures(top: _Table, driver: str, buttons: dict[str, int]) -> Gestures:
    """``[gestures]``: ``hint = "<button>"`` (default "ok"), or "" for no hint button."""
    table = top.sub("gestures", tuple(GESTURES))
    if table is None:
        return Gestures()
    names = (buttons or dict.fromkeys(SIM_BUTTONS)) if driver == "virtual" else buttons
    button = table.get("hint", str, GESTURES["hint"])
    if button == "":
        return Gestures(hint=None)
    if button not in names:
        raise table.error("hint", f"no button named {shown(button)} (buttons: {', '.join(names)}); "
                          'name one from [buttons], or "" for no hint button')
    if button == "back":
        raise table.error("hint", "'back' takes back the last move during a game; name another button")
    return Gestures(hint=button)


def _read_colour_input(top: _Table, sensing: str, driver: str,
                       buttons: dict[str, int]) -> ColourInput:
    """``[colour_input]``: "sensed" for colour sensing, else "confirm" with two buttons.
    Without the table: "sensed" on a colour-sensing board, "confirm" with back and ok on others."""
    table = top.sub("colour_input", COLOUR_INPUT_KEYS)
    if table is None:
        table = _Table(top.source, "colour_input.", {}, COLOUR_INPUT_KEYS)
    default = "sensed" if sensing == "colour" else "confirm"
    method = table.choice("method", COLOUR_METHODS, default)
    if method == "sensed":
        if sensing != "colour":
            raise table.error("method", f'"sensed" needs sensors that tell every marble colour '
                              f'apart (sensing = "colour", the virtual board); a {sensing} board '
                              + ("sees a marble, not its colour" if sensing == "presence"
                                 else "tells two colours apart at most")
                              + '; use method = "confirm"')
        for key in COLOUR_BUTTONS:
            if key in table.data:
                raise table.error(key, 'does not go with method = "sensed" (the sensors read '
                                  'the colour; no button confirms it)')
        return ColourInput("sensed", None, None)
    names = (buttons or dict.fromkeys(SIM_BUTTONS)) if driver == "virtual" else buttons
    chosen = {}
    for key, fallback in COLOUR_BUTTONS.items():
        button = table.get(key, str, fallback)
        if button not in names:
            raise table.error(key, f"no button named {shown(button)} (buttons: {', '.join(names)}); "
                              "name one from [buttons]")
        chosen[key] = button
    if chosen["cycle"] == chosen["confirm"]:
        raise table.error("confirm", f"{chosen['confirm']!r} is the cycle button too; cycling "
                          "and confirming need two buttons")
    return ColourInput("confirm", chosen["cycle"], chosen["confirm"])


def _read_colours(top: _Table, sensing: str) -> dict[str, str]:
    table = top.sub("colours", POLES)
    if sensing == "presence":
        if table is not None:
            raise top.error("colours", 'presence sensing cannot tell colours apart; remove '
                            '[colours] or set sensing = "polarity"')
        return {}
    if sensing == "colour":
        if table is not None:
            raise top.error("colours", "colour sensing reads every marble colour, with no "
                            'poles to name; remove [colours] or set sensing = "polarity"')
        return {}
    if table is None:
        raise top.error("colours", 'missing key (polarity sensing needs the colour of each '
                        'pole: colours = { north = "white", south = "black" })')
    colours = {pole: table.choice(pole, MARBLE_COLOURS) for pole in POLES}
    if colours["north"] == colours["south"]:
        raise table.error("south", f"{colours['south']!r} is the north colour too; "
                          "the two poles need two colours")
    return colours


def _read_buttons(top: _Table, driver: str, pins: _Pins) -> dict[str, int]:
    table = top.sub("buttons", None)  # button names are free: any name maps to a pin
    if table is None and driver == "virtual":
        return {}  # the simulator has its own ok and back
    if table is None:
        raise top.error("buttons", "missing key (a real build needs at least ok and back: "
                        "buttons = { ok = 5, back = 6 })")
    for name in ("ok", "back"):
        table.get(name, int)
    return {name: pins.claim(table, name, table.get(name, int)) for name in table.data}


def _read_gpio(top: _Table, driver: str, g: Geometry, pins: _Pins) -> GpioPins | None:
    table = _section(top, "gpio", driver, GPIO_KEYS)
    if table is None:
        return None
    rows = _pin_list(table, "matrix_rows", pins)
    columns = _pin_list(table, "matrix_columns", pins)
    holes = _matrix_holes(table, len(rows), len(columns), g)
    encoders = _encoders(table, g, pins)
    return GpioPins(rows, columns, holes, encoders)


def _section(top: _Table, name: str, driver: str, keys: tuple[str, ...]) -> _Table | None:
    """The [gpio] or [mcu] table: required with its driver, refused with another."""
    table = top.sub(name, keys)
    if driver == name and table is None:
        raise top.error(name, f"missing section (driver {name!r} needs [{name}] with "
                        f"{SECTION_NEEDS[name]})")
    if driver != name and table is not None:
        raise top.error(name, f"a [{name}] section with driver {driver!r}; set "
                        f"driver = {name!r} or remove the section")
    return table


def _pin_list(table: _Table, name: str, pins: _Pins) -> tuple[int, ...]:
    value = table.get(name, list)
    return tuple(pins.claim(table, f"{name}[{i}]", pin) for i, pin in enumerate(value))


def _matrix_holes(table: _Table, rows: int, columns: int, g: Geometry) -> tuple[int, ...]:
    grid = table.get("matrix_holes", list)
    if rows * columns != g.hole_count:
        raise table.error("matrix_holes", f"{rows} matrix_rows x {columns} matrix_columns = "
                          f"{rows * columns} crossings for {g.hole_count} holes; "
                          "every crossing needs exactly one hole")
    if len(grid) != rows:
        raise table.error("matrix_holes", f"{len(grid)} lists for {rows} matrix_rows; "
                          "give one list of hole names per row pin")
    placed: list[tuple[str, int]] = []
    for r, line in enumerate(table.items("matrix_holes", list, grid)):
        if len(line) != columns:
            raise table.error(f"matrix_holes[{r}]", f"{len(line)} holes for {columns} "
                              "matrix_columns; give one hole name per column pin")
        keys = [f"matrix_holes[{r}][{c}]" for c in range(columns)]
        placed += [(key, _hole(table, key, text, g)) for key, text in zip(keys, line)]
    _check_each_hole_once(table, "matrix_holes", placed, g)
    return tuple(hole for _, hole in placed)


def _check_each_hole_once(table: _Table, name: str, placed: list[tuple[str, int]],
                          g: Geometry) -> None:
    """Every hole of ``g`` must appear exactly once among the (key, hole) pairs."""
    seen: dict[int, str] = {}
    for key, hole in placed:
        if hole in seen:
            raise table.error(key, f"hole {hole_name(hole, g)} is already at {seen[hole]}; "
                              "every hole needs exactly one")
        seen[hole] = table.key(key)
    missing = [hole_name(h, g) for h in range(g.hole_count) if h not in seen]
    if missing:
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise table.error(name, f"no entry for hole(s) {', '.join(missing[:8])}{more}; "
                          "every hole needs exactly one")


def _hole(table: _Table, key: str, text: Any, g: Geometry) -> int:
    if not isinstance(text, str):
        raise table.error(key, f"expected a hole name like 'a1', got {shown(text)}")
    try:
        return parse_hole(text, g)
    except NotationError as exc:
        raise table.error(key, str(exc)) from None


def _encoders(table: _Table, g: Geometry, pins: _Pins) -> tuple[tuple[int, int], ...]:
    pairs = table.get("encoders", list)
    if len(pairs) != g.block_count:
        raise table.error("encoders", f"{len(pairs)} pin pairs for {g.block_count} blocks; "
                          "give one [A, B] pair per block, in block order")
    out = []
    for i, pair in enumerate(pairs):
        if not isinstance(pair, list) or len(pair) != 2:
            raise table.error(f"encoders[{i}]", f"expected a pair [A, B] of BCM pins, got {shown(pair)}")
        out.append((pins.claim(table, f"encoders[{i}][0]", pair[0]),
                    pins.claim(table, f"encoders[{i}][1]", pair[1])))
    return tuple(out)


def _read_mcu(top: _Table, driver: str) -> McuLink | None:
    table = _section(top, "mcu", driver, MCU_KEYS)
    if table is None:
        return None
    port = table.get("port", str)
    if not port.strip():
        raise table.error("port", "is empty; give the serial device, e.g. /dev/pentago-mcu")
    baud = table.get("baud", int)
    if baud <= 0:
        raise table.error("baud", f"{baud} is out of range (a positive baud rate)")
    return McuLink(port, baud)


# ---------------------------------------------------------------------------------------------
# The LED chain


def _read_leds(top: _Table, g: Geometry, pins: _Pins) -> LedChain:
    table = top.sub("leds", LED_KEYS)
    if table is None:
        raise top.error("leds", "missing section (every build has an LED chain, even virtual)")
    driver = table.choice("driver", LED_DRIVERS)
    pin = _led_pin(table, driver, pins)
    order = _colour_order(table)
    cap = _number(table, "brightness_cap", lambda x: 0 < x <= 1, "0 < cap <= 1")
    budget = table.get("current_budget_ma", int)
    if budget <= 0:
        raise table.error("current_budget_ma", f"{budget} is out of range (more than 0 mA)")
    per_channel = _number(table, "ma_per_channel", lambda x: 0 < x <= 100, "0 < mA <= 100")
    pixels = _read_chain(table, g)
    return LedChain(driver, pin, order, pixels, float(cap), budget, float(per_channel))


def _led_pin(table: _Table, driver: str, pins: _Pins) -> int:
    if driver == "virtual":
        return table.get("pin", int, NO_PIN)
    pin = pins.claim(table, "pin", table.get("pin", int))
    if pin not in LED_DRIVER_PINS[driver]:
        allowed = " or ".join(map(str, LED_DRIVER_PINS[driver]))
        raise table.error("pin", f"GPIO {pin} cannot drive NeoPixels with driver {driver!r} "
                          f"(use GPIO {allowed})")
    return pin


def _colour_order(table: _Table) -> str:
    order = table.get("order", str)
    if sorted(order) not in (sorted("RGB"), sorted("RGBW")):
        raise table.error("order", f"{shown(order)} is not a colour order like 'GRB' or 'GRBW'")
    return order


def _number(table: _Table, name: str, ok: Callable[[float], bool], allowed: str) -> float:
    value = table.get(name, float)
    if not ok(value):
        raise table.error(name, f"{value} is out of range ({allowed})")
    return value


def _read_chain(leds: _Table, g: Geometry) -> tuple[Pixel, ...]:
    """The ``[[leds.chain]]`` segments in wiring order, as one pixel list."""
    pixels: list[Pixel] = []
    placed: list[tuple[str, int]] = []  # (key, hole) of every hole pixel, to check coverage
    for i, value in enumerate(leds.get("chain", list)):
        segment = leds.child(f"chain[{i}]", value, SEGMENT_KEYS)
        kind = _segment_kind(segment)
        if kind == "holes":
            keyed = _hole_segment(segment, g)
            placed += [(f"chain[{i}].{key}", hole) for key, hole in keyed]
            pixels += [Pixel("hole", hole=hole) for _, hole in keyed]
        elif kind == "arrows":
            pixels += _arrow_segment(segment, g, pixels)
        else:
            pixels += _counted_segment(segment, kind, pixels)
    _check_each_hole_once(leds, "chain", placed, g)
    return tuple(pixels)


# A segment's main key, the keys that may go with it, and the kind of Pixel it makes.
SEGMENT_EXTRAS = {"holes": ("start",), "arrows": ("per_arrow",), "status": (), "cards": ("per_card",)}
COUNTED_KINDS = {"status": "status", "cards": "card"}


def _segment_kind(segment: _Table) -> str:
    """The main key of a chain segment (holes, arrows, status or cards); refuses the keys that
    belong to another kind."""
    found = [key for key in SEGMENT_EXTRAS if key in segment.data]
    if len(found) != 1:
        raise ProfileError(
            f"{segment.source}: {segment.prefix.rstrip('.')}: a segment needs exactly one of "
            f"holes, arrows, status, cards (found {', '.join(found) or 'none'})"
        )
    for name in segment.data:
        if name != found[0] and name not in SEGMENT_EXTRAS[found[0]]:
            raise segment.error(name, f"does not go with {found[0]} (a {found[0]} segment "
                                f"takes {', '.join((found[0],) + SEGMENT_EXTRAS[found[0]])})")
    return found[0]


def _counted_segment(segment: _Table, key: str, before: list[Pixel]) -> list[Pixel]:
    """``status = 4`` or ``cards = 3``: that many pixels, numbered on from earlier segments.
    ``cards = 3`` with ``per_card = 5`` is a card strip: three cards of five pixels each."""
    kind = COUNTED_KINDS[key]
    count = segment.get(key, int)
    if not 1 <= count <= MAX_COUNTED:
        unit = "cards" if key == "cards" else "pixels"
        raise segment.error(key, f"{count} is out of range (1-{MAX_COUNTED} {unit})")
    start = sum(1 for p in before if p.kind == kind)
    if kind == "status":
        return [Pixel(kind, index=start + n) for n in range(count)]
    per_card = segment.get("per_card", int, 1)
    if per_card not in PER_CARD:
        raise segment.error("per_card", f"{per_card} is neither 1 (one pixel per card: a match "
                            f"score) nor {PATTERN_PIXELS} (a pattern card's five marbles)")
    first = len({p.card for p in before if p.kind == kind})
    return [Pixel(kind, index=start + n, card=first + n // per_card)
            for n in range(count * per_card)]


def _hole_segment(segment: _Table, g: Geometry) -> list[tuple[str, int]]:
    """``holes = "serpentine"`` (with an optional ``start`` corner) or a list of hole names."""
    value = segment.data["holes"]
    if value == "serpentine":
        names = _serpentine(segment, g)
    elif isinstance(value, str):
        raise segment.error("holes", f'{shown(value)} is neither "serpentine" nor a list of hole names')
    elif "start" in segment.data:
        raise segment.error("start", 'only goes with holes = "serpentine"')
    else:
        texts = segment.items("holes", str, segment.get("holes", list))
        names = [(f"holes[{i}]", text) for i, text in enumerate(texts)]
    return [(key, _hole(segment, key, text, g)) for key, text in names]


def _serpentine(segment: _Table, g: Geometry) -> list[tuple[str, str]]:
    """Every hole row by row from the ``start`` corner, each row the other way round."""
    corners = {hole_name(g.hole(c, r), g): (c, r) for c in (0, g.size - 1) for r in (0, g.size - 1)}
    start = segment.get("start", str, "a1")
    if start not in corners:
        raise segment.error("start", f"{shown(start)} is not a corner (one of {', '.join(corners)})")
    c0, r0 = corners[start]
    rows = range(g.size) if r0 == 0 else range(g.size - 1, -1, -1)
    names = []
    for n, row in enumerate(rows):
        columns = list(range(g.size)) if c0 == 0 else list(range(g.size - 1, -1, -1))
        for column in columns if n % 2 == 0 else columns[::-1]:
            names.append(("holes", hole_name(g.hole(column, row), g)))
    return names


def _arrow_segment(segment: _Table, g: Geometry, before: list[Pixel]) -> list[Pixel]:
    texts = segment.items("arrows", str, segment.get("arrows", list))
    per_arrow = segment.get("per_arrow", int)
    if not 1 <= per_arrow <= MAX_PER_ARROW:
        raise segment.error("per_arrow", f"{per_arrow} is out of range (1-{MAX_PER_ARROW} pixels)")
    done = {(p.block, p.clockwise) for p in before if p.kind == "arrow"}
    pixels = []
    for i, text in enumerate(texts):
        try:
            twist = parse_twist(text, g)
        except NotationError as exc:
            raise segment.error(f"arrows[{i}]", str(exc)) from None
        if (twist.block, twist.clockwise) in done:
            raise segment.error(f"arrows[{i}]", f"the arrow {twist} has pixels already")
        done.add((twist.block, twist.clockwise))
        pixels += [Pixel("arrow", block=twist.block, clockwise=twist.clockwise)] * per_arrow
    return pixels
