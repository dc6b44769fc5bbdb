"""Pentago Triple on the 6x6 board: three marble colours, pattern cards, eliminations, the move phase.

The rules are :mod:`controller.rules.triple`; this module says how the product offers them.

Options (the web API's and the new-game command's keys; the CLI spells them ``--two-colour``,
``--personal``, ``--bonus``, ``--cards``, ``--seed``):

- ``players`` 2-4;
- ``two_colour``: the cards in play use two colours and the third is refused;
- ``mode``: ``"shared"`` (the standard game's face-up cards), ``"personal"`` (one card each) or
  ``"bonus"`` (one card at a time, most cards wins). The menu asks it as one page, because the
  two variants do not combine; commands may give the CLI's flags ``personal: true`` or
  ``bonus: true`` instead, read as the mode (the checked options keep the mode only);
- ``cards``: the cards in order, as ``"BYRYB,RRYBB"`` or a list of card words (empty: dealt);
- ``seed``: a whole number that shuffles the shipped deck. Without one, the flow takes the
  time the game starts (the start record keeps the seed, so a resume deals the same cards).

``cards`` and ``seed`` are free options (:class:`FreeChoice`): typed on the web page, never a
menu page; the board's menu deals from the deck.

Seats are players, not colours: every player places any marble colour, so the seats' status
colours (turn, eliminated, winner) are colours no Triple marble wears (:func:`status_colours`).
The computer can play any seats, at any level, and hints are offered (see
:mod:`controller.games.computer`): its move lights like any game's (the marble to lift first in
the move phase, then the hole and the twist's arrow); the notice names the marble's colour.

>>> SPEC.options({"players": 3, "bonus": True, "cards": "byryb, rrybb"})["cards"]
'BYRYB,RRYBB'
>>> SPEC.options({"players": 3, "personal": True, "bonus": True})
Traceback (most recent call last):
...
controller.games.spec.OptionError: mode: personal cards and the bonus game are two different games: choose one
>>> SPEC.options({"players": 2, "cards": "BYRYX"})
Traceback (most recent call last):
...
controller.games.spec.OptionError: cards 'BYRYX': 'BYRYX' is not a card: write five colour letters B, Y or R, e.g. BYRYB
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .flow import TripleFlow, explain, is_idle_turn, next_colour, scene
from ...checks import within
from ...rules import TripleGame, TripleOptions, parse_cards
from ...rules.triple.cards import cards_text
from ..computer import computer_choices
from ...flow.options import GameOptions
from ..spec import Choice, GameSpec, OptionError

MAX_SEED = 2**31 - 1
MAX_CARDS = 40  # a game never needs more cards than two decks' worth; more is a mistake
MARBLES = ("blue", "yellow", "red")  # Triple's colour indices 0, 1, 2 (B, Y, R)
MODES = ("shared", "personal", "bonus")


@dataclass(frozen=True)
class FreeChoice(Choice):
    """An option whose values cannot be listed (a number, a list of cards): never a menu page;
    ``check`` reads it into its canonical form; ``input`` says how a form asks it."""

    menu: bool = False
    input: str | None = "text"  # "text" | "number"

    def check(self, value: Any) -> Any:
        if self.name == "seed":
            return _seed(value)
        return _cards(value)


def _seed(value: Any) -> int | None:
    if value is None:
        return None
    if not within(value, 0, MAX_SEED, whole=True):
        raise OptionError(f"seed {value!r}: a whole number from 0 to {MAX_SEED}", "seed")
    return int(value)


def _cards(value: Any) -> str:
    if isinstance(value, (list, tuple)) and all(isinstance(word, str) for word in value):
        value = ",".join(value)
    if not isinstance(value, str) or len(value) > MAX_CARDS * 7:
        raise OptionError(f"cards {_brief(value)}: give the cards as text, e.g. 'BYRYB,RRYBB', or a list of card words")
    try:
        cards = parse_cards(value)
    except ValueError as error:
        raise OptionError(f"cards {value!r}: {error}") from None
    if len(cards) > MAX_CARDS:
        raise OptionError(f"cards: {len(cards)} cards; a game takes at most {MAX_CARDS}")
    return cards_text(cards)


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


PLAYERS = Choice("players", (2, 3, 4), ("2 players", "3 players", "4 players"),
                 refusal="Pentago Triple is for 2 to 4 players")
TWO_COLOUR = Choice("two_colour", (False, True), ("three colours", "two-colour play (the cards' two colours only)"),
                    label="Colours")
MODE = Choice("mode", MODES, ("shared face-up cards: complete one to knock out the player before you",
                              "personal cards: one each, the first to build their own wins",
                              "bonus game: one card at a time, most cards wins"),
              refusal="the modes are 'shared', 'personal' and 'bonus'", label="Cards in play")
# What each level of the computer does at a Triple seat (controller.ai.triple): every level
# completes a card when it can and never hands one to the next player when a move avoids it.
LEVELS = (
    "beginner: completes a card when it can and never hands one over; otherwise a safe move, often at random",
    "easy: the safe move that builds most towards the cards",
    "normal: also looks for a move that forces the next player to hand it a card (about 1.5 s a move)",
    "strong: forces where it can and guards against being forced (about 6 s a move)",
)
CARDS = FreeChoice("cards", ("",), ("cards dealt from the shipped deck (or name them: BYRYB,RRYBB)",))
SEED = FreeChoice("seed", (None,), ("the deck shuffled by the time the game starts (or give a seed)",),
                  input="number", label="Shuffle (a seed)")


class TripleSpec(GameSpec):
    """Triple's spec: its mode page and its flags agree (see the module doc)."""

    def options(self, args: Mapping[str, Any], size: int | None = None) -> GameOptions:
        return super().options(with_mode(args), size)


