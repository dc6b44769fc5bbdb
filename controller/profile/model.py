"""The profile's model: one build's board size, sensing, driver, pins and LED chain, as frozen
values, and the words a profile may use (read from TOML by :mod:`.read`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import Geometry, geometry

SIZES = (6, 9)
SENSINGS = ("presence", "polarity", "colour")
# Sensing kinds a real driver can have; "colour" (every marble colour told apart) is the virtual
# board's: no sensor of a real build tells more than two colours apart reliably.
REAL_SENSINGS = ("presence", "polarity")
DRIVERS = ("gpio", "mcu", "virtual")
LED_DRIVERS = ("spi", "pwm", "virtual")
HEADER_PINS = range(28)  # BCM GPIO 0-27 are the ones brought out on the 40-pin header
LED_DRIVER_PINS = {"spi": (10,), "pwm": (12, 13, 18, 19)}  # SPI0 MOSI; the PWM-capable pins
POLES = ("north", "south")
MAX_PER_ARROW = 8  # pixels per block arrow
MAX_COUNTED = 16  # status pixels, cards
PATTERN_PIXELS = 5  # a pattern card (Pentago Triple) is a row of five marbles
PER_CARD = (1, PATTERN_PIXELS)  # pixels per card: a score pixel, or a pattern card's five
COLOUR_METHODS = ("sensed", "confirm")
COLOUR_BUTTONS = {"cycle": "back", "confirm": "ok"}  # [colour_input] button keys and defaults
SIM_BUTTONS = ("ok", "back")  # the simulator's own buttons, for a virtual board without [buttons]
GESTURES = {"hint": "ok"}  # [gestures]: what a button pressed during a game asks for, and the default button
NO_PIN = -1  # the LED pin of a virtual chain


@dataclass(frozen=True)
class GpioPins:
    """Sensors and encoders wired straight to the Pi (build A).

    Reed switches sit in a diode matrix: each row pin is driven low in turn while the column pins
    (pulled up) are read; a closed switch pulls its column low through its diode (cathode towards
    the row), and the diodes stop ghosting when several switches are closed.
    """

    matrix_rows: tuple[int, ...]  # BCM pins driven, one per matrix row
    matrix_columns: tuple[int, ...]  # BCM pins read, one per matrix column
    matrix_holes: tuple[int, ...]  # hole at each crossing, row-major: r * len(columns) + c
    encoders: tuple[tuple[int, int], ...]  # (pin A, pin B) per block, blocks 1..n in order


@dataclass(frozen=True)
class McuLink:
    """The microcontroller on USB serial (build B): the udev name of its port and the baud."""

    port: str
    baud: int


@dataclass(frozen=True)
class Pixel:
    """One NeoPixel: lights a hole, part of a block's arrow, a status pixel or a card pixel."""

    kind: str  # "hole" | "arrow" | "status" | "card"
    hole: int | None = None
    block: int | None = None
    clockwise: bool | None = None
    index: int | None = None  # position among the status (or card) pixels, from 0
    card: int | None = None  # a card pixel's card, from 0 (one pixel per card unless per_card)


@dataclass(frozen=True)
class LedChain:
    """The NeoPixel chain in wiring order, with lookups from what to light to chain indices.

    Arrow pixels are listed in animation order: the strip segment of an arrow is laid so that
    chain order runs the way the block turns.

    Card pixels come in ``card_slots``, one tuple of chain indices per card. A card strip
    (``cards = 3`` with ``per_card = 5``) shows a pattern card as five pixels, laid left to right
    as the players see them; ``pattern_slots`` is that strip, or () when the chain has only one
    pixel per card (a match score), and the pattern cards then fall back to the bottom row's
    hole pixels (see :mod:`controller.lights.render`).
    """

    driver: str  # "spi" | "pwm" | "virtual"
    pin: int  # BCM data pin: 10 for SPI MOSI, 18 for PWM; NO_PIN for a virtual chain
    order: str  # colour order of the pixels, e.g. "GRB"
    pixels: tuple[Pixel, ...]
    brightness_cap: float  # 0 < cap <= 1, applied by the pixel output to every frame
    current_budget_ma: int  # the output scales a frame down when it would draw more
    ma_per_channel: float  # full-scale current of one colour channel (20 mA for WS2812B)
    hole_pixel: dict[int, int] = field(init=False, repr=False, compare=False)
    arrow_pixels: dict[tuple[int, bool], tuple[int, ...]] = field(
        init=False, repr=False, compare=False
    )
    status_pixels: tuple[int, ...] = field(init=False, repr=False, compare=False)
    card_pixels: tuple[int, ...] = field(init=False, repr=False, compare=False)
    card_slots: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:  # the lookups of a frozen value
            object.__setattr__(self, name, value)

        put("hole_pixel", {p.hole: i for i, p in enumerate(self.pixels) if p.kind == "hole"})
        arrows: dict[tuple[int, bool], tuple[int, ...]] = {}
        for i, p in enumerate(self.pixels):
            if p.kind == "arrow" and p.block is not None and p.clockwise is not None:
                key = (p.block, p.clockwise)
                arrows[key] = arrows.get(key, ()) + (i,)
        put("arrow_pixels", arrows)
        put("status_pixels", self._indices("status"))
        put("card_pixels", self._indices("card"))
        slots: dict[int, tuple[int, ...]] = {}
        for i in self.card_pixels:
            card = self.pixels[i].card
            slot = (self.pixels[i].index or 0) if card is None else card  # the reader gives each an index
            slots[slot] = slots.get(slot, ()) + (i,)
        put("card_slots", tuple(slots[k] for k in sorted(slots)))

    @property
    def pattern_slots(self) -> tuple[tuple[int, ...], ...]:
        """The card strip: five chain indices per card, or () when the chain has none."""
        if self.card_slots and all(len(s) == PATTERN_PIXELS for s in self.card_slots):
            return self.card_slots
        return ()

    @property
    def length(self) -> int:
        """The number of pixels in the chain."""
        return len(self.pixels)

    def full_current_ma(self) -> float:
        """The LED current with every channel of every pixel full on, no cap (what a frame past
        the pixel output could ask for)."""
        return self.length * len(self.order) * self.ma_per_channel

    def _indices(self, kind: str) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.pixels) if p.kind == kind)


