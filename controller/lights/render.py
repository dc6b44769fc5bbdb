"""Rendering: a :class:`~controller.lights.view.View` and a time in, one LED frame out.

:func:`render` is a pure function of the view, the profile's LED chain and the core's clock, so
the same inputs always give the same frame (tests pin pixels at chosen times; a replayed tape
lights exactly as the live game did). Frames are at full scale: the pixel output applies the
brightness cap, gamma and the current budget.

Layers are painted bottom to top, a later one covering an earlier one on a shared pixel:
draw pulse, win lines, pattern cards on the bottom row (a chain without a card strip), hole
lights, arrows (steady ones under chasing ones), status pixels, card pixels, pattern cards on
the card strip. Status pixels show ``view.status`` one colour each when it is set (pixels
beyond it stay off), else ``view.turn``; while ``view.no_sensors`` they flash ``no_sensors``
instead, every other pixel by turns (the sensors are not connected: a pattern no seat's turn
light makes, steady or blinking).

Pattern cards (``view.patterns``) go on the chain's card strip, one card per five-pixel slot,
left to right. A chain without one (``cards = 3`` alone: a pixel per card) shows them on the
hole pixels of the bottom row, a1 to e1, one card at a time; in both cases, when there are more
cards than slots, the slots page through them, the next page every CARD_PAGE_S seconds.

>>> from controller.profile import load_profile
>>> chain = load_profile("virtual-6x6").leds
>>> frame = render(View(turn="white"), chain, t=0.0)
>>> [i for i, rgb in enumerate(frame) if rgb != OFF] == list(chain.status_pixels)
True
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..errors import PentagoError
from .view import PALETTE, View

if TYPE_CHECKING:  # the profile module reads TOML; the renderer only needs the chain's shape
    from ..profile import LedChain

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)

BLINK_HZ = 2.0  # blinking hole lights: on for the first half of each period
ARROW_STEP_S = 0.15  # an arrow's lit pixel moves on one pixel this often
WIN_STEP_S = 0.12  # the pulse on a winning line moves on one hole this often
WIN_STEADY = 0.3  # the rest of a winning line, as a fraction of the win colour
DRAW_PERIOD_S = 2.0  # a draw breathes the whole grid once in this time
DRAW_LOW, DRAW_HIGH = 0.04, 0.25  # ... between these fractions of white: soft, never off
DRAW_COLOUR: RGB = PALETTE["white"]
DRAW_FRAME_S = 0.04  # the draw pulse changes continuously: 25 frames a second look smooth
CARD_PAGE_S = 2.5  # more pattern cards than slots: each page of cards shows this long
PATTERN_LENGTH = 5  # a pattern card is a row of five marbles


class SceneError(PentagoError, ValueError):
    """A view that names something the palette or the LED chain does not have."""


def render(view: View, chain: LedChain, t: float) -> tuple[RGB, ...]:
    """The frame for ``view`` on ``chain`` at time ``t`` (seconds on the core's clock).

    Raises SceneError for a colour name missing from PALETTE or a hole or arrow the chain has
    no pixel for.
    """
    frame = [OFF] * chain.length
    if view.draw:
        _paint_draw(frame, chain, t)
    for n, line in enumerate(view.win_lines):
        colour = view.line_colours[n] if n < len(view.line_colours) else view.win_colour
        if line:  # an empty line has nothing to light
            _paint_win_line(frame, chain, line, colour or "white", t)
    strip = chain.pattern_slots
    if view.patterns and not strip:
        _paint_patterns(frame, (bottom_row_slot(chain),), view.patterns, t)
    for light in view.holes:
        if not light.blink or is_blink_on(t):
            frame[_hole_pixel(chain, light.hole)] = scale(rgb(light.colour), light.level) if light.level < 1 else rgb(light.colour)
    for arrow in sorted(view.arrows, key=lambda a: a.chase):  # steady ones first: a chase runs over them
        pixels = _arrow_pixels(chain, arrow.block, arrow.clockwise)
        lit = scale(rgb(arrow.colour), arrow.level) if arrow.level < 1 else rgb(arrow.colour)
        for i in (pixels[step(t, ARROW_STEP_S, len(pixels))],) if arrow.chase else pixels:
            frame[i] = lit
    for n, i in enumerate(chain.status_pixels):
        colour = view.status[n] if n < len(view.status) else None if view.status else view.turn
        if view.no_sensors:
            colour = "no_sensors" if is_blink_on(t) == (n % 2 == 0) else "off"
        if colour is not None:
            frame[i] = rgb(colour)
    for i, colour in zip(chain.card_pixels, view.cards):  # cards beyond the card pixels go unshown
        frame[i] = rgb(colour)
    if view.patterns and strip:
        _paint_patterns(frame, strip, view.patterns, t)
    return tuple(frame)


def bottom_row_slot(chain: LedChain) -> tuple[int, ...]:
    """The chain indices of holes a1 to e1: where a chain without a card strip shows a card."""
    return tuple(_hole_pixel(chain, hole) for hole in range(PATTERN_LENGTH))


def card_page(cards: int, slots: int, t: float) -> range:
    """Which cards (by position) ``slots`` slots show at ``t`` when there are ``cards`` cards."""
    pages = max(1, math.ceil(cards / slots))
    first = step(t, CARD_PAGE_S, pages) * slots
    return range(first, min(first + slots, cards))


def _paint_patterns(frame: list[RGB], slots: tuple[tuple[int, ...], ...],
                    patterns: tuple[tuple[str, ...], ...], t: float) -> None:
    for slot, n in zip(slots, card_page(len(patterns), len(slots), t)):
        if len(patterns[n]) != len(slot):
            raise SceneError(f"pattern card {n + 1} has {len(patterns[n])} colours for "
                             f"{len(slot)} pixels")
        for i, colour in zip(slot, patterns[n]):
            frame[i] = rgb(colour)


def next_change(view: View, t: float) -> float | None:
    """The first time after ``t`` at which the frame of ``view`` may change, or None for a still
    view. Lets the core ask for a Tick exactly when the LEDs need one, not at a fixed rate."""
    times = [t + DRAW_FRAME_S] if view.draw else []
    if view.no_sensors or any(light.blink for light in view.holes):
        times.append(_next_edge(t, 0.5 / BLINK_HZ))
    if any(arrow.chase for arrow in view.arrows):
        times.append(_next_edge(t, ARROW_STEP_S))
    if any(len(line) > 1 for line in view.win_lines):
        times.append(_next_edge(t, WIN_STEP_S))
    if len(view.patterns) > 1:  # they may page (the view does not know the chain's slots)
        times.append(_next_edge(t, CARD_PAGE_S))
    return min(times, default=None)


def _next_edge(t: float, step_s: float) -> float:
    return (_phase(t, step_s) + 1) * step_s


def rgb(name: str) -> RGB:
    """The full-scale RGB of a PALETTE colour name."""
    try:
        return PALETTE[name]
    except KeyError:
        raise SceneError(f"{name!r} is not a palette colour ({', '.join(PALETTE)})") from None


def is_blink_on(t: float) -> bool:
    """True in the first half of each blink period."""
    return step(t, 0.5 / BLINK_HZ, 2) == 0


def step(t: float, step_s: float, count: int) -> int:
    """Which of ``count`` positions a chase that moves every ``step_s`` seconds is at, at ``t``."""
    return _phase(t, step_s) % count


def _phase(t: float, step_s: float) -> int:
    """How many whole steps have passed at ``t``. The quotient is rounded first so that a time
    computed as ``n * step_s`` counts as step n, which keeps :func:`next_change` exact."""
    return math.floor(round(t / step_s, 9))


def scale(colour: RGB, level: float) -> RGB:
    """``colour`` dimmed to ``level`` (0 to 1)."""
    r, g, b = colour
    return (round(r * level), round(g * level), round(b * level))


def draw_level(t: float) -> float:
    """The draw pulse's brightness at ``t``: a cosine breath from DRAW_LOW up to DRAW_HIGH."""
    rise = (1 - math.cos(2 * math.pi * t / DRAW_PERIOD_S)) / 2
    return DRAW_LOW + (DRAW_HIGH - DRAW_LOW) * rise


def _paint_draw(frame: list[RGB], chain: LedChain, t: float) -> None:
    soft = scale(DRAW_COLOUR, draw_level(t))
    for i in chain.hole_pixel.values():
        frame[i] = soft


def _paint_win_line(frame: list[RGB], chain: LedChain, line: tuple[int, ...], colour: str,
                    t: float) -> None:
    """The line steady and dim, with one hole at full colour running along it in order."""
    full = rgb(colour)
    steady = scale(full, WIN_STEADY)
    pulse = step(t, WIN_STEP_S, len(line))
    for n, hole in enumerate(line):
        frame[_hole_pixel(chain, hole)] = full if n == pulse else steady


def _hole_pixel(chain: LedChain, hole: int) -> int:
    try:
        return chain.hole_pixel[hole]
    except KeyError:
        raise SceneError(f"hole {hole!r} has no pixel in the LED chain") from None


def _arrow_pixels(chain: LedChain, block: int, clockwise: bool) -> tuple[int, ...]:
    pixels = chain.arrow_pixels.get((block, clockwise))
    if not pixels:
        way = "clockwise" if clockwise else "counter-clockwise"
        raise SceneError(f"block {block} has no {way} arrow pixels in the LED chain")
    return pixels
