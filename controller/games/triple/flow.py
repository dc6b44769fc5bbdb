"""The flow of Pentago Triple on the board: placements whose colour is confirmed, the twist,
the move phase, eliminations, and the cards in light.

States: choosing, awaiting_placement (a placement, or in the move phase a lift and a drop),
confirming_colour, awaiting_twist, repair and game_over. The shared states keep
:class:`~controller.flow.place_twist.PlaceTwistFlow`'s meaning and triggers; its journal,
resume and end record are inherited.

*Colour.* The player chooses a marble's colour, and most sensors cannot see it. A placement
sensed with its colour (the virtual board's colour sensing) is played at once. Otherwise the
flow holds it as pending in ``confirming_colour``: the hole's pixel blinks in the colour the
board assumes: on a polarity board the sensed pole's (north up: blue, south up: yellow; a red
marble reads as either and is cycled to), else the colour of the last marble placed if any is
left in the box, else the first colour left. Each press of the profile's cycle button steps it
to the next colour still in the box (blue, yellow, red, round), and the confirm button plays it. Until then the marble is expected on the board (lifting it
cancels the placement, sliding it to another hole moves it) but nothing is journalled: after a
power cut the board shows the marble and the placement is confirmed again.

*Turns.* The twist is always made; a placement or a move that completes a pattern ends the turn
without one. In the move phase a settled board showing one marble gone is a lift (journalled,
the marble is in hand), one marble gone and one new a whole move; the marble played last is
refused with the rules' reason in the notices, and the repair guidance puts it back. Putting a
lifted marble back where it came from takes the lift back. A twist made before the colour is
confirmed waits: the board is judged again once the colour is confirmed.

*Take-back* (the back button, or lifting the marble just placed before the twist) takes back
the turn so far, or the last whole turn: a Triple take-back is one turn, never half of one.

*Light.* The face-up cards on the card strip (personal cards: every seat's, in seat order), the
seat to move on the status pixels in its seat colour, the pending colour blinking on its hole.
After a turn that completed a card, until the next marble is played, the pattern is lit on its
holes in the card's colours and the status pixels show the seat it eliminated (every other
pixel). At the end: the final patterns and the winner's colour, or the standings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...board import Diff, Physical, Step
from ...colours import status_colours
from ...lights.scenes import (
    cards_scene, confirm_colour_scene, eliminated_scene, menu_scene, overlay, pattern_scene, prompt_scene,
    repair_scene, standings_scene, turn_scene,
)
from ...lights.view import HoleLight, View
from ...rules import IllegalMoveError, Phase, Position, TripleGame, Twist, hole_name, parse_hole, parse_twist
from ...rules.triple.cards import COLOUR_LETTERS
from ...flow.menu import Menu
from ...flow.options import GameOptions
from ...flow.place_twist import AWAITING_PLACEMENT, AWAITING_TWIST, CHOOSING, GAME_OVER, PLAYING, REPAIR, STATE_WORDS, PlaceTwistFlow
from ...flow.steps import Action

CONFIRMING_COLOUR = "confirming_colour"  # a new marble's colour awaits confirmation on the board
STATES = [CHOOSING, AWAITING_PLACEMENT, CONFIRMING_COLOUR, AWAITING_TWIST, REPAIR, GAME_OVER]
MOVING = [AWAITING_PLACEMENT, AWAITING_TWIST, REPAIR]
SEED_RANGE = 2**31 - 1  # a seed from the start time stays below this


def _routed(trigger: str, sources: list[str], *, ends: bool = True, twists: bool = True) -> list[dict[str, Any]]:
    """Where a trigger leads: the game may be over (``ends``), a twist may be due (``twists``),
    else a marble is."""
    return [
        *([{"trigger": trigger, "source": sources, "dest": GAME_OVER, "conditions": "is_over"}] if ends else []),
        *([{"trigger": trigger, "source": sources, "dest": AWAITING_TWIST, "conditions": "awaits_twist"}]
          if twists else []),
        {"trigger": trigger, "source": sources, "dest": AWAITING_PLACEMENT},
    ]


TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "start", "source": [CHOOSING, GAME_OVER], "dest": AWAITING_PLACEMENT},
    {"trigger": "sensed", "source": [AWAITING_PLACEMENT, REPAIR], "dest": CONFIRMING_COLOUR},
    *_routed("placed", [AWAITING_PLACEMENT, CONFIRMING_COLOUR, REPAIR]),  # a placement or a drop
    {"trigger": "lifted", "source": [AWAITING_PLACEMENT, REPAIR], "dest": AWAITING_PLACEMENT},
    *_routed("twisted", [AWAITING_TWIST, REPAIR], twists=False),
    *_routed("took_back", [CONFIRMING_COLOUR, *MOVING], ends=False),
    {"trigger": "broke", "source": [AWAITING_PLACEMENT, AWAITING_TWIST], "dest": REPAIR},
    *_routed("mended", [REPAIR], ends=False),
    {"trigger": "abort", "source": STATES[1:], "dest": CHOOSING},
]
TRIGGERS = {"place": "placed", "drop": "placed", "lift": "lifted", "twist": "twisted", "take_back": "took_back"}


class TripleFlow(PlaceTwistFlow[TripleGame]):
    """Model of Triple's machine: the game, the pending placement, the seats' colours."""

    machine_states = STATES
    machine_transitions = TRANSITIONS
    playing_states = (*PLAYING, CONFIRMING_COLOUR)
    logs_refusals = False  # the refusal is told in the news only
    state_words = {**STATE_WORDS, CONFIRMING_COLOUR: "to confirm the new marble's colour"}
    knocks_out = True  # a completed card knocks out the seat before
    sensed: Callable[[], bool]  # its own triggers, set on the model by the Machine
    lifted: Callable[[], bool]

    def __init__(self, catalogue: Any, colours: tuple[str, ...] = ("white", "black"), size: int = 6) -> None:
        super().__init__(catalogue, colours, size)
        self.pending: tuple[int, int] | None = None  # (hole, colour index) awaiting confirmation
        self.seat_colours: tuple[str, ...] = ()

    # -- starting ------------------------------------------------------------------------------

    def new_game(self, options: GameOptions, t: float) -> dict[str, Any]:
        """Start a game; without a seed (or cards) the start time shuffles the deck and the
        start record keeps the seed it gave."""
        if options.get("seed") is None:
            options = options.completed(seed=int(t * 1000) % SEED_RANGE)
        self.pending = None
        record = super().new_game(options, t)
        self.seat_colours = status_colours(self.colours, options["players"])
        return record

    def next_game(self, t: float) -> dict[str, Any]:
        raise IllegalMoveError("Pentago Triple has no match: a game is followed by the menu")

    def to_menu(self, t: float) -> dict[str, Any]:
        self.pending = None
        return super().to_menu(t)

    # -- what the board shows ------------------------------------------------------------------

    def expected(self) -> Position:
        """The position the board should show: the game's, with a pending marble on its hole."""
        game = self._game()
        if self.pending is None:
            return game.position
        hole, colour = self.pending
        return game.position.place(hole, colour)

    def seat_colour(self, seat: int) -> str:
        """A seat's status colour (no marble colour: see :func:`controller.colours.status_colours`)."""
        return self.seat_colours[seat - 1]

    def awaits_colour(self) -> str | None:
        """The colour shown for the pending placement's confirmation, or None."""
        return None if self.pending is None else self.colours[self.pending[1]]

    # -- playing -------------------------------------------------------------------------------

    def apply(self, action: Action, t: float) -> dict[str, Any] | None:  # type: ignore[override]
        """Apply one action; its journal record (None for a pending placement, which is not
        journalled until its colour is confirmed). Raises IllegalMoveError."""
        game = self._game()
        if self.pending is not None and action.kind != "take_back":
            raise IllegalMoveError("confirm the colour of the marble just placed first")
        if action.kind == "place" and action.colour is None:
            assert action.hole is not None
            self._hold(game, action.hole, action.assumed)
            return None
        claims = len(game.claims)
        record = self._play(game, action, t)
        self.placed_hole = game.last_played if game.phase is Phase.TWIST else None
        self.trigger(TRIGGERS[action.kind])
        self._tell_claims(game, claims)
        return record

    def _hold(self, game: TripleGame, hole: int, assumed: int | None) -> None:
        """A placement of no sensed colour: pending until its colour is confirmed, shown first
        in the ``assumed`` colour (a polarity sensor's pole) if any is left, else the guess. The
        rules judge it first (placed and taken back at once), so an occupied hole or a placement
        in the move phase is refused now, not after the confirmation."""
        colour = assumed if assumed in self._colours_left() else self._guess()
        assert colour is not None
        game.place(hole, colour)
        game.pop()
        self.pending = (hole, colour)
        self.placed_hole = hole
        self.sensed()

    def _play(self, game: TripleGame, action: Action, t: float) -> dict[str, Any] | None:
        g = game.geometry
        if action.kind == "take_back":
            if self.pending is not None:
                self.pending = None
                return None
            game.pop()  # raises IllegalMoveError when there is nothing to take back
            return {"t": t, "kind": "take_back"}
        if action.kind == "twist":
            assert action.twist is not None
            game.twist(action.twist)
            return {"t": t, "kind": "twist", "twist": str(action.twist)}
        assert action.hole is not None
        name = hole_name(action.hole, g)
        if action.kind == "place":
            assert action.colour is not None
            game.place(action.hole, action.colour)
            return {"t": t, "kind": "place", "hole": name, "colour": COLOUR_LETTERS[action.colour]}
        getattr(game, action.kind)(action.hole)  # lift or drop
        return {"t": t, "kind": action.kind, "hole": name}

    def colour_button(self, role: str, t: float) -> list[dict[str, Any]]:
        """The cycle button steps the pending colour on; the confirm button plays it. Returns
        the journal records (none for a cycle)."""
        if self.pending is None:
            return []
        hole, colour = self.pending
        if role == "cycle":
            left = self._colours_left()
            self.pending = (hole, left[(left.index(colour) + 1) % len(left)] if colour in left else left[0])
            return []
        self.pending = None
        return self.accept((Action("place", hole, colour=colour),), t)

    def _guess(self) -> int:
        """The colour assumed for an unsensed placement: the colour of the last marble placed,
        if any of it is left in the box, else the first colour left (blue, yellow, red)."""
        game = self._game()
        left = self._colours_left()
        placed = [m.colour for m in game.moves if m.colour is not None]
        return placed[-1] if placed and placed[-1] in left else left[0]

    def _colours_left(self) -> list[int]:
        game = self._game()
        return [c for c in game.allowed if game.in_box(c)] or list(game.allowed)

    def _tell_claims(self, game: TripleGame, before: int) -> None:
        """The cards the last action completed, in words: who went out, or who took a card."""
        for claim in game.claims[before:]:
            if claim.eliminated is not None:
                self.news.append(f"{self.seat_name(claim.seat)} completed {claim.card}: "
                                 f"{self.seat_name(claim.eliminated)} is out")
            elif game.mode == "bonus":
                self.news.append(f"{self.seat_name(claim.seat)} takes {claim.card}")

    def doing(self) -> str | None:
        """In the move phase a turn moves a marble, never places one: say so (see the module doc)."""
        game = self.game
        if self.state != AWAITING_PLACEMENT or game is None or not game.is_move_phase():
            return None
        if game.lifted is not None:
            return f"to put the marble lifted from {hole_name(game.lifted, game.geometry)} on an empty hole"
        return "to move a marble: lift one (not the one played last), then put it on an empty hole"

    def may_take_back(self) -> bool:
        game = self.game
        if self.state not in (CONFIRMING_COLOUR, *MOVING) or game is None:
            return False
        return bool(game.moves or self.pending or game.phase is Phase.TWIST or game.lifted is not None)

    # -- resuming ------------------------------------------------------------------------------

    def _replay_one(self, record: dict[str, Any]) -> None:
        kind = record["kind"]
        if kind in ("place", "lift", "drop", "twist", "take_back"):
            self.apply(self._action(record), 0.0)
        elif kind != "next_game":
            super()._replay_one(record)
        else:
            raise IllegalMoveError("Pentago Triple has no match: a next game cannot follow")

    def _action(self, record: dict[str, Any]) -> Action:
        g = self._game().geometry
        kind = record["kind"]
        if kind == "twist":
            return Action("twist", twist=parse_twist(record["twist"], g))
        if kind == "take_back":
            return Action("take_back")
        if not isinstance(record.get("hole"), str):
            raise ValueError(f"field 'hole' = {record.get('hole')!r} must be text")
        hole = parse_hole(record["hole"], g)
        if kind != "place":
            return Action(kind, hole)
        letter = str(record.get("colour", "")).upper()
        if len(letter) != 1 or letter not in COLOUR_LETTERS:
            raise ValueError(f"a Triple placement names its colour (B, Y or R), not {record.get('colour')!r}")
        return Action("place", hole, colour=COLOUR_LETTERS.index(letter))

    def _end_record(self, t: float) -> dict[str, Any]:
        record = super()._end_record(t)
        game = self._game()
        record["eliminated"] = list(game.eliminated)
        if game.mode == "bonus":
            record["taken"] = {str(seat): [str(c) for c in cards] for seat, cards in game.taken.items()}
        return record

    # -- reading -------------------------------------------------------------------------------

    def move_texts(self) -> list[str]:
        game = self.game
        return [] if game is None else [game.move_name(m) for m in game.moves]

    def own_state(self) -> dict[str, Any]:
        """Its face-up cards (personal cards in seat order), the seats knocked out, and in the
        bonus game the cards each seat took."""
        game = self.game
        if game is None:
            return super().own_state()
        taken = ({str(seat): [str(card) for card in cards] for seat, cards in game.taken.items()}
                 if game.mode == "bonus" else None)
        return {"cards": [str(card) for card in game.cards], "eliminated": list(game.eliminated), "taken": taken,
                "detail": None}


