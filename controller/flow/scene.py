"""Scenes: what the LEDs should show for the flow's state, as a :class:`View`.

Choosing: the menu's options on their holes (the pick in the "selected" colour). Playing: the
status pixels in the colour of the seat to move. Repair: only the first step, so the players
never face a board full of lights: the hole to empty ("remove"), the hole to fill ("put_back",
with the marble's colour on the status pixels) or the block to turn back (an arrow). Game over:
the winning lines in the winner's colour, or the draw pulse. In a match the card pixels keep the
score, one pixel per game in the colour of its winner.
"""

from __future__ import annotations

from ..board import Step
from ..lights.view import ArrowLight, HoleLight, View
from ..rules import Outcome
from .classic import ClassicFlow
from .menu import Menu


def scene(flow: ClassicFlow, menu: Menu, repair: list[Step]) -> View:
    """The view for the flow's current state."""
    if flow.state == "choosing":
        return _menu_view(menu)
    game = flow.game
    assert game is not None  # every state but choosing has a game
    cards = _score(flow)
    if flow.state == "repair" and repair:
        return _repair_view(repair[0], flow.colours, cards)
    if game.outcome is not None:
        return _outcome_view(game.outcome, flow.colours, cards)
    return View(turn=flow.colours[game.colour], cards=cards)


def is_animated(view: View) -> bool:
    """True when the frame changes with time alone (blinks, arrows, win lines, the draw pulse)."""
    return bool(view.arrows or view.win_lines or view.draw or any(h.blink for h in view.holes))


def _menu_view(menu: Menu) -> View:
    lights = tuple(
        HoleLight(hole, "selected" if i == menu.pick else "option")
        for i, hole in enumerate(menu.option_holes())
    )
    return View(holes=lights)


def _repair_view(step: Step, colours: tuple[str, ...], cards: tuple[str, ...]) -> View:
    if step.kind == "turn":
        return View(arrows=(ArrowLight(step.block, step.clockwise, "turn_back"),), cards=cards)  # type: ignore[arg-type]
    if step.kind in ("put", "swap"):
        return View(turn=step.colour, holes=(HoleLight(step.hole, "put_back", blink=True),), cards=cards)  # type: ignore[arg-type]
    return View(holes=(HoleLight(step.hole, "remove", blink=True),), cards=cards)  # type: ignore[arg-type]


def _outcome_view(outcome: Outcome, colours: tuple[str, ...], cards: tuple[str, ...]) -> View:
    if outcome.is_draw():
        return View(draw=True, win_lines=outcome.lines, win_colour="white", cards=cards)
    colour = colours[outcome.winners[0] - 1]
    return View(win_lines=outcome.lines, win_colour=colour, cards=cards)


def _score(flow: ClassicFlow) -> tuple[str, ...]:
    if flow.match is None:
        return ()
    return tuple(flow.colours[o.winners[0] - 1] if o.winners else "option" for o in flow.match.outcomes)
