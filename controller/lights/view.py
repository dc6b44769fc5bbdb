"""What the board should show at one moment, independent of how the LEDs are wired.

The core builds a :class:`View` from the game state; :func:`controller.lights.render.render`
turns it into a frame for the profile's LED chain at a time ``t`` (animations are functions of
the core's clock). Colours are names from :data:`PALETTE`; the renderer picks the RGB.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..colours import MARBLE_COLOURS, marble_rgb

# Marble colours by name (see controller.colours), and the signal colours of the scenes, as RGB
# at full scale.
PALETTE: dict[str, tuple[int, int, int]] = {
    **{name: marble_rgb(name) for name in MARBLE_COLOURS},
    "remove": (255, 30, 0),  # repair: take this marble away
    "put_back": (0, 220, 60),  # repair: put a marble here (its colour is shown on the status pixels)
    "turn_back": (255, 120, 0),  # repair: turn this block back
    "prompt": (0, 120, 255),  # where to play (computer move, hint, puzzle)
    "option": (60, 60, 60),  # menu choice
    "selected": (0, 255, 120),  # chosen menu option
    "off": (0, 0, 0),  # a status pixel kept dark (an eliminated seat's pattern)
    "no_sensors": (0, 255, 230),  # the status pixels flash it side to side while the sensor link is down
    "fault": (255, 40, 110),  # every hole: the board cannot save and is paused
}

# The signal colours in words: how each looks (one word per colour, none a marble colour's own
# word, so a legend never names two lights alike) and what it means. The web page's legend and
# `pentago-board leds --help` read them here.
SIGNAL_WORDS: dict[str, tuple[str, str]] = {
    "prompt": ("sky blue", "the computer's move or a hint: put the marble here, then turn the lit arrow's way"),
    "option": ("dim grey", "a menu option: put a marble on it to pick it"),
    "selected": ("mint", "the menu option picked: lift the marble (or press OK) to go on"),
    "remove": ("blinking red", "repair: take this marble away"),
    "put_back": ("blinking green", "repair: put a marble here (its colour shows on the turn pixels)"),
    "turn_back": ("orange", "repair: turn this block back the arrow's way"),
    "no_sensors": ("cyan, flashing side to side", "on the turn pixels: the sensors are not connected, "
                   "nothing is refereed; the web page and pentago-board doctor say why and what to do"),
    "fault": ("pink", "every hole at once: the board cannot save its moves and is paused until it can "
                      "(the page says why); it goes on by itself"),
}


@dataclass(frozen=True)
class HoleLight:
    hole: int
    colour: str  # a PALETTE name
    blink: bool = False
    level: float = 1.0  # the fraction of the colour lit (a marble read, not yet accepted, glows dim)


@dataclass(frozen=True)
class ArrowLight:
    block: int
    clockwise: bool
    colour: str  # a PALETTE name
    level: float = 1.0  # the fraction of the colour lit (a block read turning, its twist not yet accepted, glows dim)
    chase: bool = True  # one pixel chases in the arrow's direction; else every pixel of it lights, steady


@dataclass(frozen=True)
class View:
    """Everything lit at one moment. Empty fields light nothing."""

    turn: str | None = None  # status pixels show the colour of the player to move
    status: tuple[str, ...] = ()  # or one colour per status pixel, in order (the standings)
    holes: tuple[HoleLight, ...] = ()  # prompts, repair steps, menu options
    arrows: tuple[ArrowLight, ...] = ()  # the twist to make (prompt) or undo (repair)
    win_lines: tuple[tuple[int, ...], ...] = ()  # animated along each run
    win_colour: str | None = None
    line_colours: tuple[str, ...] = ()  # a colour per win line, in order (else win_colour)
    draw: bool = False  # the whole board pulses softly
    cards: tuple[str, ...] = ()  # card pixels, one colour name each in chain order (match score)
    no_sensors: bool = False  # the sensor link is down: the status pixels flash no_sensors by turns
    patterns: tuple[tuple[str, ...], ...] = ()  # face-up pattern cards, five colour names each:
    #   on the card strip, else on the bottom row's hole pixels (see render)
