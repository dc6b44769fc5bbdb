"""The core's state for the web console and the simulator, and the record of the game in play.

Keys (existing ones keep their meaning; the game's keys were added for the family of games):

- ``state``: the flow's state as it publishes it (its machine's, or the shared state a game's
  own state is published as: :meth:`~controller.flow.PlaceTwistFlow.published_state`);
  ``board``: the game's rows, top first (``x`` seat colour 0, ``o`` 1, ``y`` 2, ``z`` 3); ``physical``: what the sensors read, in the game's colours (the
  board's own at the menu; ``*`` a marble of no known colour, ``?`` unsure or a colour the
  game does not use); ``to_move``, ``phase``, ``moves``;
- ``outcome``: ``{"result", "winners", "lines"}`` once the game is over; ``repair``: the steps
  in words; ``match``: wins and games played; ``menu``: the page, its holes, the pick, what was
  chosen and the page's options in words (``[{"value", "means"}]``); ``options``: the game's;
  ``frame``: the LEDs;
- ``game``: the game's name (None at the menu before any game); ``seats``: ``[{"seat", "name",
  "colour"}]``; ``standings``: the places so far, best first, each a list of seats (the whole
  standings once the game is over); ``playing``: the seats still playing;
- ``marbles``: the colour names of the board's symbols by colour index (``x`` the first);
  ``cards``: the face-up pattern cards (Pentago Triple; personal cards in seat order), ``[]``
  in other games; ``eliminated``: the seats knocked out, in order; ``taken``: the cards each seat
  took (the bonus game, else None); ``confirm``: ``{"hole", "colour"}`` while a new marble's
  colour awaits confirmation on the board, else None; ``prompt``: the move the board lights (the
  computer's or a hint, see :meth:`controller.core.computer.Computer.showing`), else None;
  ``mid_turn``: the blocks left part-way through a turn; ``pictures_saved``: how many pictures
  were saved from the board since it started (the page then reads the library afresh);
  ``games_started``: how many games were started since it started (each game's messages start afresh);
- ``link``: whether the sensor link is up (False between a LinkChange down and the next up);
  ``link_problem``: while it is down, why and what to do (e.g. "the board MCU speaks protocol 2,
  ...: reflash it with ..."), else None;
- ``detail``: what a game's flow says of its play beyond the keys above (Picture-Puzzle: the
  round in hand, the rounds so far and the teacher's summary), or None;
- ``record``: the record of the game so far (``{"headers", "moves"}``, see
  :func:`controller.rules.record_of`): the variant, its options, the seats' names and colours,
  who started and the result, so a download stands alone.
"""

from __future__ import annotations

from typing import Any, cast

from ..events import EMPTY
from ..flow import CHOOSING
from ..flow.contract import GameRules
from ..games import GAMES
from ..rules import Position, hole_name, record_of
from ..rules import AnyGame as RecordedGame
from ..games import Flow

SYMBOLS = "xoyz"  # the colour indices as the rules' text boards print them

# What each state of the games' flows asks of the players, in words for people (the web page,
# the MQTT summary, Home Assistant), as each flow says them; "to ..." follows the name of the
# seat to move.
STATE_WORDS = {state: words for spec in GAMES for state, words in spec.flow.state_words.items()}


def state(core: Any) -> dict[str, Any]:
    flow, game = core.flow, core.flow.game
    own = flow.own_state()  # the keys the game's flow fills in: cards, eliminated, taken, detail
    published = flow.published_state()  # Picture-Puzzle's phases are published as they were before they were states
    return {
        "state": published,
        "doing": (flow.doing() if game else None) or STATE_WORDS.get(published, published),
        "board": (game.position if game else Position.empty(core.geometry.size)).rows(),
        "physical": physical_rows(core),
        "to_move": game.to_move if game and not game.is_over() else None,
        "phase": game.phase.value if game else None,
        "moves": flow.move_texts(),
        "outcome": outcome(game),
        "repair": repair_texts(core),
        "match": match(flow),
        "menu": core.rooms.state(core.geometry) if flow.state == CHOOSING else None,
        "options": dict(flow.options) if game else None,  # the game's: computer, match, players, ...
        "frame": [list(rgb) for rgb in core.display.frame or ()],
        "game": flow.options.get("game") if game else None,
        "seats": seats(flow),
        "standings": [list(place) for place in game.standings] if game else [],
        "playing": list(game.playing()) if game and not game.is_over() else [],
        "marbles": list(flow.colours),
        "cards": own["cards"],
        "eliminated": own["eliminated"],
        "taken": own["taken"],
        "confirm": confirm(core),
        "prompt": core.computer.showing(flow) if game else None,
        "mid_turn": mid_turn(core),
        "pictures_saved": core.pictures_saved,
        "games_started": core.games_started,
        "link": core.referee.link_up,
        "link_problem": core.referee.link_problem or None,
        "detail": own["detail"],
        "record": record(flow),
    }


def repair_texts(core: Any) -> list[str]:
    """The steps that mend the board, in words (none while no game is in play)."""
    game = core.flow.game
    return [step.text(game.position) for step in core.repair] if game else []


def seats(flow: Flow) -> list[dict[str, Any]]:
    """Each seat of the game in play: its number, its name and its colour."""
    game = flow.game
    if game is None:
        return []
    return [{"seat": seat, "name": name, "colour": flow.seat_colour(seat)}
            for seat, name in enumerate(names(flow), start=1)]


def names(flow: Flow) -> list[str]:
    """The seats' names (the computer's seats by its level where no name was typed)."""
    seated: list[str] = flow.seat_names()[:flow.game_in_play().players]
    return seated


def record(flow: Flow) -> dict[str, Any] | None:
    """The record of the game in play (headers in order, canonical moves), or None."""
    game = flow.game
    if game is None:
        return None
    colours = [flow.seat_colour(seat) for seat in range(1, game.players + 1)]
    done = record_of(cast(RecordedGame, game), names(flow), colours=colours)  # every game of the registry is one
    return {"headers": done.headers, "moves": done.moves}


def confirm(core: Any) -> dict[str, str] | None:
    """The new marble whose colour the board asks to confirm: its hole and the colour shown."""
    colour, hole = core.flow.awaits_colour(), core.flow.placed_hole
    if colour is None or hole is None:  # a colour awaits confirmation only for a placed marble
        return None
    return {"hole": hole_name(hole, core.geometry), "colour": colour}


def mid_turn(core: Any) -> list[int]:
    """The blocks whose encoder count stands between two quarters: left part-way through a
    turn (or being turned now), which the page asks to finish or undo."""
    physical = core.physical
    return [block for block in range(1, len(physical.steps) + 1) if not physical.quarters(block)]


def outcome(game: GameRules | None) -> dict[str, Any] | None:
    if game is None or game.outcome is None:
        return None
    o = game.outcome
    return {"result": o.result, "winners": list(o.winners), "lines": [list(line) for line in o.lines]}


def match(flow: Flow) -> dict[str, Any] | None:
    if flow.match is None:
        return None
    return {"wins": {str(seat): n for seat, n in flow.match.wins.items()}, "games": len(flow.match.outcomes)}


def physical_rows(core: Any) -> list[str]:
    size = core.geometry.size
    cells = [_symbol(r, core.flow.colours) for r in core.physical.readings]
    return ["".join(cells[r * size:(r + 1) * size]) for r in reversed(range(size))]


def _symbol(reading: str, colours: tuple[str, ...]) -> str:
    if reading == EMPTY:
        return "."
    if reading in colours:
        return SYMBOLS[colours.index(reading)]
    return "*" if reading == "marble" else "?"
