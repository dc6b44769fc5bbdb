"""What the page needs to draw a board: holes by row and column, blocks, and the LED chain.

The page draws from this description only, so a 9x9 board or another LED chain needs no change
in the JavaScript: hole pixels sit under their holes, arrow pixels along their block's arrow in
chain order, status and card pixels in rows beside the board.
"""

from __future__ import annotations

from typing import Any

from ...profile import Profile
from ...rules import hole_name


def layout(profile: Profile, *, virtual: bool) -> dict[str, Any]:
    """A JSON-able description of ``profile``'s board and LED chain for the page."""
    g = profile.geometry
    return {
        "profile": profile.name,
        "size": g.size,
        "virtual": virtual,
        "sensing": profile.sensing,
        "detents_per_quarter": profile.detents_per_quarter,
        "colours": list(profile.colours.values()) or ["white", "black"],
        "holes": [_hole(profile, hole) for hole in range(g.hole_count)],
        "blocks": [{"block": b, "holes": list(holes)} for b, holes in enumerate(g.block_holes, 1)],
        "pixels": [_pixel(pixel) for pixel in profile.leds.pixels],
    }


def _hole(profile: Profile, hole: int) -> dict[str, Any]:
    column, row = profile.geometry.column_row(hole)
    return {"hole": hole, "name": hole_name(hole, profile.geometry), "column": column, "row": row,
            "block": profile.geometry.block_of[hole]}


def _pixel(pixel: Any) -> dict[str, Any]:
    return {"kind": pixel.kind, "hole": pixel.hole, "block": pixel.block,
            "clockwise": pixel.clockwise, "index": pixel.index}
