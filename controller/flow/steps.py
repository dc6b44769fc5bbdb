"""Which actions of a place-then-twist game explain a physical :class:`~controller.board.diff.Diff`.

A settled board may show one half-move (a placement, a twist), a whole move made quickly (a
placement and its twist, or a skipped twist and the next placement), or a take-back of the last
half-move. Anything else is no step at all, and the caller starts the grace timer. The game
is any :class:`~controller.rules.PlaceTwistGame` (classic, multiplayer, teams): the colours due
come from its seats, so a seat that has finished is never the one expected to place.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Diff, Physical
from ..rules import Phase, PlaceTwistGame, Twist


@dataclass(frozen=True)
class Action:
    """One half-move: ``kind`` is "place", "twist", "skip" or "take_back" (Pentago Triple adds
    "lift" and "drop", and a placement's ``colour``: the sensed colour index, None when unknown;
    then ``assumed`` is the colour a polarity sensor's pole suggests, if any)."""

    kind: str
    hole: int | None = None
    twist: Twist | None = None
    colour: int | None = None
    assumed: int | None = None


def explain(game: PlaceTwistGame, diff: Diff, placed: int | None, physical: Physical) -> tuple[Action, ...] | None:
    """The actions that turn the game's position into the sensed board, or None.

    ``placed`` is the hole of the placement awaiting its twist (None in the placement phase).
    Legality comes from the rules: a skip needs a neutral block, a placement an empty hole of the
    mover's colour; a marble sensed in the wrong colour explains nothing. ``physical`` tells
    whether a marble was down before a block began to turn, when both settled together.
    """
    if game.is_over() or diff.is_same():
        return None
    return _take_back(game, diff, placed) or _forward(game, diff, physical)


def is_idle_turn(game: PlaceTwistGame, diff: Diff) -> bool:
    """Only neutral blocks turned while no twist is due: nothing changed, play on."""
    if game.phase is Phase.TWIST or not diff.turns or not _only(diff, turns=diff.turns):
        return False
    return all(game.position.is_neutral_block(block) for block, _ in diff.turns)


def next_colour(game: PlaceTwistGame) -> int:
    """The colour index the next marble placed must have: the mover's, or once the mover has
    placed, the next seat's still playing (after the twist or a skipped one)."""
    if game.phase is Phase.PLACE:
        return game.colour
    playing = game.playing()
    later = [seat for seat in playing if seat > game.to_move]
    return game.colour_of(later[0] if later else playing[0])


def _only(diff: Diff, **parts: object) -> bool:
    """True if ``diff`` holds exactly ``parts`` (loose neutral blocks aside, they change nothing)."""
    return diff == Diff(**parts, loose=diff.loose, turned_expected=diff.turned_expected)  # type: ignore[arg-type]


TAKE_BACK = Action("take_back")


def _take_back(game: PlaceTwistGame, diff: Diff, placed: int | None) -> tuple[Action, ...] | None:
    """The board back where it was before the last half-move (or both halves, in one go)."""
    if game.phase is Phase.TWIST:
        return (TAKE_BACK,) if _only(diff, removed=(placed,)) else _moved(game, diff, placed)
    if not game.moves:
        return None
    last = game.moves[-1]
    if last.twist is None or game.position.is_neutral_block(last.twist.block):
        halves = 1 if last.twist is None else 2  # a neutral block's twist left no trace to undo
        return (TAKE_BACK,) * halves if _only(diff, removed=(last.hole,)) else None
    undo = ((last.twist.block, -1 if last.twist.clockwise else 1),)
    if _only(diff, turns=undo):
        return (TAKE_BACK,)
    return (TAKE_BACK, TAKE_BACK) if _only(diff, turns=undo, removed=(last.hole,)) else None


def _moved(game: PlaceTwistGame, diff: Diff, placed: int | None) -> tuple[Action, ...] | None:
    """The marble just placed moved to another hole before the twist: the player changed mind."""
    if len(diff.added) != 1 or not _only(diff, added=diff.added, removed=(placed,)):
        return None
    hole, sensed = diff.added[0]
    return (TAKE_BACK, Action("place", hole)) if _is_colour(sensed, game.colour) else None


def _forward(game: PlaceTwistGame, diff: Diff, physical: Physical) -> tuple[Action, ...] | None:
    if not diff.is_clean() or len(diff.added) > 1 or len(diff.turns) > 1:
        return None
    twist = _twist(diff)
    if diff.turns and twist is None:
        return None  # a half turn: never a move
    if game.phase is Phase.PLACE:
        return _place_then_twist(game, diff, twist)
    if twist and diff.added and _placed_first(game, diff, twist, physical):
        return _skip_then_move(game, diff, twist)
    return _twist_then_place(game, diff, twist)


def _twist(diff: Diff) -> Twist | None:
    if len(diff.turns) == 1 and abs(diff.turns[0][1]) == 1:
        block, quarters = diff.turns[0]
        return Twist(block, quarters > 0)
    return None


def _place_then_twist(game: PlaceTwistGame, diff: Diff, twist: Twist | None) -> tuple[Action, ...] | None:
    if len(diff.added) != 1 or not _is_colour(diff.added[0][1], game.colour):
        return None
    hole = diff.added[0][0]
    if twist is None:
        return (Action("place", hole),)
    return (Action("place", _unturned(game, hole, twist)), Action("twist", twist=twist))


def _twist_then_place(game: PlaceTwistGame, diff: Diff, twist: Twist | None) -> tuple[Action, ...] | None:
    steps = (Action("twist", twist=twist),) if twist else ()
    if not diff.added:
        return steps or None
    hole, sensed = diff.added[0]
    if not _is_colour(sensed, next_colour(game)):
        return None
    if not twist and not game.may_skip_twist():
        return None  # the twist is mandatory: no block is neutral
    return (steps or (Action("skip"),)) + (Action("place", hole),)


def _placed_first(game: PlaceTwistGame, diff: Diff, twist: Twist, physical: Physical) -> bool:
    """Was the new marble down (where it sat before the turn) when the block began to turn?"""
    before = _unturned(game, diff.added[0][0], twist)
    return game.position.colour_at(before) is None and physical.was_there_before_turn(before, twist.block)


def _skip_then_move(game: PlaceTwistGame, diff: Diff, twist: Twist) -> tuple[Action, ...] | None:
    """The mover skipped the twist; the next seat placed and twisted at once."""
    if not game.may_skip_twist() or not _is_colour(diff.added[0][1], next_colour(game)):
        return None
    return (Action("skip"), Action("place", _unturned(game, diff.added[0][0], twist)), Action("twist", twist=twist))


def _unturned(game: PlaceTwistGame, hole: int, twist: Twist) -> int:
    """Where a marble now on ``hole`` sat before ``twist``."""
    return game.geometry.rotate(1 << hole, twist.block, not twist.clockwise).bit_length() - 1


def _is_colour(sensed: int | None, colour: int) -> bool:
    """Presence sensing carries no colour (None): the turn decides."""
    return sensed is None or sensed == colour