# -- how a settled board is read ----------------------------------------------------------------

TAKE_BACK = Action("take_back")


def explain(game: TripleGame, diff: Diff, placed: int | None, physical: Physical) -> tuple[Action, ...] | None:
    """The actions that turn the expected board into the sensed one, or None.

    ``placed`` is the hole of the placement awaiting its twist or its colour (the colour is
    awaited while the rules are still in the placement phase). ``physical`` gives the pole a
    polarity sensor's reading under a new marble suggests (``suggested``): the colour first shown.
    """
    if game.is_over() or diff.is_same() or diff.recoloured or diff.unsure or diff.torn or len(diff.turns) > 1:
        return None
    twist = _twist(diff)
    if diff.turns and twist is None:
        return None  # a half turn: never a move
    if placed is not None and game.phase is Phase.PLACE:
        return _while_confirming(diff, placed)
    if game.phase is Phase.TWIST:
        return _after_placement(game, diff, placed, twist)
    if game.lifted is not None:
        return _drop(game, diff, game.lifted, twist)
    if game.is_move_phase():
        return _move(game, diff, twist)
    return _place(game, diff, twist, physical)


def is_idle_turn(game: TripleGame, diff: Diff) -> bool:
    """Never: in Triple every turned block is a twist, made in its turn or repaired."""
    return False


