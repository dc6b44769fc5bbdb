"""What the page needs to draw a board: holes by row and column, blocks, the LED chain, how
each colour looks, what each LED colour means and what each menu option is.

The page draws from this description only, so a 9x9 board or another LED chain needs no change
in the JavaScript: hole pixels sit under their holes, arrow pixels along their block's arrow in
chain order, status and card pixels in rows beside the board.
"""

from __future__ import annotations

from typing import Any

from ...flow.menu import PAGES
from ...lights.view import PALETTE
from ...profile import Profile
from ...rules import hole_name

DEFAULT_COLOURS = ("white", "black")

# How each marble colour looks: (its fill on screen, the name of the colour its LED glows in).
# The one table the page takes every colour from, so what it says and what it shows agree; the
# LED's RGB is the lights' own PALETTE. A black marble glows violet: black light is no light.
LOOKS: dict[str, tuple[str, str]] = {
    "white": ("#f4f1ea", "white"),
    "black": ("#1b1b1f", "violet"),
    "blue": ("#2f6fe0", "blue"),
    "yellow": ("#f2c230", "yellow"),
    "red": ("#d33a2c", "red"),
    "green": ("#2e9b4f", "green"),
}

# The LED colours besides the players', in the page's legend: (PALETTE name, looks, meaning).
SIGNALS: tuple[tuple[str, str, str], ...] = (
    ("prompt", "blue", "the computer's move: put its marble here, then turn the lit arrow's way"),
    ("option", "dim grey", "a menu option: put a marble on it to pick it"),
    ("selected", "green", "the menu option picked: lift the marble (or press OK) to go on"),
    ("remove", "red", "repair: take this marble away"),
    ("put_back", "green", "repair: put a marble here (its colour shows on the turn pixels)"),
    ("turn_back", "orange", "repair: turn this block back the arrow's way"),
)

# What each menu page's options mean, in option order (a1, b1, ...); see controller.flow.menu.
MENU_WORDS: dict[str, dict[Any, str]] = {
    "players": {n: f"{n} players" for n in range(2, 5)},
    "computer": {False: "two players at the board", True: "play against the computer (it plays seat 2)"},
    "match": {False: "a single game", True: "a match: best of five, starts alternate"},
}


def layout(profile: Profile, *, virtual: bool) -> dict[str, Any]:
    """A JSON-able description of ``profile``'s board and LED chain for the page."""
    g = profile.geometry
    colours = list(profile.colours.values()) or list(DEFAULT_COLOURS)
    return {
        "profile": profile.name,
        "size": g.size,
        "virtual": virtual,
        "sensing": profile.sensing,
        "detents_per_quarter": profile.detents_per_quarter,
        "colours": colours,
        "looks": {name: look(name) for name in (*colours, *LOOKS)},  # any seat colour a game uses
        "legend": legend(colours),
        "menu": menu_options(),
        "holes": [_hole(profile, hole) for hole in range(g.hole_count)],
        "blocks": [{"block": b, "holes": list(holes)} for b, holes in enumerate(g.block_holes, 1)],
        "pixels": [_pixel(pixel) for pixel in profile.leds.pixels],
    }


def look(colour: str) -> dict[str, Any]:
    """How a marble colour is drawn and how its LED glows (name and RGB)."""
    fill, light = LOOKS.get(colour, (colour, colour))
    return {"marble": fill, "light": light, "rgb": list(PALETTE.get(colour, (128, 128, 128)))}


def legend(colours: list[str]) -> list[dict[str, Any]]:
    """Every LED colour the board shows and what it means, the seats' turn colours first."""
    seats = [{"rgb": look(c)["rgb"], "looks": look(c)["light"],
              "means": f"turn pixels: seat {seat} ({c}) to move"} for seat, c in enumerate(colours, 1)]
    return seats + [{"rgb": list(PALETTE[name]), "looks": looks, "means": means}
                    for name, looks, means in SIGNALS]


def menu_options() -> dict[str, list[dict[str, Any]]]:
    """For each menu page, its options in the order they are lit (a1, b1, ...): the value
    picked and what it means."""
    return {page: [{"value": value, "means": MENU_WORDS.get(page, {}).get(value, str(value))} for value in values]
            for page, values in PAGES}


def _hole(profile: Profile, hole: int) -> dict[str, Any]:
    column, row = profile.geometry.column_row(hole)
    return {"hole": hole, "name": hole_name(hole, profile.geometry), "column": column, "row": row,
            "block": profile.geometry.block_of[hole]}


def _pixel(pixel: Any) -> dict[str, Any]:
    return {"kind": pixel.kind, "hole": pixel.hole, "block": pixel.block,
            "clockwise": pixel.clockwise, "index": pixel.index}
