"""Property test: random physical play, legal and not, with noise, through the real core.

The core must never crash, never accept a move the rules forbid or that did not happen, and the
moves it accepts must replay through the rules to its own position and outcome.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.board import compare
from controller.commands.replay import core_for, start, tick_until
from controller.events import Tick
from controller import games
from controller.flow import PlaceTwistFlow
from controller.rules import ClassicGame, Phase
from controller.tape import parse_event, parse_header

from .tapebuilder import TapeBuilder

# Mostly play and follow the lights, with every kind of mistake and noise in between.
GESTURES = ("legal",) * 8 + ("fix",) * 4 + ("put", "lift", "turn", "half", "bounce", "roll", "back", "wait")


class Session:
    """A simulated board and a core fed with its events as they happen."""

    def __init__(self, seed: int, sensing: str) -> None:
        self.b = TapeBuilder(seed=seed, sensing=sensing)
        self.header = parse_header(self.b.lines()[0])
        self.core = core_for(self.header)
        self.records = list(start(self.core, self.header).records)
        self.fed = 0

    def flush(self) -> None:
        """Feed every new event, ticking at the core's deadlines in between."""
        for data in self.b.events[self.fed:]:
            event = parse_event(_json(data), self.header)
            for effects in tick_until(self.core, event.t):
                self.records += effects.records
            self.records += self.core.handle(event).records
        self.fed = len(self.b.events)

    def quiet(self, seconds: float) -> None:
        self.flush()
        self.b.pause(seconds)
        for effects in tick_until(self.core, self.b.t):
            self.records += effects.records
        self.records += self.core.handle(Tick(self.b.t)).records

    def gesture(self, kind: str, pick: int) -> None:
        game = self.core.flow.game
        b = self.b
        free = [h for h in range(36) if h not in b.marbles]
        if kind == "legal" and self.core.flow.state == "repair":
            self.fix()  # players who mean well follow the repair lights
        elif kind == "legal" and game is not None and not game.is_over():
            self._legal(game, pick)
        elif kind in ("put", "bounce", "roll") and free:
            b.seat = game.to_move if game else 1
            if kind == "roll" and len(free) > 2:
                b.roll([free[pick % len(free)], free[(pick + 1) % len(free)]])
            else:
                b.put(free[pick % len(free)], colour=pick % 2, bounce=2 if kind == "bounce" else 0)
        elif kind == "lift" and b.marbles:
            b.lift(sorted(b.marbles)[pick % len(b.marbles)])
        elif kind == "turn":
            quarters = (1, -1, 2, -2)[pick % 4]
            miss = (0, 0, 1, -1)[pick // 4 % 4]  # a detent missed or counted twice, now and then
            b.turn(pick % 4 + 1, quarters, steps=quarters * b.detents + miss)
        elif kind == "half":
            block = pick % 4 + 1
            b.half_turn_off(block, 3).pause(pick % 3)
            b.turn(block, 0, steps=-3)
        elif kind == "back":
            b.button("back")
        elif kind == "fix":
            self.fix()
        self.quiet((0.05, 0.3, 0.6, 2.5)[pick % 4])

    def fix(self) -> None:
        """Do what the lights ask: the first repair step."""
        if not self.core.repair:
            return
        step, b = self.core.repair[0], self.b
        if step.kind in ("remove", "swap") and step.hole in b.marbles:  # the lights may lag the hands
            b.lift(step.hole)
        if step.kind in ("put", "swap") and step.hole not in b.marbles:
            b.put(step.hole, colour=self.core.colours.index(step.colour))
        physical = self.core.physical
        if step.kind == "turn" and step.block in compare(self.core.flow.game.position, physical, self.core.colours).torn:
            # a drifted count, or a block stopped a detent off its rest: to the nearest detent
            b.nudge(step.block, physical.nearest(step.block) * physical.detents - physical.count(step.block))
        elif step.kind == "turn":
            b.turn(step.block, 1 if step.clockwise else -1)

    def _legal(self, game: ClassicGame, pick: int) -> None:
        """The physical form of a legal half-move for the phase the core believes in."""
        b = self.b
        b.seat = game.to_move
        if game.phase is Phase.PLACE:
            empty = [h for h in range(36) if game.position.colour_at(h) is None and h not in b.marbles]
            if empty:
                b.put(empty[pick % len(empty)], colour=game.colour, bounce=pick % 2)
        else:
            b.turn(pick % 4 + 1, 1 if pick % 2 else -1, slow=pick % 5 == 0)


def _json(data: dict) -> str:
    import json
    return json.dumps(data)


def check(session: Session) -> None:
    core = session.core
    game = core.flow.game
    assert game is not None
    # the journal records rebuild the same game ...
    rebuilt = PlaceTwistFlow(games, core.colours)
    rebuilt.replay(session.records)
    assert rebuilt.move_texts() == core.flow.move_texts()
    # ... and the accepted moves replay through the rules to the same position and outcome
    replayed = ClassicGame()
    for move in core.flow.move_texts():
        replayed.push_text(move)  # raises if the core accepted an illegal move
    if game.phase is not Phase.TWIST:
        assert replayed.position == game.position
    assert replayed.outcome == game.outcome


def check_truth(session: Session) -> None:
    """Settled and not in repair: the core believes exactly the marbles that are there."""
    core, b = session.core, session.b
    if core.flow.state in ("awaiting_placement", "awaiting_twist"):
        assert core.flow.game.position.occupied == sum(1 << h for h in b.marbles)
        if b.sensing == "polarity":
            for hole, colour in b.marbles.items():
                assert core.flow.game.position.colour_at(hole) == colour


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), sensing=st.sampled_from(["presence", "polarity"]),
       steps=st.lists(st.tuples(st.sampled_from(GESTURES), st.integers(0, 1000)), min_size=1, max_size=60))
def test_random_physical_play_never_breaks_the_core(seed: int, sensing: str, steps: list) -> None:
    session = Session(seed, sensing)
    for kind, pick in steps:
        session.gesture(kind, pick)
        check(session)
        if pick % 4 == 3:  # a long pause: everything has been judged
            check_truth(session)
    session.quiet(3.0)
    for _ in range(40):  # follow the repair lights until the board matches
        if session.core.flow.state != "repair":
            break
        session.fix()
        session.quiet(0.5)
    check(session)
    assert session.core.flow.state != "repair", session.core.state()["repair"]
    check_truth(session)
