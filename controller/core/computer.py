"""The computer opponent's room: which turns are its, asking for its move once per turn,
lighting the move it chose and accepting only that move on the board; and hints.

The computer plays the seats the game's ``computer`` option names (any seats, see
:mod:`controller.games.computer`) of the games whose spec says it can. Its level is the game's
``level`` option when the new game named one, else the daemon's configured level (the
runtime's). Moves are read and named through the game object (its legal moves and
``move_name``), so the room knows no game's notation.

A placement that may skip its twist leaves the turn open until the next seat places (that is
how the board learns the twist was skipped): when that next seat is the computer's and no twist
has come :data:`SKIP_WAIT_S` after the placement, it is asked for its move after the skip, and
its hole lights while the twist is still possible (a twist after all makes another turn, asked
about anew). The wait spares a search, on the Pi's busy CPU, for every placement that a twist
follows at once. Every action on the board is checked
against the move of the computer seat whose turn it belongs to, so a skip followed by the next
seat's marble is judged seat by seat.

A hint is the computer's move for a person's turn: asked for by a button gesture or the web
console, searched off the core thread like the computer's own move, and lit the same way while
the turn lasts (once the marble is in, only if it went where the hint said). It restricts
nothing: the player may play any legal move. A game with ``hints`` off refuses the request.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, cast

from ..flow import Action
from ..flow.contract import OpponentRules
from ..flow.seats import computer_seats
from ..rules import Move, Phase, hole_name
from ..games import Flow
from .effects import Think

COMPUTER_ANSWER = "computer_move"  # the command that carries the computer's move
HINT_ANSWER = "hint_move"  # the command that carries a hint
SKIP_WAIT_S = 1.5  # an open twist this long untouched is likely skipped: ask the computer seat after it


class Computer:
    """The turns the computer was asked about, and the moves it answered (its own and hints)."""

    def __init__(self) -> None:
        self.prompts: dict[str, Move] = {}  # the computer's moves by turn key: the turn in play's, the next's
        self.asked: str | None = None  # the turn a Think went out for
        self.hint: tuple[str, Move] | None = None  # the hinted move for a person's turn's key
        self.hint_asked: str | None = None  # the turn a hint was asked for
        self.pending: Think | None = None  # a hint request for the runtime, sent with the next effects
        self.open_twist: tuple[str, float] | None = None  # an open twist before a computer seat, and since when
        self._after_skip: tuple[Any, Any] = (None, None)  # the last upcoming() answer, by the state it was for
        self._start: tuple[Any, str | None] = (None, None)  # the turn in play's key, by the moves before it
        self.said: dict[str, dict[str, Any]] = {}  # each answered turn's move for the page (see showing)

    # -- whose turn ----------------------------------------------------------------------------

    def turn_key(self, flow: Flow) -> str | None:
        """Names the turn in play by the move number and the position it began from (replayed
        once per turn: a Triple move lifts a marble, so the board mid-turn does not show it), or
        None when no game is in play."""
        game = flow.game
        if game is None or game.is_over():
            return None
        moves = (id(game), tuple(game.moves))
        if self._start[0] != moves:
            self._start = (moves, _key(self._copy(flow)))
        return self._start[1]

    def computer_turn(self, flow: Flow) -> str | None:
        """The turn's key when the computer is to move, else None."""
        game, seats = flow.game, computer_seats(flow.options)  # no seats: a game the computer cannot play
        if not seats or game is None or game.to_move not in seats:
            return None
        return self.turn_key(flow)

    # -- asking --------------------------------------------------------------------------------

    def upcoming(self, flow: Flow) -> Any:
        """The game after a skip of the open twist when the seat after it is the computer's
        (its turn may come without a twist), else None."""
        game, placed, seats = _played(flow), flow.placed_hole, computer_seats(flow.options)
        if not seats or game is None or placed is None or game.phase is not Phase.TWIST or not game.may_skip_twist():
            return None
        own = self.prompts.get(self.computer_turn(flow) or "")
        if own is not None and own.twist is not None:
            return None  # the computer seat in turn twists: no skip is coming
        state = (id(game), len(game.moves), placed, game.position)
        if self._after_skip[0] != state:  # replaying the game once per state, not once per event
            after = self._skipped(flow)
            self._after_skip = (state, after if not after.is_over() and after.to_move in seats else None)
        return self._after_skip[1]

    def _skipped(self, flow: Flow) -> Any:
        """A fresh copy of the game with the open twist skipped."""
        after = self._copy(flow)
        after.place(flow.placed_hole)
        after.skip_twist()
        return after

    def think(self, flow: Flow, now: float) -> Think | None:
        """A request for the runtime: a hint asked for, or the computer's move, once per turn,
        when the computer is to place (or will be, once the open twist is skipped: after
        :data:`SKIP_WAIT_S`)."""
        waited = self._waited(flow, now)  # keeps the wait on an open twist up to date
        if self.pending is not None:
            request, self.pending = self.pending, None
            return request
        key, game = self.computer_turn(flow), flow.game
        if key is not None and game is not None and game.phase is Phase.PLACE:
            after = self._copy(flow)
        else:
            key = None if waited is None else _key(waited)
            after = None if key is None or key == self.asked else self._skipped(flow)  # the search's own copy
        if key is None or key == self.asked:
            return None
        self.asked = key
        return Think(key, after, flow.options.get("level"), COMPUTER_ANSWER)

    def _waited(self, flow: Flow, now: float) -> Any:
        """The game after the open twist's skip, once it has been open :data:`SKIP_WAIT_S`
        before a computer seat; None before (or when there is none)."""
        after = self.upcoming(flow)
        if after is None:
            self.open_twist = None
            return None
        key = _key(after)
        if self.open_twist is None or self.open_twist[0] != key:
            self.open_twist = (key, now)
        return after if now >= self.open_twist[1] + SKIP_WAIT_S else None

    def wake_at(self) -> float | None:
        """When the core must look again: the end of the wait on an open twist not asked about."""
        if self.open_twist is None or self.open_twist[0] == self.asked:
            return None
        return self.open_twist[1] + SKIP_WAIT_S

    def ask_hint(self, flow: Flow, title: str) -> str:
        """Ask for a hint for the person to move; the notice saying what happens."""
        if flow.game is not None and "hints" not in flow.options:
            return f"hint: the computer does not play {title}, so it gives no hints"
        key, game = self.turn_key(flow), flow.game
        if key is None or game is None:
            return "hint: no game is in play"
        if not flow.options["hints"]:
            return "hint: hints are off in this game"
        if game.to_move in computer_seats(flow.options):
            return "hint: it is the computer's turn"
        if game.phase is not Phase.PLACE:
            return "hint: ask before placing the marble"
        if self.hint is not None and self.hint[0] == key:
            return f"hint: {_words(flow, game, self.hint[1])} (lit on the board)"
        if self.hint_asked == key:
            return "hint: still thinking"
        self.hint_asked = key
        self.pending = Think(key, self._copy(flow), flow.options.get("level"), HINT_ANSWER)
        return f"hint: thinking of a move for {flow.seat_name(game.to_move)}"

    # -- answers -------------------------------------------------------------------------------

    def answer(self, flow: Flow, args: Mapping[str, Any]) -> str:
        """Take the computer's move for its turn; the notice telling the players."""
        key, after = self.computer_turn(flow), None
        if key is None or args.get("key") != key:
            after = self.upcoming(flow)
            key = None if after is None else _key(after)
        if key is None or args.get("key") != key:
            return "computer's move: not for the turn in play; ignored"
        game = after if after is not None else self._copy(flow)
        move = _named(game, args.get("move"))
        if isinstance(move, str):
            return f"computer's move: {move}"
        live = (self.computer_turn(flow), key)
        self.prompts = {k: m for k, m in self.prompts.items() if k in live}
        self.prompts[key] = move
        self._say(flow, game, key, move, "computer")
        return f"{flow.seat_name(game.to_move)} plays {_words(flow, game, move)}"

    def answer_hint(self, flow: Flow, args: Mapping[str, Any]) -> str:
        """Take a hint for the person's turn; the notice telling the players."""
        key = self.turn_key(flow) if "hints" in flow.options else None
        if key is None or args.get("key") != key or self.hint_asked != key:
            return "hint: not for the turn in play; ignored"
        game = self._copy(flow)
        move = _named(game, args.get("move"))
        if isinstance(move, str):
            return f"hint: {move}"
        self.hint = (key, move)
        self._say(flow, game, key, move, "hint")
        return f"hint for {flow.seat_name(game.to_move)}: {_words(flow, game, move)}"

    # -- showing and judging -------------------------------------------------------------------

    def prompted(self, flow: Flow) -> Move | None:
        """The computer's move while its turn lasts (or is coming, once the twist is skipped)."""
        after = self.upcoming(flow) if self.prompts else None
        coming = None if after is None else self.prompts.get(_key(after))
        return coming or self.prompts.get(self.computer_turn(flow) or "")

    def shown(self, flow: Flow) -> Move | None:
        """The move the board lights: the computer's, else a hint while its turn lasts and the
        marble (if placed) went where the hint said."""
        prompt = self.prompted(flow)
        if prompt is not None or self.hint is None or "hints" not in flow.options or self.hint[0] != self.turn_key(flow):
            return prompt
        move = self.hint[1]
        return move if flow.game_in_play().phase is Phase.PLACE or flow.placed_hole == move.hole else None

    def skips(self, flow: Flow) -> bool:
        """The computer seat in turn chose to skip its twist and its marble is in: the skip is
        its move, made now (the board would otherwise learn it only from the next seat's
        marble, and meanwhile say the computer is to twist and refuse that seat a hint)."""
        game = _played(flow)
        own = self.prompts.get(self.computer_turn(flow) or "")
        return (own is not None and own.twist is None and game is not None and game.phase is Phase.TWIST
                and flow.placed_hole == own.hole and game.may_skip_twist())

    def _say(self, flow: Flow, game: Any, key: str, move: Any, by: str) -> None:
        """Keep what the page says of an answered move while its turn lasts."""
        keep = {*self.prompts, *(self.hint[:1] if self.hint else ())}
        self.said = {k: v for k, v in self.said.items() if k in keep}
        g, origin, colour = game.geometry, move.origin, move.colour
        marble = game.colour_of(game.to_move) if colour is None and origin is None else colour
        self.said[key] = {"by": by, "seat": game.to_move, "name": flow.seat_name(game.to_move),
                          "move": game.move_name(move), "words": _words(flow, game, move).split(": ", 1)[1],
                          "hole": hole_name(move.hole, g), "origin": None if origin is None else hole_name(origin, g),
                          "colour": None if marble is None else flow.colours[marble]}

    def showing(self, flow: Flow) -> dict[str, Any] | None:
        """The move the board lights now, for the page: ``{by: "computer" | "hint", seat, name,
        move, words, hole, origin, colour}`` (``colour``: the marble's; None for a marble moved
        in Triple's move phase), or None."""
        shown = self.shown(flow)
        if shown is None:
            return None
        answered = [*self.prompts.items(), *([self.hint] if self.hint else [])]
        return next((self.said[key] for key, move in answered if move == shown and key in self.said), None)

    def follows(self, flow: Flow, actions: tuple[Action, ...]) -> bool:
        """Every action of a computer seat's turn is the move it chose: played out on a copy of
        the game, each action is checked against the move of the seat whose turn it is. A
        take-back is the players' right: what follows it is not checked."""
        seats = computer_seats(flow.options)
        key = self.turn_key(flow) if seats else None
        if key is None:
            return True
        game = copy.deepcopy(flow.game_in_play())  # mid-turn as the board stands
        for action in actions:
            if game.is_over() or action.kind == "take_back":
                return True
            if game.to_move in seats and not _is_chosen(self.prompts.get(key), action):
                return False
            moves = len(game.moves)
            if not _play(game, action):  # the rules refuse it (the flow says so) or it waits for its colour
                return True
            if len(game.moves) != moves:  # the turn ended: the next action is the next seat's
                key = _key(game)
        return True

    @staticmethod
    def _copy(flow: Flow) -> Any:
        """The core's own copy of the game at the start of the turn, free to search on."""
        game = flow.game_in_play()
        copy = cast(OpponentRules, flow.fresh_game(game.starter))
        for move in game.moves:
            copy.push(move)
        return copy


