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

from ..colours import card_colours
from ..rules import Twist
from .render import PATTERN_LENGTH, SceneError, rgb
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


def prompt_scene(hole: int | None, twist: Twist | None, colour: str = "prompt") -> View:
    """Where to play (a computer move, a hint, a puzzle step): the hole, then the twist's arrow
    chasing in its direction. Either may be None (a placement alone, or the twist still to do).
    The hole shows the prompt colour, or ``colour`` where the move's marble colour is the
    players' choice (Pentago Triple: the hole lit in the colour of the marble to put there)."""
    holes = () if hole is None else (HoleLight(hole, _colour(colour)),)
    arrows = () if twist is None else (ArrowLight(twist.block, twist.clockwise, "prompt"),)
    return View(holes=holes, arrows=arrows)


SENSED_LEVEL = 0.25  # a marble read and not yet accepted: its hole glows at this fraction of its colour
# What the two lights under a new marble mean (the page's legend, for the games that show them).
PLACED_WORDS = ("under a new marble: dim while the board reads it, full once the board has accepted it "
                "(until its twist)")


def sensed_scene(marbles: Iterable[tuple[int, str]]) -> View:
    """New marbles the board reads and has not yet accepted, each ``(hole, colour)``: the hole
    glows dim in the marble's colour, so a player sees the board has read it before it is sure
    (the judging rule waits for the readings to stand; the light does not)."""
    return View(holes=tuple(HoleLight(hole, _colour(colour), level=SENSED_LEVEL) for hole, colour in marbles))


# What the dim arrow of a block being turned means (the page's legend, for the games that show it).
TURNING_WORDS = ("on a block's arrow: dim while the board reads the block turning that way for the twist due "
                 "(the turn light moves on once the twist is accepted)")


def turning_scene(turns: Iterable[tuple[int, bool]], colour: str) -> View:
    """Blocks the board reads turning for the twist due, each ``(block, clockwise)``: every
    pixel of the arrow of the way it turns glows dim and steady in the mover's ``colour``, so a
    player sees the board has read the turn before it is sure (a prompt's arrow chases over it)."""
    colour = _colour(colour)
    return View(arrows=tuple(ArrowLight(block, clockwise, colour, level=SENSED_LEVEL, chase=False)
                             for block, clockwise in turns))


def placed_scene(hole: int, colour: str) -> View:
    """The marble just placed and accepted, awaiting its twist: its hole lit full in its colour."""
    return View(holes=(HoleLight(hole, _colour(colour)),))


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


def cards_scene(cards: Iterable[str | Iterable[str]]) -> View:
    """The face-up pattern cards (Pentago Triple), each as five pixels in its colours, in order:
    on the card strip, or on the bottom row's hole pixels (a1 to e1) of a chain without one.
    A card is its letters (``"BYRYB"``: B blue, Y yellow, R red) or its five colour names; more
    cards than the strip has slots page through them (see :mod:`controller.lights.render`).

    >>> cards_scene(["BYRYB"]).patterns
    (('blue', 'yellow', 'red', 'yellow', 'blue'),)
    """
    return View(patterns=tuple(_card(card) for card in cards))


def pattern_scene(holes: Iterable[int], card: str | Iterable[str]) -> View:
    """A completed pattern lit on its five holes, each in the card's colour for it. Give the
    holes in the order the card reads on the board (a pattern read backwards: holes reversed)."""
    colours, where = _card(card), tuple(holes)
    if len(where) != len(colours):
        raise SceneError(f"a pattern lights {len(colours)} holes, not {len(where)}")
    return View(holes=tuple(HoleLight(h, c) for h, c in zip(where, colours)))


def eliminated_scene(colour: str, status_pixels: int = 4) -> View:
    """An eliminated seat on the status pixels: every other one in its colour, the rest dark
    (a turn lights them all; the winner is :func:`win_scene`). ``status_pixels`` is the chain's
    count (``len(chain.status_pixels)``)."""
    colour = _colour(colour)
    return View(status=tuple(colour if n % 2 == 0 else "off" for n in range(status_pixels)))


def confirm_colour_scene(hole: int, colour: str) -> View:
    """The colour the board assumes for the marble just put in ``hole``: its pixel blinks in
    that colour until the player confirms it, and the status pixels show it steadily too (the
    marble sits on the hole's pixel). Each press of the profile's cycle button asks for this
    scene again with the next colour (``profile.colour_input.next_colour``)."""
    colour = _colour(colour)
    return View(turn=colour, holes=(HoleLight(hole, colour, blink=True),))


def paused_scene(hole_count: int) -> View:
    """The board cannot save its moves (its journal cannot be written): every hole lit in the
    fault colour and nothing else, so no prompt or turn light asks for a move it cannot keep."""
    return View(holes=tuple(HoleLight(hole, "fault") for hole in range(hole_count)))


def menu_scene(options: Iterable[int], selected: Iterable[int] = ()) -> View:
    """Choices offered on holes (a marble there selects); ``selected`` holes show as chosen."""
    chosen = set(selected)
    return View(holes=tuple(HoleLight(h, "selected" if h in chosen else "option") for h in options))


def overlay(*views: View) -> View:
    """The views shown together: lights add up, and a later view's turn (or status), win colour
    cards and pattern cards replace an earlier one's when it sets them."""
    out = View()
    for v in views:
        out = View(
            turn=v.turn or (None if v.status else out.turn), status=v.status or (() if v.turn else out.status),
            holes=out.holes + v.holes, arrows=out.arrows + v.arrows,
            win_lines=out.win_lines + v.win_lines, win_colour=v.win_colour or out.win_colour,
            line_colours=_line_colours(out) + _line_colours(v) if out.line_colours or v.line_colours else (),
            draw=out.draw or v.draw, cards=v.cards or out.cards,
            patterns=v.patterns or out.patterns,
        )
    return out


def _line_colours(view: View) -> tuple[str, ...]:
    """A colour for each of the view's win lines (its own, else the view's win colour)."""
    fill = view.win_colour or "white"
    return view.line_colours + (fill,) * (len(view.win_lines) - len(view.line_colours))


def _card(card: str | Iterable[str]) -> tuple[str, ...]:
    """A pattern card's five colour names, from its letters or its colour names."""
    try:
        colours = card_colours(card) if isinstance(card, str) else tuple(map(_colour, card))
    except ValueError as exc:
        raise SceneError(str(exc)) from None
    if len(colours) != PATTERN_LENGTH:
        raise SceneError(f"a pattern card has {PATTERN_LENGTH} colours, not {len(colours)}: {card!r}")
    return colours


def _colour(name: str) -> str:
    """``name``, checked to be a palette colour (raises SceneError otherwise)."""
    rgb(name)
    return name