@dataclass(frozen=True)
class ColourInput:
    """How the board learns the colour of a new marble when the player chooses it (Pentago
    Triple: any colour still in the box), from ``[colour_input]``.

    ``method`` is "sensed" (the sensors read every colour: the virtual board only) or "confirm":
    after a placement the hole's pixel blinks in the colour the board assumes (a polarity board:
    what it sensed; a presence board: the flow's guess), the ``cycle`` button steps it to the
    next colour until it is right and the ``confirm`` button accepts it. ``cycle`` and
    ``confirm`` name buttons of the profile's ``[buttons]`` (the simulator's ok and back on a
    virtual board without that table); both are None with "sensed".

    >>> ask = ColourInput("confirm", "back", "ok")
    >>> ask.cycle_order(("blue", "yellow", "red"), "yellow")
    ('yellow', 'red', 'blue')
    >>> ask.next_colour(("blue", "yellow", "red"), "red")
    'blue'
    """

    method: str = "confirm"  # "sensed" | "confirm"
    cycle: str | None = COLOUR_BUTTONS["cycle"]  # button that steps to the next colour
    confirm: str | None = COLOUR_BUTTONS["confirm"]  # button that accepts the colour shown

    def cycle_order(self, colours: tuple[str, ...], assumed: str) -> tuple[str, ...]:
        """The colours in the order presses of ``cycle`` show them, ``assumed`` first, then on
        in the game's order (``colours``), wrapping. ValueError if ``assumed`` is not one."""
        n = colours.index(assumed)
        return colours[n:] + colours[:n]

    def next_colour(self, colours: tuple[str, ...], current: str) -> str:
        """The colour one press of ``cycle`` shows after ``current``."""
        return self.cycle_order(colours, current)[1 % len(colours)]


@dataclass(frozen=True)
class Gestures:
    """What buttons pressed during a game ask for, from ``[gestures]``: ``hint`` names the
    button that asks the computer for the best move of the player to move ("ok" by default:
    ok does nothing else while a game is played; "" for no hint button). It may not be the
    back button, which takes back the last move."""

    hint: str | None = GESTURES["hint"]


@dataclass(frozen=True)
class Profile:
    """One hardware build: what the board is, how it senses, and how it is wired."""

    name: str
    size: int  # 6 or 9
    sensing: str  # "presence" (reed / digital Hall) | "polarity" (linear Hall, two colours)
    #               | "colour" (the virtual board only: every marble colour)
    driver: str  # "gpio" | "mcu" | "virtual"
    detents_per_quarter: int  # encoder steps for a quarter turn of a block
    colours: dict[str, str]  # polarity only: {"north": "white", "south": "black"}
    buttons: dict[str, int]  # button name -> BCM pin; "ok" and "back" on real builds
    gpio: GpioPins | None
    mcu: McuLink | None
    leds: LedChain
    description: str = ""
    colour_input: ColourInput = ColourInput()
    gestures: Gestures = Gestures()

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size)

    def tells_apart(self, colours: tuple[str, ...]) -> bool:
        """Whether the sensors alone tell every one of ``colours`` apart (then a placement needs
        no confirmation): colour sensing always, polarity sensing when they are among its two
        pole colours, presence sensing only for a single colour."""
        if self.sensing == "colour":
            return True
        if self.sensing == "polarity":
            return set(colours) <= set(self.colours.values())
        return len(set(colours)) <= 1

    def assumed_colour(self, reading: str, colours: tuple[str, ...], fallback: str) -> str:
        """The colour the board assumes for a new marble of one of ``colours``, from the hole's
        ``reading`` (a colour name, or "marble" for presence sensing): the reading itself when
        it is one of ``colours``; on a polarity board a pole's colour stands for the game colour
        at the pole's place (north the first, south the second: fit Triple's blue marbles with
        the north pole up and yellow with the south; red marbles read as either and are cycled
        to); else ``fallback`` (the flow's guess, e.g. the colour this seat played last).

        >>> from controller.profile import load_profile
        >>> p = load_profile("B-6x6")
        >>> p.assumed_colour("black", ("blue", "yellow", "red"), "red")
        'yellow'
        >>> load_profile("A-6x6").assumed_colour("marble", ("blue", "yellow", "red"), "red")
        'red'
        """
        if reading in colours:
            return reading
        poles = [self.colours.get(pole) for pole in POLES]
        if reading in poles and poles.index(reading) < len(colours):
            return colours[poles.index(reading)]
        return fallback