def with_mode(args: Mapping[str, Any]) -> dict[str, Any]:
    """``args`` with the flags ``personal`` / ``bonus`` read as the mode (and dropped); they
    must be true or false and agree with a mode given too. OptionError otherwise."""
    out = dict(args)
    flags = []
    for name in ("personal", "bonus"):
        value = out.pop(name, False)
        if not isinstance(value, bool):
            raise OptionError(f"{name} {value!r} must be true or false")
        flags += [name] if value else []
    if len(flags) > 1:
        raise OptionError("mode: personal cards and the bonus game are two different games: choose one")
    if flags and out.setdefault("mode", flags[0]) != flags[0]:
        raise OptionError(f"mode {out['mode']!r} disagrees with {flags[0]}: true")
    return out


def make(spec: GameSpec, options: Mapping[str, Any], size: int, starter: int) -> TripleGame:
    """The rules object (the rules check the combination: cards per mode, two colours, ...)."""
    if size != 6:
        raise ValueError("Pentago Triple is played on the 6x6 board")
    mode = options["mode"]
    rules = TripleOptions(options["players"], parse_cards(options["cards"]), options["seed"] or 0,
                          options["two_colour"], mode == "personal", mode == "bonus")
    return TripleGame(rules, starter)


def colours(options: Mapping[str, Any], board: tuple[str, ...]) -> tuple[str, ...]:
    """Triple's marble colours by colour index, whatever the board's own are."""
    return MARBLES


SPEC = TripleSpec(
    name="triple",
    game=TripleGame,
    title="Pentago Triple",
    sizes=(6,),
    choices=(PLAYERS, TWO_COLOUR, MODE, CARDS, SEED, *computer_choices(PLAYERS.default, level_words=LEVELS)),
    flow=TripleFlow,
    explain=explain,
    is_idle_turn=is_idle_turn,
    next_colour=next_colour,
    scene=scene,
    colours=colours,
    rules=make,
    aliases=("personal", "bonus"),  # the CLI's flags, read as the mode
    computer=True,
    opponent="triple",
    lights=tuple((colour, f"on an empty hole in Pentago Triple: the computer's move or a hint, put a {colour} "
                          "marble here (blinking under a marble: lift that one first)") for colour in MARBLES),
)
