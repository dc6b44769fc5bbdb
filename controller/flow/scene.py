"""Scenes: what the LEDs should show for the flow's state, built with :mod:`controller.lights.scenes`.

Choosing: the menu's options on their holes (the pick as selected). Playing: the status pixels
in the colour of the seat to move, and the computer's move (its hole, then its twist's arrow). Repair: only the first step, so the players never face a
board full of lights. Game over: the winning lines in the winner's colour, or the draw. In a
match the card pixels keep the score, one pixel per game in the colour of its winner.
"""

from __future__ import annotations

from ..board import Step
from ..lights.scenes import (
    draw_scene, menu_scene, overlay, prompt_scene, repair_scene, score_scene, turn_scene, win_scene,
)
from ..lights.view import View
from ..rules import Move, Phase
from .classic import ClassicFlow
from .menu import Menu

DRAWN_GAME = "option"  # a drawn game's card pixel: the dim menu grey


def scene(flow: ClassicFlow, menu: Menu, repair: list[Step], prompt: Move | None = None) -> View:
    """The view for the flow's current state; ``prompt`` is a move to show (the computer's)."""
    if flow.state == "choosing":
        holes = menu.option_holes()
        return menu_scene(holes, [holes[menu.pick]] if menu.pick is not None else [])
    game = flow.game
    assert game is not None  # every state but choosing has a game
    if flow.state == "repair" and repair:
        main = repair_scene(repair[:1])
    elif game.outcome is None:
        main = turn_scene(flow.colours[game.colour])
        if prompt is not None:  # the hole until the marble is in, then the twist's arrow
            hole = prompt.hole if game.phase is Phase.PLACE else None
            main = overlay(main, prompt_scene(hole, prompt.twist))
    elif game.outcome.is_draw():
        main = draw_scene(game.outcome.lines)
    else:
        main = win_scene(game.outcome.lines, flow.colours[game.outcome.winners[0] - 1])
    return overlay(main, _score(flow))


def _score(flow: ClassicFlow) -> View:
    if flow.match is None:
        return View()
    return score_scene(flow.colours[o.winners[0] - 1] if o.winners else DRAWN_GAME for o in flow.match.outcomes)