def next_colour(game: TripleGame) -> int | None:
    """No colour is due: the player chooses (repair steps then name no colour due)."""
    return None


def _twist(diff: Diff) -> Twist | None:
    if len(diff.turns) == 1 and abs(diff.turns[0][1]) == 1:
        block, quarters = diff.turns[0]
        return Twist(block, quarters > 0)
    return None


def _only(diff: Diff, **parts: Any) -> bool:
    return diff == Diff(**parts, loose=diff.loose, turned_expected=diff.turned_expected)


def _while_confirming(diff: Diff, placed: int) -> tuple[Action, ...] | None:
    """The pending marble lifted (the placement taken back) or slid to another hole."""
    if _only(diff, removed=(placed,)):
        return (TAKE_BACK,)
    if len(diff.added) == 1 and _only(diff, removed=(placed,), added=diff.added):
        hole, sensed = diff.added[0]
        return (TAKE_BACK, Action("place", hole, colour=sensed)) if _is_marble(sensed) else None
    return None


def _after_placement(game: TripleGame, diff: Diff, placed: int | None,
                     twist: Twist | None) -> tuple[Action, ...] | None:
    """The twist (maybe with the next seat's marble already in), or the placement lifted again."""
    if twist is None:
        if placed is not None and not game.is_move_phase() and _only(diff, removed=(placed,)):
            return (TAKE_BACK,)
        return None
    if _only(diff, turns=diff.turns):
        return (Action("twist", twist=twist),)
    if len(diff.added) == 1 and _only(diff, turns=diff.turns, added=diff.added) and _is_marble(diff.added[0][1]):
        hole, sensed = diff.added[0]
        return (Action("twist", twist=twist), Action("place", hole, colour=sensed))
    return None


