"""Pure game logic for every variant: standard library only, no I/O, no clock, no threads."""

from .classic import ClassicGame, Phase
from .errors import IllegalMoveError, NotationError, PentagoError
from .geometry import Geometry, geometry
from .match import Match
from .notation import Move, Twist, hole_name, move_name, parse_hole, parse_move, parse_twist
from .outcome import Outcome, Termination
from .position import Position

__all__ = [
    "ClassicGame", "Geometry", "IllegalMoveError", "Match", "Move", "NotationError", "Outcome",
    "PentagoError", "Phase", "Position", "Termination", "Twist", "geometry", "hole_name",
    "move_name", "parse_hole", "parse_move", "parse_twist",
]
