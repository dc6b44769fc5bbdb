"""The computer opponent's room: which turn is its, asking for its move once, lighting the
move it chose and accepting only that move on the board.

The computer plays seat 2 of the games whose spec says it can (classic, for now): the
``computer`` option is offered only there (see :mod:`controller.games`). Its level is the game's
``level`` option when the new game named one, else the daemon's configured level (the runtime's).
"""

from __future__ import annotations

from typing import Any

from ..flow import Action
from ..rules import Move, Phase, hole_name, parse_move
from .effects import Think

SEAT = 2  # the computer opponent plays the second seat


class Computer:
    """The turn the computer was asked about and the move it answered."""

    def __init__(self) -> None:
        self.prompt: tuple[str, Move] | None = None  # the computer's move for its turn's key
        self.asked: str | None = None  # the turn a Think went out for

    def turn_key(self, flow: Any) -> str | None:
        """Names the computer's turn by the move number and the position it began from, or None
        when it is not the computer's turn."""
        game = flow.game
        if game is None or game.is_over() or not flow.options.get("computer") or game.to_move != SEAT:
            return None
        start = game.position
        if game.phase is Phase.TWIST and flow.placed_hole is not None:
            start = start.lift(flow.placed_hole)
        return f"{len(game.moves)} {start.text()}"

    def think(self, flow: Any) -> Think | None:
        """A request for the move, once per turn, when the computer is to place."""
        key, game = self.turn_key(flow), flow.game
        if key is None or key == self.asked or game is None or game.phase is not Phase.PLACE:
            return None
        self.asked = key
        copy = flow.catalogue.make(flow.options, game.geometry.size, game.starter)  # the core's own copy
        for move in game.moves:
            copy.push(move)
        return Think(key, copy, flow.options.get("level"))

    def answer(self, flow: Any, args: dict[str, Any]) -> str:
        """Take the computer's move for its turn; the notice telling the players."""
        key, game = self.turn_key(flow), flow.game
        if key is None or game is None or args.get("key") != key:
            return "computer's move: not for the turn in play; ignored"
        try:
            move = parse_move(str(args.get("move")), game.geometry)
        except ValueError as error:
            return f"computer's move: {error}"
        self.prompt = (key, move)
        colour = flow.colours[game.colour_of(SEAT)]
        then = (f", then turn block {move.twist.block} {'clockwise' if move.twist.clockwise else 'counter-clockwise'}"
                if move.twist else "")
        return f"computer plays {game.move_name(move)}: put a {colour} marble on {hole_name(move.hole, game.geometry)}{then}"

    def prompted(self, flow: Any) -> Move | None:
        """The computer's move while its turn lasts."""
        key = self.turn_key(flow)
        return self.prompt[1] if self.prompt is not None and self.prompt[0] == key else None

    def follows(self, flow: Any, actions: tuple[Action, ...]) -> bool:
        """The computer's turn accepts only the move it chose (take-backs of the last move too)."""
        if self.turn_key(flow) is None:
            return True
        move = self.prompted(flow)
        for action in actions:
            if action.kind == "take_back":
                continue
            if move is None or (action.kind == "place" and action.hole != move.hole):
                return False
            if action.kind == "twist" and action.twist != move.twist:
                return False
            if action.kind == "skip" and move.twist is not None:
                return False
        return True
