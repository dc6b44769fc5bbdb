"""Pentago Triple's pattern cards: the card value, finding its pattern on a board, and the deck.

A card shows five marbles in Triple's colours, written as five letters: ``B`` blue (colour 0),
``Y`` yellow (1), ``R`` red (2), e.g. ``BYRYB``. Its pattern stands on the board when five holes
in a straight line (row, column or diagonal) hold exactly those colours in order, read either
way, so ``RRYBB`` and ``BBYRR`` are the same card. Finding a pattern is one AND and one compare
per colour plane and line: every line of five is precomputed, per card, as the mask each colour
must fill (:func:`occurrences`).

The deck ships as a data file (``data/triple-deck.txt``, one card a line, ``#`` comments); a user
can play with another file (:func:`load_deck` takes a path and names the line of any problem).

>>> card = Card.parse("byryb")
>>> card, str(card), card.colours_used
(Card.parse('BYRYB'), 'BYRYB', (0, 1, 2))
>>> Card.parse("RRYBB") == Card.parse("BBYRR").reversed()
True
>>> Card.parse("BYRX")
Traceback (most recent call last):
...
controller.rules.errors.NotationError: 'BYRX' is not a card: write five colour letters B, Y or R, e.g. BYRYB
>>> len(load_deck()), load_deck()[0]
(20, Card.parse('BYBYB'))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ..errors import NotationError
from ..geometry import Geometry, geometry  # noqa: F401 (geometry: the examples use it)
from ..position import Position

COLOUR_LETTERS = "BYR"  # Triple's colour indices: 0 blue, 1 yellow, 2 red
COLOUR_NAMES = ("blue", "yellow", "red")
LENGTH = 5
DECK_FILE = "triple-deck.txt"


@dataclass(frozen=True, order=True)
class Card:
    """One pattern card: five colour indices in the order the card shows them."""

    colours: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.colours) != LENGTH or any(c not in (0, 1, 2) for c in self.colours):
            raise ValueError(f"a card is five colours 0-2, not {self.colours!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written ``text`` (five letters of B, Y, R; any case)."""
        word = text.strip().upper()
        if len(word) != LENGTH or any(c not in COLOUR_LETTERS for c in word):
            raise NotationError(
                f"{text.strip()!r} is not a card: write five colour letters B, Y or R, e.g. BYRYB"
            )
        return cls(tuple(COLOUR_LETTERS.index(c) for c in word))

    def __str__(self) -> str:
        return "".join(COLOUR_LETTERS[c] for c in self.colours)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def reversed(self) -> Card:
        return Card(self.colours[::-1])

    def is_same_pattern(self, other: Card) -> bool:
        """True if ``other`` is this card, or this card read backwards."""
        return other == self or other == self.reversed()

    @property
    def colours_used(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.colours)))

    def occurrences(self, position: Position) -> list[tuple[int, ...]]:
        """Where the pattern stands on ``position``: each as its holes in the card's order."""
        return occurrences(self, position)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards from a comma-separated list, as ``--cards`` and record options write them.

    >>> parse_cards("BYRYB, rrybb")
    (Card.parse('BYRYB'), Card.parse('RRYBB'))
    """
    return tuple(Card.parse(word) for word in text.split(",") if word.strip())


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    """The canonical comma-separated list (the inverse of :func:`parse_cards`)."""
    return ",".join(map(str, cards))


# -- finding patterns ---------------------------------------------------------------------------

Template = tuple[int, tuple[int, ...], tuple[int, ...]]  # line mask, mask per colour, holes in card order


@cache
def templates(card: Card, g: Geometry) -> tuple[Template, ...]:
    """Every placement of ``card``'s pattern on ``g``'s lines, both ways (a palindrome once)."""
    out: list[Template] = []
    readings = {card.colours, card.colours[::-1]}
    for holes in g.line_holes:
        for reading in sorted(readings):
            masks = [0, 0, 0]
            for hole, colour in zip(holes, reading):
                masks[colour] |= 1 << hole
            in_card_order = holes if reading == card.colours else holes[::-1]
            out.append((sum(1 << h for h in holes), tuple(masks), in_card_order))
    return tuple(out)


@cache
def templates_through(card: Card, g: Geometry, hole: int) -> tuple[Template, ...]:
    """The templates of ``card`` whose line passes through ``hole``."""
    return tuple(t for t in templates(card, g) if t[0] >> hole & 1)


def occurrences(card: Card, position: Position, through: int | None = None) -> list[tuple[int, ...]]:
    """Where ``card``'s pattern stands on ``position`` (3 colour planes), holes in card order;
    only those through the hole ``through`` when given.

    >>> g = geometry(6)
    >>> p = Position.empty(6, colours=3)
    >>> for column, colour in enumerate((2, 1, 0, 1, 2)):  # RYBYR along row 6 from a6
    ...     p = p.place(g.hole(column, 5), colour)
    >>> [len(holes) for holes in occurrences(Card.parse("RYBYR"), p)]
    [5]
    """
    stones, g = position.stones, position.geometry
    found = []
    for line, masks, holes in templates(card, g) if through is None else templates_through(card, g, through):
        if all(stones[c] & line == masks[c] for c in range(3)):
            found.append(holes)
    return found


# -- the deck -----------------------------------------------------------------------------------

def parse_deck(text: str, source: str = "deck") -> tuple[Card, ...]:
    """The cards of a deck file's ``text``; NotationError naming ``source`` and the line.

    >>> parse_deck("BYRYB\\n# a comment\\nBYRYQ", "my-deck.txt")
    Traceback (most recent call last):
    ...
    controller.rules.errors.NotationError: my-deck.txt line 3: 'BYRYQ' is not a card: write five colour letters B, Y or R, e.g. BYRYB
    >>> parse_deck("RRYBB\\nBBYRR", "my-deck.txt")
    Traceback (most recent call last):
    ...
    controller.rules.errors.NotationError: my-deck.txt line 2: BBYRR is RRYBB (line 1) read backwards; cards must differ
    """
    cards: list[Card] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        try:
            card = Card.parse(word)
        except NotationError as error:
            raise NotationError(f"{source} line {number}: {error}") from None
        for seen, at in zip(cards, lines):
            if card == seen:
                raise NotationError(f"{source} line {number}: {card} is already on line {at}; cards must differ")
            if card == seen.reversed():
                raise NotationError(
                    f"{source} line {number}: {card} is {seen} (line {at}) read backwards; cards must differ"
                )
        cards.append(card)
        lines.append(number)
    if not cards:
        raise NotationError(f"{source}: no cards (one card a line, e.g. BYRYB)")
    return tuple(cards)


def load_deck(path: str | Path | None = None) -> tuple[Card, ...]:
    """The deck in the file at ``path``, or the shipped deck; errors name the file and line.

    Raises :class:`NotationError` for a bad card and OSError if the file cannot be read.
    """
    if path is None:
        text = resources.files(__name__.rpartition(".")[0]).joinpath("data", DECK_FILE).read_text(encoding="utf-8")
        return parse_deck(text, DECK_FILE)
    file = Path(path)
    return parse_deck(file.read_text(encoding="utf-8"), file.name)


def shuffled(cards: tuple[Card, ...], seed: int) -> tuple[Card, ...]:
    """``cards`` in the order a shuffle with ``seed`` gives (the same on every machine).

    >>> shuffled(load_deck(), 0) == shuffled(load_deck(), 0) != load_deck()
    True
    """
    order = list(cards)
    random.Random(seed).shuffle(order)
    return tuple(order)
