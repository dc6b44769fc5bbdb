"""Pure game logic for every variant: standard library only, no I/O, no clock, no threads."""

from .triple.cards import Card, load_deck, parse_cards
from .classic import ClassicGame
from .errors import IllegalMoveError, NotationError, PentagoError
from .geometry import Geometry, geometry
from .match import Match
from .multiplayer import MultiplayerGame
from .notation import Move, Twist, hole_name, move_name, parse_hole, parse_move, parse_twist
from .outcome import Outcome, Places, Termination
from .position import Position
from .record import Record, format_record, parse_record, record_of, replay
from .teams import TeamGame
from .triple import Claim, TripleGame, TripleOptions
from .triple.notation import TripleMove, parse_triple_move, triple_move_name
from .turns import Game, Phase, PlaceTwistGame, PlayOptions
from .puzzle import PuzzleGame

AnyGame = PlaceTwistGame | TripleGame | PuzzleGame  # every game's rules class, as the registry names them

__all__ = [
    "AnyGame", "Card", "Claim", "ClassicGame", "Game", "Geometry", "IllegalMoveError", "Match", "Move",
    "MultiplayerGame", "NotationError", "Outcome", "PentagoError", "Phase", "PlaceTwistGame",
    "Places", "PlayOptions", "Position", "Record", "TeamGame", "Termination", "Twist", "format_record",
    "TripleGame", "TripleMove", "TripleOptions", "geometry", "hole_name", "load_deck", "move_name",
    "parse_cards", "parse_hole", "parse_move", "parse_record", "parse_triple_move", "parse_twist",
    "record_of", "replay", "triple_move_name",
]
