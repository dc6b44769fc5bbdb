"""Saving the board as it stands as a Picture-Puzzle picture (the ``save_picture`` command).

The sensors' readings become the picture's stones: a white, black, red or green marble is that
picture colour; a marble whose colour the board cannot tell (a presence or polarity-less
reading) is saved white, so a reed-switch board still captures the shape; a marble of any other
colour (Triple's blue or yellow) has no picture colour and the capture is refused, naming it.
Capturing is pure: the core asks for the save in its effects and the daemon's picture store
writes it off the core thread (:mod:`.store`), answering with the notice; every refusal, here or
there, is a notice, never a crash.
"""

from __future__ import annotations

from typing import Any

from ...events import EMPTY, MARBLE, UNSURE
from ...rules.geometry import Geometry
from ...rules.notation import hole_name
from ...rules.puzzle.pictures import NAMES, Picture, check_title, picture_of
from ...rules.position import Position

def capture(readings: list[str], geometry: Geometry, title: Any) -> Picture:
    """The picture ``readings`` show, titled ``title``; ValueError says why there is none (a
    title that cannot name a picture, an empty board, an unsure reading, a foreign marble)."""
    return picture_of(check_title(title), position(readings, geometry))


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
