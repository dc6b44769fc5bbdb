"""Scenes: what the LEDs should show for the flow's state, built with :mod:`controller.lights.scenes`.

Choosing: the menu's options on their holes (the pick as selected). Playing: the status pixels
in the colour of the seat to move, the marble just placed lit full under it until its twist,
and the computer's move (its hole, then its twist's arrow);
in a multiplayer game every row that earned a place stays lit in its seat's colour while the
others play on. Repair: only the first step, so the players never face a board full of lights.
Game over: the winning lines in their seats' colours, or the draw; with more than two seats the
status pixels then show the standings, one pixel per seat in order of finishing. In a match the
card pixels keep the score, one pixel per game in the colour of its winner.

Any number of seats: a seat's colour is the flow's colour of the seat's colour index.
"""

from __future__ import annotations

from typing import Protocol

from ..board import Step
from ..lights.scenes import (
    draw_scene, lines_scene, menu_scene, overlay, placed_scene, prompt_scene, repair_scene, score_scene,
    standings_scene, turn_scene, win_scene,
)
from ..lights.view import View
from ..rules import Match, Move, PlaceTwistGame, Places
from .menu import Menu
from .place_twist import CHOOSING, REPAIR

DRAWN_GAME = "option"  # a drawn game's card pixel: the dim menu grey


class Flow(Protocol):
    """What a scene reads of a flow (a :class:`~controller.flow.place_twist.PlaceTwistFlow`)."""

    state: str
    game: PlaceTwistGame | None
    match: Match | None
    colours: tuple[str, ...]
    placed_hole: int | None  # the placement awaiting its twist


def scene(flow: Flow, menu: Menu, repair: list[Step], prompt: Move | None = None) -> View:
    """The view for the flow's current state; ``prompt`` is a move to show (the computer's)."""
    if flow.state == CHOOSING:
        holes = menu.option_holes()
        return menu_scene(holes, [holes[menu.pick]] if menu.pick is not None else [])
    game = flow.game
    assert game is not None  # every state but choosing has a game
    if flow.state == REPAIR and repair:
        main = repair_scene(repair[:1])
    elif game.outcome is None:
        main = overlay(_places(flow, game, game.places), _placed(flow, game), turn_scene(seat_colour(flow, game, game.to_move)))
        if prompt is not None:  # the hole until its marble is in (the computer's next move may
            # light while the seat before can still twist), then the twist's arrow
            hole = prompt.hole if game.position.colour_at(prompt.hole) is None else None
            main = overlay(main, prompt_scene(hole, prompt.twist))
    elif game.outcome.is_draw():
        main = draw_scene(game.outcome.lines)
    elif game.players == 2:
        main = win_scene(game.outcome.lines, seat_colour(flow, game, game.outcome.winners[0]))
    else:  # the rows that earned places (a team's five), and the standings on the status pixels
        colour = seat_colour(flow, game, game.outcome.winners[0])
        rows = _places(flow, game, game.places) if game.places else lines_scene(
            game.outcome.lines, [colour] * len(game.outcome.lines))
        main = overlay(rows, _standings(flow, game))
    return overlay(main, _score(flow))


def seat_colour(flow: Flow, game: PlaceTwistGame, seat: int) -> str:
    return flow.colours[game.colour_of(seat)]


def _placed(flow: Flow, game: PlaceTwistGame) -> View:
    """The marble placed and accepted, lit full under it until its twist (read before, it glowed
    dim: see :func:`controller.lights.scenes.sensed_scene`)."""
    hole = flow.placed_hole
    colour = None if hole is None else game.position.colour_at(hole)
    return View() if hole is None or colour is None else placed_scene(hole, flow.colours[colour])


def _places(flow: Flow, game: PlaceTwistGame, places: Places) -> View:
    """The fives of every seat with a place, each in its seat's colour (as they stand now)."""
    lines: list[tuple[int, ...]] = []
    colours: list[str] = []
    for seat in sorted({seat for place in places for seat in place}):
        for line in game.position.fives(game.colour_of(seat)):
            lines.append(tuple(line))
            colours.append(seat_colour(flow, game, seat))
    return lines_scene(lines, colours)


def _standings(flow: Flow, game: PlaceTwistGame) -> View:
    outcome = game.outcome
    assert outcome is not None
    return standings_scene([seat_colour(flow, game, seat) for place in outcome.standings for seat in place])


def _score(flow: Flow) -> View:
    if flow.match is None or flow.game is None:
        return View()
    game = flow.game
    return score_scene(seat_colour(flow, game, o.winners[0]) if o.winners else DRAWN_GAME for o in flow.match.outcomes)
