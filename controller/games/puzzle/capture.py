"""Saving the board as it stands as a Picture-Puzzle picture (the ``save_picture`` command).

The sensors' readings become the picture's stones: a white, black, red or green marble is that
picture colour; a marble whose colour the board cannot tell (a presence or polarity-less
reading) is saved white, so a reed-switch board still captures the shape; a marble of any other
colour (Triple's blue or yellow) has no picture colour and the capture is refused, naming it.
The picture goes to the user pictures of the board's size (see
:func:`controller.rules.puzzle.pictures.save_user_picture`); every refusal is a notice, never a crash.
"""

from __future__ import annotations

from typing import Any

from ...events import EMPTY, MARBLE, UNSURE
from ...rules.geometry import Geometry
from ...rules.notation import hole_name
from ...rules.puzzle.pictures import NAMES, check_title, picture_of, save_user_picture
from ...rules.position import Position

def save(readings: list[str], geometry: Geometry, title: Any) -> tuple[str, bool]:
    """Save the picture ``readings`` show, titled ``title``; the notice saying what happened,
    and whether the library has a new picture."""
    try:
        picture = picture_of(check_title(title), position(readings, geometry))
        path = save_user_picture(picture)
    except (ValueError, OSError) as error:  # FileExistsError too: a title already taken
        return f"save picture: {error}", False
    return (f"saved the picture {picture.title!r} ({picture.stone_count} stones) as {picture.name!r} "
            f"for the {picture.size}x{picture.size} board ({path.name})"), True


def position(readings: list[str], geometry: Geometry) -> Position:
    """The stones ``readings`` show, in the picture colours (W B R G); ValueError for a marble
    of another colour."""
    stones = [0] * len(NAMES)
    for hole, reading in enumerate(readings):
        if reading == EMPTY:
            continue
        if reading == UNSURE:
            raise ValueError(f"the reading on {hole_name(hole, geometry)} is unsure: settle the marble and try again")
        colour = 0 if reading == MARBLE else NAMES.index(reading) if reading in NAMES else None
        if colour is None:
            raise ValueError(f"the {reading} marble on {hole_name(hole, geometry)} has no picture colour "
                             f"({', '.join(NAMES)})")
        stones[colour] |= 1 << hole
    return Position(geometry, tuple(stones))