def _place(game: TripleGame, diff: Diff, twist: Twist | None, physical: Physical) -> tuple[Action, ...] | None:
    if len(diff.added) != 1 or not _only(diff, turns=diff.turns, added=diff.added):
        return None
    hole, sensed = diff.added[0]
    if not _is_marble(sensed):
        return None
    pole = physical.suggested.get(hole) if sensed is None else None
    if twist is None:
        return (Action("place", hole, colour=sensed, assumed=pole),)
    return (Action("place", _before(game, hole, twist), colour=sensed, assumed=pole), Action("twist", twist=twist))


def _move(game: TripleGame, diff: Diff, twist: Twist | None) -> tuple[Action, ...] | None:
    """Move phase: one marble gone (a lift), or gone and put on another hole (a move)."""
    if len(diff.removed) != 1 or len(diff.added) > 1 or not _only(diff, turns=diff.turns, removed=diff.removed,
                                                                  added=diff.added):
        return None
    origin = _before(game, diff.removed[0], twist)
    if not diff.added:
        return None if twist else (Action("lift", origin),)
    hole, sensed = diff.added[0]
    if sensed is not None and sensed != game.position.colour_at(origin):
        return None  # another marble than the one lifted
    steps = (Action("lift", origin), Action("drop", _before(game, hole, twist)))
    return steps + ((Action("twist", twist=twist),) if twist else ())