# -- the game's own notation and turns -----------------------------------------------------------

def _played(flow: Flow) -> OpponentRules | None:
    """The game in play as the computer plays it, or None: only the games whose spec says
    ``computer`` are asked for moves and twists (a game of none, Picture-Puzzle's, lists none)."""
    return cast("OpponentRules | None", flow.game)


def _key(game: Any) -> str:
    """The name of the turn ``game`` is at the start of: the move number and the position."""
    return f"{len(game.moves)} {game.position.text()}"


def _play(game: Any, action: Action) -> bool:
    """Play ``action`` on ``game`` as the flow does; False when it cannot be (refused by the
    rules, or a Triple marble whose colour the board has yet to learn)."""
    try:
        if action.kind == "place" and action.colour is not None:
            game.place(action.hole, action.colour)  # Triple: the player chose the colour
        elif action.kind in ("place", "lift", "drop"):
            getattr(game, action.kind)(action.hole)
        elif action.kind == "twist":
            game.twist(action.twist)
        else:
            game.skip_twist()
    except (ValueError, TypeError):
        return False
    return True


def _is_chosen(move: Any, action: Action) -> bool:
    """Whether ``action`` is part of ``move`` (the computer's, None when it has not answered)."""
    if move is None:
        return False
    if action.kind == "place":
        return action.hole == move.hole and (action.colour is None or move.colour is None or action.colour == move.colour)
    if action.kind == "lift":
        return bool(action.hole == move.origin)
    if action.kind == "drop":
        return bool(action.hole == move.hole)
    if action.kind == "twist":
        return bool(action.twist == move.twist)
    return move.twist is None  # a skip


def _named(game: Any, text: Any) -> Move | str:
    """The legal move of ``game`` named ``text`` in the game's notation, or why not."""
    for move in game.legal_moves():
        if game.move_name(move) == text:
            found: Move = move
            return found
    return f"{text!r} is not a legal move for seat {game.to_move} now"


def _words(flow: Flow, game: Any, move: Any) -> str:
    """``move`` for the seat to move in ``game``, in words (a Triple move names its colour or
    the marble it moves)."""
    g, origin, colour = game.geometry, move.origin, move.colour
    if origin is not None:
        what = f"move the marble on {hole_name(origin, g)} to {hole_name(move.hole, g)}"
    else:
        name = flow.colours[game.colour_of(game.to_move) if colour is None else colour]
        what = f"put a {name} marble on {hole_name(move.hole, g)}"
    then = (f", then turn block {move.twist.block} {'clockwise' if move.twist.clockwise else 'counter-clockwise'}"
            if move.twist else "")
    return f"{game.move_name(move)}: {what}{then}"
