"""`pentago-board replay TAPE [--json]`: run a recorded tape through the core.

The tape's clock drives the core: every event at its time, Ticks at the deadlines the core asks
for in between, and a final settle after the last event. Prints the accepted moves and the
outcome; ``--json`` prints exactly ``{"moves": [...], "outcome": {"result", "winners"},
"repairs": n, "accepted": [...]}``, plus ``"standings"`` for a game of more than two seats.
``accepted`` has one entry per move of ``moves``, ``{"move": "b5 4R", "last_change_t": T1,
"accepted_t": T2}``: the tape time of the last sensor event the move's acceptance rests on and
the time the core accepted it (see :mod:`controller.core.timing`). A malformed tape exits with
status 2 naming the line and the problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


GAME_KEYS = ("players", "twist", "neutral_skip", "names", "match")  # a tape header's game options


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="run a tape through the core and print the moves and outcome",
                                   description="Run a recorded tape through the core and print the "
                                   "accepted moves and the outcome.")
    parser.add_argument("tape", help="path of a tape (JSON lines)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import PentagoError
    from ..tape import read_tape

    try:
        tape = read_tape(args.tape)
    except PentagoError as error:  # names the file in every problem
        return _refuse(str(error))
    try:
        result = replay(tape)
    except PentagoError as error:
        return _refuse(f"{args.tape}: {error}")
    print(json.dumps(result) if args.json else _text(result))
    return 0


def _refuse(problem: str) -> int:
    print(f"pentago-board replay: {problem}", file=sys.stderr)
    return 2


def _text(result: dict[str, Any]) -> str:
    moves = result["moves"]
    lines = [f"{n}. {move}" for n, move in enumerate(moves, start=1)] or ["no moves"]
    outcome = result["outcome"]
    if outcome["result"] == "win":
        lines.append(f"seat {outcome['winners'][0]} wins")
    else:
        lines.append("draw" if outcome["result"] == "draw" else "game not finished")
    if "standings" in result:
        lines.append("standings: " + "; ".join(", ".join(map(str, place)) for place in result["standings"]))
    lines.append(f"repairs: {result['repairs']}")
    return "\n".join(lines)


def replay(tape: Any) -> dict[str, Any]:
    """Run a :class:`~controller.tape.Tape` through a fresh core; the ``--json`` result."""
    core = core_for(tape.header)
    start(core, tape.header)
    drive(core, tape.events, frames=False)  # a silent day on the tape is a few Ticks, not a million frames
    return result(core)


def core_for(header: Any, **core_options: Any) -> Any:
    """A core for the tape's board, sensing and detents, lit through the matching virtual chain.

    ``core_options`` go to :class:`~controller.core.Core` (``journal_records`` to resume, ...).
    """
    from ..core import DEFAULT_COLOURS, Core

    colours = tuple(header.options.get("colours", DEFAULT_COLOURS))
    return Core(profile_for(header), colours=colours, start=header.start, **core_options)


def profile_for(header: Any) -> Any:
    """The virtual profile of the tape's board size, with the tape's sensing and detents."""
    from dataclasses import replace

    from ..profile import ColourInput, load_profile

    base = load_profile(f"virtual-{header.size}x{header.size}")
    # A board that cannot see a chosen colour confirms it with the real builds' buttons.
    asks = base.colour_input if header.sensing == "colour" else ColourInput()
    return replace(base, sensing=header.sensing, detents_per_quarter=header.detents_per_quarter, colour_input=asks)


def start(core: Any, header: Any) -> Any:
    """Start the header's game at once (no menu), seat 1 first; returns the core's Effects.

    Raises TapeError when the core refuses the header's game and options.
    """
    from .. import games
    from ..errors import TapeError
    from ..events import Command

    keys = (*GAME_KEYS, *(choice.name for choice in games.get(header.game).choices))  # the game's own options too
    args = {"game": header.game, **{key: header.options[key] for key in keys if key in header.options}}
    effects = core.handle(Command(0.0, "new_game", args))
    if core.flow.game is None:
        problem = effects.notices[0].removeprefix("new game: ") if effects.notices else "refused"
        raise TapeError(f"line 1: the header's game cannot start: {problem}")
    return effects


def drive(core: Any, events: list[Any], frames: bool = True) -> list[Any]:
    """Feed ``events`` with Ticks at the core's deadlines between them; then let the board settle.
    ``frames=False``: no Ticks for the LEDs' animation frames (see ``Core.next_deadline``).

    Returns every :class:`~controller.core.Effects` in order (for tests and the benchmark).
    """
    from ..events import Tick

    effects = []
    for event in events:
        effects.extend(tick_until(core, event.t, frames))
        effects.append(core.handle(event))
    end = (events[-1].t if events else core.now) + max(core.settle_s, core.turn_settle_s)
    effects.extend(tick_until(core, end, frames))
    effects.append(core.handle(Tick(end)))
    return effects


def tick_until(core: Any, t: float, frames: bool = True) -> list[Any]:
    """Tick the core at each deadline it asks for before ``t`` (``frames``: see :func:`drive`)."""
    from ..events import Tick

    effects = []
    while (deadline := core.next_deadline(frames)) is not None and deadline < t:
        effects.append(core.handle(Tick(deadline)))
    return effects


def result(core: Any) -> dict[str, Any]:
    """The replay result: the moves, the outcome, how often repair mode was entered and when
    each move was accepted; with more than two seats, the standings too (places best first,
    each a list of seats)."""
    game = core.flow.game
    outcome = game.outcome if game else None
    done = {
        "moves": core.flow.move_texts(),
        "outcome": {"result": outcome.result if outcome else "none", "winners": list(outcome.winners) if outcome else []},
        "repairs": core.flow.repairs,
        "accepted": [{key: _seconds(value) for key, value in entry.items()} for entry in core.referee.timing.moves],
    }
    if game is not None and game.players > 2:
        done["standings"] = [list(place) for place in game.standings]
    if game is not None and core.flow.knocks_out:  # games that knock seats out (Triple, Picture-Puzzle)
        done["eliminated"] = core.flow.own_state()["eliminated"]
    return done


def _seconds(value: Any) -> Any:
    """A time to the microsecond (a deadline's float sum, such as 1.2000000000000002, is 1.2)."""
    return round(value, 6) if isinstance(value, float) else value
