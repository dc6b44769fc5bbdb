"""Reading a profile: a shipped name or a path to its TOML, checked key by key into a
:class:`~.model.Profile` (its LED chain by :mod:`.leds`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..checks import read_toml
from ..colours import MARBLE_COLOURS
from ..errors import ProfileError, shown
from ..rules import Geometry, geometry
from .leds import read_leds
from .locate import locate, shown_path
from .model import (
    COLOUR_BUTTONS, COLOUR_METHODS, DRIVERS, GESTURES, POLES, REAL_SENSINGS, SENSINGS, SIM_BUTTONS, SIZES,
    ColourInput, Gestures, GpioPins, McuLink, Profile,
)
from .tables import Pins, Table, check_each_hole_once, read_hole

MAX_PROFILE_BYTES = 1024 * 1024  # the largest shipped profile is a few KiB

TOP_KEYS = ("name", "description", "size", "sensing", "driver", "detents_per_quarter", "colours",
            "colour_input", "gestures", "buttons", "gpio", "mcu", "leds")
COLOUR_INPUT_KEYS = ("method", *COLOUR_BUTTONS)
GPIO_KEYS = ("matrix_rows", "matrix_columns", "matrix_holes", "encoders")
MCU_KEYS = ("port", "baud")
SECTION_NEEDS = {"gpio": "matrix_rows, matrix_columns, matrix_holes and encoders",
                 "mcu": "port and baud"}


def load_profile(name_or_path: str | Path) -> Profile:
    """The profile with a shipped name (``"A-6x6"``) or in the TOML file at a path.

    Raises ProfileError naming the file, the key and the problem.
    """
    path = locate(name_or_path)
    data = read_toml(path, MAX_PROFILE_BYTES, shown_path(path), ProfileError, "cannot read the profile")
    return parse_profile(data, shown_path(path), path.stem)


def parse_profile(data: dict[str, Any], source: str = "<profile>", name: str = "") -> Profile:
    """The profile in ``data``, a decoded TOML document; errors name ``source`` as the file.

    ``name`` is the default for a document without a ``name`` key.

    >>> parse_profile({"size": 6}, "inline")
    Traceback (most recent call last):
    ...
    controller.errors.ProfileError: inline: sensing: missing key
    """
    return _read_profile(Table(source, "", data, TOP_KEYS), name)


def _read_profile(top: Table, stem: str) -> Profile:
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
    pins = Pins()
    buttons = _read_buttons(top, driver, pins)
    gpio = _read_gpio(top, driver, g, pins)
    mcu = _read_mcu(top, driver)
    leds = read_leds(top, g, pins)
    colour_input = _read_colour_input(top, sensing, driver, buttons)
    gestures = _read_gestures(top, driver, buttons)
    return Profile(name, size, sensing, driver, detents, colours, buttons, gpio, mcu, leds,
                   description, colour_input, gestures)


def _read_gestures(top: Table, driver: str, buttons: dict[str, int]) -> Gestures:
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


def _read_colour_input(top: Table, sensing: str, driver: str,
                       buttons: dict[str, int]) -> ColourInput:
    """``[colour_input]``: "sensed" for colour sensing, else "confirm" with two buttons.
    Without the table: "sensed" on a colour-sensing board, "confirm" with back and ok on others."""
    table = top.sub("colour_input", COLOUR_INPUT_KEYS)
    if table is None:
        table = Table(top.source, "colour_input.", {}, COLOUR_INPUT_KEYS)
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


def _read_colours(top: Table, sensing: str) -> dict[str, str]:
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


def _read_buttons(top: Table, driver: str, pins: Pins) -> dict[str, int]:
    table = top.sub("buttons", None)  # button names are free: any name maps to a pin
    if table is None and driver == "virtual":
        return {}  # the simulator has its own ok and back
    if table is None:
        raise top.error("buttons", "missing key (a real build needs at least ok and back: "
                        "buttons = { ok = 5, back = 6 })")
    for name in ("ok", "back"):
        table.get(name, int)
    return {name: pins.claim(table, name, table.get(name, int)) for name in table.data}


def _read_gpio(top: Table, driver: str, g: Geometry, pins: Pins) -> GpioPins | None:
    table = _section(top, "gpio", driver, GPIO_KEYS)
    if table is None:
        return None
    rows = _pin_list(table, "matrix_rows", pins)
    columns = _pin_list(table, "matrix_columns", pins)
    holes = _matrix_holes(table, len(rows), len(columns), g)
    encoders = _encoders(table, g, pins)
    return GpioPins(rows, columns, holes, encoders)


def _section(top: Table, name: str, driver: str, keys: tuple[str, ...]) -> Table | None:
    """The [gpio] or [mcu] table: required with its driver, refused with another."""
    table = top.sub(name, keys)
    if driver == name and table is None:
        raise top.error(name, f"missing section (driver {name!r} needs [{name}] with "
                        f"{SECTION_NEEDS[name]})")
    if driver != name and table is not None:
        raise top.error(name, f"a [{name}] section with driver {driver!r}; set "
                        f"driver = {name!r} or remove the section")
    return table


def _pin_list(table: Table, name: str, pins: Pins) -> tuple[int, ...]:
    value = table.get(name, list)
    return tuple(pins.claim(table, f"{name}[{i}]", pin) for i, pin in enumerate(value))


def _matrix_holes(table: Table, rows: int, columns: int, g: Geometry) -> tuple[int, ...]:
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
        placed += [(key, read_hole(table, key, text, g)) for key, text in zip(keys, line)]
    check_each_hole_once(table, "matrix_holes", placed, g)
    return tuple(hole for _, hole in placed)


def _encoders(table: Table, g: Geometry, pins: Pins) -> tuple[tuple[int, int], ...]:
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


def _read_mcu(top: Table, driver: str) -> McuLink | None:
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
