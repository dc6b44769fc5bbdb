"""Scenes: the core's words for what to show, as small builders of :class:`View` values.

All scene knowledge (which palette colour means what, what blinks, what the status pixels say
during a repair) lives here, so the core only says *what* is happening. Builders check colour
names at once, so a wrong name fails where it was made, not a frame later. Combine scenes with
:func:`overlay`, e.g. the turn colour under a computer move's prompt:

>>> from controller.rules import Twist
>>> view = overlay(turn_scene("black"), prompt_scene(14, Twist(4, True)))
>>> view.turn, [h.hole for h in view.holes], [(a.block, a.clockwise) for a in view.arrows]
('black', [14], [(4, True)])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..rules import Twist
from .render import SceneError, rgb
from .view import ArrowLight, HoleLight, View


class Remove(NamedTuple):
    """Repair step: take the marble out of ``hole``."""

    hole: int


class PutBack(NamedTuple):
    """Repair step: put a ``colour`` marble (a PALETTE name) into ``hole``."""

    hole: int
    colour: str


class TurnBack(NamedTuple):
    """Repair step: turn ``block`` a quarter turn this way to undo a twist."""

    block: int
    clockwise: bool


RepairStep = Remove | PutBack | TurnBack


def turn_scene(colour: str) -> View:
    """Whose turn: the status pixels in the player's colour."""
    return View(turn=_colour(colour))


def prompt_scene(hole: int | None, twist: Twist | None) -> View:
    """Where to play (a computer move, a hint, a puzzle step): the hole, then the twist's arrow
    chasing in its direction. Either may be None (a placement alone, or the twist still to do)."""
    holes = () if hole is None else (HoleLight(hole, "prompt"),)
    arrows = () if twist is None else (ArrowLight(twist.block, twist.clockwise, "prompt"),)
    return View(holes=holes, arrows=arrows)


def repair_scene(steps: Iterable[RepairStep]) -> View:
    """Repair guidance: blinking holes to clear (remove) or fill (put_back), arrows for blocks
    to turn back. The status pixels show the colour of the first marble to put back."""
    holes: list[HoleLight] = []
    arrows: list[ArrowLight] = []
    put_colours: list[str] = []
    for s in steps:
        match s:
            case Remove(hole):
                holes.append(HoleLight(hole, "remove", blink=True))
            case PutBack(hole, colour):
                holes.append(HoleLight(hole, "put_back", blink=True))
                put_colours.append(_colour(colour))
            case TurnBack(block, clockwise):
                arrows.append(ArrowLight(block, clockwise, "turn_back"))
            case _:
                raise SceneError(f"{s!r} is not a repair step (Remove, PutBack or TurnBack)")
    return View(turn=put_colours[0] if put_colours else None, holes=tuple(holes), arrows=tuple(arrows))


def win_scene(lines: Iterable[Iterable[int]], colour: str) -> View:
    """The winning runs, each animated along its holes in order, and the status pixels in the
    winner's colour."""
    colour = _colour(colour)
    return View(turn=colour, win_lines=tuple(tuple(line) for line in lines), win_colour=colour)


def draw_scene() -> View:
    """A draw: the whole hole grid breathes softly."""
    return View(draw=True)


def menu_scene(options: Iterable[int], selected: Iterable[int] = ()) -> View:
    """Choices offered on holes (a marble there selects); ``selected`` holes show as chosen."""
    chosen = set(selected)
    return View(holes=tuple(HoleLight(h, "selected" if h in chosen else "option") for h in options))


def overlay(*views: View) -> View:
    """The views shown together: lights add up, and a later view's turn, win colour and cards
    replace an earlier one's when it sets them."""
    out = View()
    for v in views:
        out = View(
            turn=v.turn or out.turn, holes=out.holes + v.holes, arrows=out.arrows + v.arrows,
            win_lines=out.win_lines + v.win_lines, win_colour=v.win_colour or out.win_colour,
            draw=out.draw or v.draw, cards=v.cards or out.cards,
        )
    return out


def _colour(name: str) -> str:
    """``name``, checked to be a palette colour (raises SceneError otherwise)."""
    rgb(name)
    return name
