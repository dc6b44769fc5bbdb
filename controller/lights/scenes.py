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
from typing import Protocol

from ..rules import Twist
from .render import SceneError, rgb
from .view import ArrowLight, HoleLight, View


class RepairStep(Protocol):
    """One repair step, as :class:`controller.board.Step` gives it (the lights layer does not
    import the board layer; any object with these attributes will do).

    ``kind`` is "remove" (empty ``hole``), "put" (put a ``colour`` marble into ``hole``), "swap"
    (replace the marble in ``hole`` with a ``colour`` one), "check" (the sensor under ``hole``
    cannot tell) or "turn" (turn ``block`` a quarter turn back, ``clockwise`` or not).
    """

    @property
    def kind(self) -> str: ...
    @property
    def hole(self) -> int | None: ...
    @property
    def block(self) -> int | None: ...
    @property
    def clockwise(self) -> bool | None: ...
    @property
    def colour(self) -> str | None: ...


# What each kind of repair step lights on its hole; "turn" lights an arrow instead.
REPAIR_HOLE_COLOURS = {"remove": "remove", "put": "put_back", "swap": "put_back", "check": "prompt"}


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
    """Repair guidance: blinking holes to empty ("remove"), fill or refill ("put_back") or look
    at ("prompt", for a sensor that cannot tell), arrows for blocks to turn back. The status
    pixels show the colour of the first marble to put in. The flow passes the first step only,
    so the players never face a board full of lights; more steps light together."""
    holes: list[HoleLight] = []
    arrows: list[ArrowLight] = []
    colours: list[str] = []
    for s in steps:
        if s.kind == "turn" and s.block is not None and s.clockwise is not None:
            arrows.append(ArrowLight(s.block, s.clockwise, "turn_back"))
        elif s.kind in REPAIR_HOLE_COLOURS and s.hole is not None:
            holes.append(HoleLight(s.hole, REPAIR_HOLE_COLOURS[s.kind], blink=True))
            colours += [_colour(s.colour)] if s.kind in ("put", "swap") and s.colour else []
        else:
            raise SceneError(f"{s!r} is not a repair step this scene can show")
    return View(turn=colours[0] if colours else None, holes=tuple(holes), arrows=tuple(arrows))


def win_scene(lines: Iterable[Iterable[int]], colour: str) -> View:
    """The winning runs, each animated along its holes in order, and the status pixels in the
    winner's colour."""
    colour = _colour(colour)
    return View(turn=colour, win_lines=tuple(tuple(line) for line in lines), win_colour=colour)


def lines_scene(lines: Iterable[Iterable[int]], colours: Iterable[str]) -> View:
    """Rows lit each in its own colour (every place earned in a multiplayer game), animated
    like winning lines."""
    return View(win_lines=tuple(tuple(line) for line in lines), line_colours=tuple(_colour(c) for c in colours))


def standings_scene(colours: Iterable[str]) -> View:
    """The standings on the status pixels: one pixel per seat, in order of finishing, in the
    seat's colour (pixels beyond the seats stay off)."""
    return View(status=tuple(_colour(c) for c in colours))


def draw_scene(lines: Iterable[Iterable[int]] = ()) -> View:
    """A draw: the whole hole grid breathes softly; ``lines`` (the fives of a both-five draw)
    run in white over it."""
    runs = tuple(tuple(line) for line in lines)
    return View(draw=True, win_lines=runs, win_colour="white" if runs else None)


def score_scene(colours: Iterable[str]) -> View:
    """A match's score on the card pixels: one pixel per game, in its winner's colour."""
    return View(cards=tuple(_colour(c) for c in colours))


def menu_scene(options: Iterable[int], selected: Iterable[int] = ()) -> View:
    """Choices offered on holes (a marble there selects); ``selected`` holes show as chosen."""
    chosen = set(selected)
    return View(holes=tuple(HoleLight(h, "selected" if h in chosen else "option") for h in options))


def overlay(*views: View) -> View:
    """The views shown together: lights add up, and a later view's turn (or status), win colour
    and cards replace an earlier one's when it sets them."""
    out = View()
    for v in views:
        out = View(
            turn=v.turn or (None if v.status else out.turn), status=v.status or (() if v.turn else out.status),
            holes=out.holes + v.holes, arrows=out.arrows + v.arrows,
            win_lines=out.win_lines + v.win_lines, win_colour=v.win_colour or out.win_colour,
            line_colours=_line_colours(out) + _line_colours(v) if out.line_colours or v.line_colours else (),
            draw=out.draw or v.draw, cards=v.cards or out.cards,
        )
    return out


def _line_colours(view: View) -> tuple[str, ...]:
    """A colour for each of the view's win lines (its own, else the view's win colour)."""
    fill = view.win_colour or "white"
    return view.line_colours + (fill,) * (len(view.win_lines) - len(view.line_colours))


def _colour(name: str) -> str:
    """``name``, checked to be a palette colour (raises SceneError otherwise)."""
    rgb(name)
    return name