def _drop(game: TripleGame, diff: Diff, origin: int, twist: Twist | None) -> tuple[Action, ...] | None:
    """A marble in hand: put down (maybe with the twist), or put back where it came from."""
    if len(diff.added) != 1 or not _only(diff, turns=diff.turns, added=diff.added):
        return None
    hole, _ = diff.added[0]
    target = _before(game, hole, twist)
    if target == origin and twist is None:
        return (TAKE_BACK,)
    return (Action("drop", target),) + ((Action("twist", twist=twist),) if twist else ())


def _before(game: TripleGame, hole: int, twist: Twist | None) -> int:
    """Where a marble now on ``hole`` sat before ``twist`` (no twist: the same hole)."""
    if twist is None:
        return hole
    return game.geometry.rotate(1 << hole, twist.block, not twist.clockwise).bit_length() - 1


def _is_marble(sensed: int | None) -> bool:
    """A marble of a Triple colour (sensed) or of a colour no sensor tells (None); a sensed
    colour past Triple's three is no one's marble."""
    return sensed is None or 0 <= sensed < 3


# -- what the LEDs show -------------------------------------------------------------------------

def scene(flow: TripleFlow, menu: Menu, repair: list[Step], prompt: Any = None) -> View:
    """The view for Triple's state (see the module doc); ``prompt`` is a move to show (the
    computer's, or a hint): in the move phase the marble to lift first, then the hole it goes
    to and the twist's arrow."""
    if flow.state == CHOOSING:
        holes = menu.option_holes()
        return menu_scene(holes, [holes[menu.pick]] if menu.pick is not None else [])
    game = flow.game
    assert game is not None
    cards = cards_scene(str(card) for card in game.cards)
    if flow.state == REPAIR and repair:
        return overlay(cards, repair_scene(repair[:1]))
    if flow.pending is not None:
        hole, colour = flow.pending
        return overlay(cards, confirm_colour_scene(hole, flow.colours[colour]))
    if game.outcome is not None:
        return overlay(cards, _patterns(game, len(game.moves)), _ending(flow, game))
    just = _patterns(game, len(game.moves)) if game.phase is Phase.PLACE and game.lifted is None else View()
    victim = next((c.eliminated for c in game.claims if c.turn == len(game.moves) and c.eliminated), None)
    if just.holes and victim is not None:
        return overlay(cards, just, eliminated_scene(flow.seat_colour(victim)))
    return overlay(cards, just, turn_scene(flow.seat_colour(game.to_move)), _prompt(flow, game, prompt))


def _prompt(flow: TripleFlow, game: TripleGame, prompt: Any) -> View:
    """Where the prompted move goes, in the colour of its marble (blue is a marble here, so the
    prompt's blue would say "blue" whatever the move needs): the marble to lift blinking while
    it stands, else the empty hole lit steadily in the colour to put there (with the twist's
    arrow), else the arrow alone."""
    if prompt is None:
        return View()
    standing = None if prompt.origin is None else game.position.colour_at(prompt.origin)
    if standing is not None and game.lifted is None:
        return View(holes=(HoleLight(prompt.origin, flow.colours[standing], blink=True),))
    marble = prompt.colour if prompt.origin is None else game.in_hand
    empty = game.position.colour_at(prompt.hole) is None
    return prompt_scene(prompt.hole if empty and marble is not None else None, prompt.twist,
                        flow.colours[marble] if marble is not None else "prompt")


def _patterns(game: TripleGame, turn: int) -> View:
    """The patterns completed by turn ``turn`` (1-based), lit on their holes."""
    views = [pattern_scene(line, str(claim.card)) for claim in game.claims if claim.turn == turn
             for line in claim.lines]
    return overlay(*views) if views else View()


def _ending(flow: TripleFlow, game: TripleGame) -> View:
    outcome = game.outcome
    assert outcome is not None
    if len(outcome.winners) == 1:
        return turn_scene(flow.seat_colour(outcome.winners[0]))
    return standings_scene(flow.seat_colour(seat) for place in outcome.standings for seat in place)
