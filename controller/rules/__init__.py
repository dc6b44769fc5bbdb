"""Pure game logic for every variant: standard library only, no I/O, no clock, no threads."""

from .classic import ClassicGame, Phase
from .errors import IllegalMoveError, NotationError, PentagoError
from .geometry import Geometry, geometry
from .match import Match
from .notation import Move, Twist, hole_name, move_name, parse_hole, parse_move, parse_twist
from .outcome import Outcome, Termination
from .position import Position
from .record import Record, format_record, parse_record, record_of, replay

__all__ = [
    "ClassicGame", "Geometry", "IllegalMoveError", "Match", "Move", "NotationError", "Outcome",
    "PentagoError", "Phase", "Position", "Record", "Termination", "Twist", "geometry", "hole_name",
    "format_record", "move_name", "parse_hole", "parse_move", "parse_record", "parse_twist",
    "record_of", "replay",
]
