"""Marble and seat colours by name: how each lights a NeoPixel and how it looks on screen.

The lowest layer that names colours: the profile reads a polarity board's colours from here,
the lights build their palette on it, the games take their seat colours from it and the web
page draws marbles with it. Names say how a colour *looks*, except the classic marbles' own
names: a black marble cannot glow black (black light is no light), so it glows violet, and
every place that shows it says so.

The four seat colours of the family (:data:`SEAT_COLOURS`) are told apart at a glance on
NeoPixels: white, violet (the black marble), red and green sit far apart in hue and brightness.

>>> SEAT_COLOURS
('white', 'black', 'red', 'green')
>>> light_name("black"), light_name("red")
('violet', 'red')
>>> seat_colours(("white", "black"), 3)
('white', 'black', 'red')
"""

from __future__ import annotations

RGB = tuple[int, int, int]

# Each marble colour: (its LED's RGB at full scale, how that light looks, its fill on screen).
MARBLES: dict[str, tuple[RGB, str, str]] = {
    "white": ((255, 255, 255), "white", "#f4f1ea"),
    "black": ((90, 0, 160), "violet", "#1b1b1f"),  # black light is no light: black glows violet
    "blue": ((0, 60, 255), "blue", "#2f6fe0"),
    "yellow": ((255, 170, 0), "yellow", "#f2c230"),
    "red": ((255, 0, 0), "red", "#d33a2c"),
    "green": ((0, 200, 40), "green", "#2e9b4f"),
    "magenta": ((255, 0, 200), "magenta", "#c23fb0"),  # a seat colour only: far from Triple's marbles
}
MARBLE_COLOURS = tuple(MARBLES)

# Pentago Triple's marble colours, by the letter a pattern card (``BYRYB``) writes them with.
CARD_LETTERS = {"B": "blue", "Y": "yellow", "R": "red"}

# The seats' colours, seat 1 first: the classic pair, then two more far from both in hue.
SEAT_COLOURS = ("white", "black", "red", "green")
# Seats of a game whose marbles are not the seats' (Pentago Triple: blue, yellow, red marbles):
# status colours that no marble of the game wears, so a turn light never reads as "play blue".
STATUS_COLOURS = ("white", "black", "green", "magenta", "red", "blue", "yellow")


def marble_rgb(name: str) -> RGB:
    """The full-scale RGB a marble colour lights its pixels with; KeyError for an unknown name."""
    return MARBLES[name][0]


def light_name(name: str) -> str:
    """How the LED of marble colour ``name`` looks, in a word (the black marble's is violet)."""
    return MARBLES[name][1] if name in MARBLES else name


def screen_fill(name: str) -> str:
    """The CSS colour a screen draws a ``name`` marble with."""
    return MARBLES[name][2] if name in MARBLES else name


def card_colours(card: str) -> tuple[str, ...]:
    """The marble colours of a pattern card written in letters, in order; ValueError names a
    letter that is not B, Y or R.

    >>> card_colours("BYRyb")
    ('blue', 'yellow', 'red', 'yellow', 'blue')
    """
    out = []
    for letter in card.upper():
        if letter not in CARD_LETTERS:
            raise ValueError(f"{card!r}: {letter!r} is not a card colour "
                             f"({', '.join(f'{k} {v}' for k, v in CARD_LETTERS.items())})")
        out.append(CARD_LETTERS[letter])
    return tuple(out)


def status_colours(marbles: tuple[str, ...], seats: int) -> tuple[str, ...]:
    """``seats`` status colours for a game where players choose among ``marbles``: none of them
    a marble colour of the game, told apart at a glance.

    >>> status_colours(("blue", "yellow", "red"), 4)
    ('white', 'black', 'green', 'magenta')
    """
    return tuple(c for c in STATUS_COLOURS if c not in marbles)[:seats]


def seat_colours(first: tuple[str, ...], seats: int) -> tuple[str, ...]:
    """``seats`` colours: the board's own (``first``, e.g. a polarity board's two) then the
    other seat colours in order, never one twice."""
    rest = tuple(c for c in SEAT_COLOURS if c not in first)
    return (first + rest)[:seats]
