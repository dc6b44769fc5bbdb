"""Moves accepted before the board settled: what they stand on, when they are sure, and how the
game looked before them.

The referee (:mod:`.referee`) accepts a move of a game whose spec is ``eager`` as soon as the
board explains it: a placement once its hole reads the marble, a twist once its block's
encoder count stands within a step of a quarter and its holes read the turned marbles. Such a
move is *provisional* until its evidence has stood still for the guard (``settle_s`` for the
readings, ``turn_settle_s`` for the block's steps). A reading that contradicts it meanwhile is
judged once the board settles: if the game as it stood before the move (plus legal moves)
explains the board, the move is withdrawn.

Evidence is what an explanation rests on: the holes of its new marbles and the holes and
counts of the blocks it turns. It stands at once when

- no take-back is in it (taking back is a decision: it waits for the settled board);
- every twist is one the rules allow (a refused twist is judged settled, and said once) and
  its block's count is within a step of the quarter (not a count between quarters that the
  readings settle: those wait for the settled board); a block whose marbles look the same
  turned (a neutral block, a symmetric one), whose readings cannot say the turn is over,
  exactly on the quarter (a detent short, it might be turning on; and a neutral block, never
  settled to rest, would keep the detent left over for its next turn);
- a new marble on a block the same explanation turns was placed before the turn: its hole
  read a marble before the block's first step (while a block's marbles land on their new holes,
  an old one still read on its sensor looks like a new one placed then), and the marbles seen on
  that block before it turned are the game's and the explanation's placements (a marble placed
  a moment before the turn and not explained as such is judged on the settled board);
- no new marble sits on a block that may be turning (:meth:`Physical.is_moving`) or was read
  before its block's last step (a marble passing over a sensor mid-turn), and no skip is read
  while a block the explanation does not turn may be turning (the mover may be twisting it);
- the readings have stood still for ``steady_s``: every hole's, for an explanation rests on the
  holes that read nothing new as much as on those that do (two marbles put down at once, one
  lifted a moment later, are still two).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board import Diff, Physical
from ..board.physical import STEP_TOLERANCE
from ..events import EMPTY, UNSURE
from ..flow import Action
from ..rules import Phase

Stage = tuple[int, bool]  # the moves played, and whether a placement awaits its twist


@dataclass(frozen=True)
class Provisional:
    """One acceptance made before the board settled."""

    stage: Stage  # how far the game had come before it
    placed: int | None  # the placement awaiting its twist before it
    actions: tuple[Action, ...]  # the actions the flow applied
    turns: tuple[tuple[int, int], ...]  # (block, steps) taken off the encoder counts (Physical.turned)
    holes: tuple[int, ...]  # the holes whose readings it rests on (new marbles, turned blocks)

    def is_sure(self, physical: Physical, now: float, settle_s: float, turn_settle_s: float) -> bool:
        """True once its evidence has stood for the guard and still says the same: the new
        marbles are there, the turned blocks still stand on their quarters, and no block
        under its evidence has stepped within ``turn_settle_s``."""
        read = physical.last_change(self.holes)
        stepped = physical.last_change(blocks={physical.geometry.block_of[h] for h in self.holes})
        if (read is not None and now < read + settle_s) or (stepped is not None and now < stepped + turn_settle_s):
            return False
        return all(physical.readings[h] not in (EMPTY, UNSURE) for h in sensed_holes(self.actions, physical.geometry)) \
            and all(abs(physical.count(block)) <= STEP_TOLERANCE for block, _ in self.turns)


def stage(game: Any) -> Stage:
    return len(game.moves), game.phase is Phase.TWIST


def stands(actions: tuple[Action, ...], diff: Diff, game: Any, physical: Physical, now: float,
           steady_s: float, window_s: float) -> bool:
    """True if the board's evidence for ``actions`` (which explain ``diff``) may be accepted at
    once (see the module doc); ``window_s`` is how long after a step a block may be turning."""
    g = physical.geometry
    twists = [a.twist for a in actions if a.twist is not None]
    if any(a.kind == "take_back" for a in actions) or any(t not in game.twists() for t in twists):
        return False
    turned = {t.block for t in twists}
    placed = sum(1 << a.hole for a in actions if a.kind == "place" and a.hole is not None)
    for block, quarters in diff.turns:
        off = abs(physical.count(block) - quarters * physical.detents)
        if off > STEP_TOLERANCE or (off and _looks_unturned(game.position, diff, block)):
            return False  # readings that cannot tell the turn cannot say it is over: on the detent only
        mask = g.block_masks[block - 1]
        if physical.seen_before_turn(block) & mask & ~game.position.occupied != placed & mask:
            return False  # the marbles seen down on it before it turned are not those the explanation placed
    for hole, _ in diff.added:
        block = g.block_of[hole]
        stepped, read = physical.step_t[block - 1], physical.read_t[hole]
        if physical.is_moving(block, now, window_s) or (stepped is not None and read is not None and read <= stepped):
            return False  # read while its block turned: the marbles passing over the sensors
    if any(a.kind == "skip" for a in actions) and any(
            physical.is_moving(block, now, window_s) for block in range(1, g.block_count + 1) if block not in turned):
        return False  # the mover may be twisting that block
    return physical.reading_t is None or now >= physical.reading_t + steady_s  # as the deadline sums it


def _looks_unturned(position: Any, diff: Diff, block: int) -> bool:
    """True if ``block``'s marbles look the same in the turned position as in ``position``."""
    mask = position.geometry.block_masks[block - 1]
    turned = diff.turned_expected or position
    return all(a & mask == b & mask for a, b in zip(position.stones, turned.stones))


def sensed_holes(actions: tuple[Action, ...], g: Any) -> list[int]:
    """Where the marbles placed by ``actions`` sit now, after the twists that followed them."""
    holes = []
    for index, action in enumerate(actions):
        if action.kind not in ("place", "drop") or action.hole is None:
            continue
        hole = action.hole
        for twist in (later.twist for later in actions[index + 1:] if later.twist is not None):
            if g.block_of[hole] == twist.block:
                hole = g.rotate(1 << hole, twist.block, twist.clockwise).bit_length() - 1
        holes.append(hole)
    return holes


def rewind(game: Any, to: Stage, placed: int | None) -> None:
    """Take ``game`` back (in place) to stage ``to``, with ``placed`` awaiting its twist there."""
    while stage(game) > to:
        game.pop()
    if stage(game) < to and placed is not None:
        game.place(placed)
