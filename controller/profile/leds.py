"""Reading a profile's LED chain: ``[leds]`` and its ``[[leds.chain]]`` segments in wiring
order (holes, block arrows, status and card pixels) into a :class:`~.model.LedChain`."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import NotationError, ProfileError, shown
from ..rules import Geometry, hole_name, parse_twist
from .model import (
    LED_DRIVER_PINS, LED_DRIVERS, MAX_COUNTED, MAX_PER_ARROW, NO_PIN, PATTERN_PIXELS, PER_CARD, LedChain, Pixel,
)
from .tables import Pins, Table, check_each_hole_once, read_hole

LED_KEYS = ("driver", "pin", "order", "brightness_cap", "current_budget_ma", "ma_per_channel",
            "chain")
SEGMENT_KEYS = ("holes", "start", "arrows", "per_arrow", "status", "cards", "per_card")


def read_leds(top: Table, g: Geometry, pins: Pins) -> LedChain:
    table = top.sub("leds", LED_KEYS)
    if table is None:
        raise top.error("leds", "missing section (every build has an LED chain, even virtual)")
    driver = table.choice("driver", LED_DRIVERS)
    pin = _led_pin(table, driver, pins)
    order = _colour_order(table)
    cap = _number(table, "brightness_cap", lambda x: 0 < x <= 1, "0 < cap <= 1")
    budget = table.get("current_budget_ma", int)
    if budget <= 0:
        raise table.error("current_budget_ma", f"{budget} is out of range (more than 0 mA)")
    per_channel = _number(table, "ma_per_channel", lambda x: 0 < x <= 100, "0 < mA <= 100")
    pixels = _read_chain(table, g)
    return LedChain(driver, pin, order, pixels, float(cap), budget, float(per_channel))


def _led_pin(table: Table, driver: str, pins: Pins) -> int:
    if driver == "virtual":
        return table.get("pin", int, NO_PIN)
    pin = pins.claim(table, "pin", table.get("pin", int))
    if pin not in LED_DRIVER_PINS[driver]:
        allowed = " or ".join(map(str, LED_DRIVER_PINS[driver]))
        raise table.error("pin", f"GPIO {pin} cannot drive NeoPixels with driver {driver!r} "
                          f"(use GPIO {allowed})")
    return pin


def _colour_order(table: Table) -> str:
    order = table.get("order", str)
    if sorted(order) not in (sorted("RGB"), sorted("RGBW")):
        raise table.error("order", f"{shown(order)} is not a colour order like 'GRB' or 'GRBW'")
    return order


def _number(table: Table, name: str, ok: Callable[[float], bool], allowed: str) -> float:
    value = table.get(name, float)
    if not ok(value):
        raise table.error(name, f"{value} is out of range ({allowed})")
    return value


def _read_chain(leds: Table, g: Geometry) -> tuple[Pixel, ...]:
    """The ``[[leds.chain]]`` segments in wiring order, as one pixel list."""
    pixels: list[Pixel] = []
    placed: list[tuple[str, int]] = []  # (key, hole) of every hole pixel, to check coverage
    for i, value in enumerate(leds.get("chain", list)):
        segment = leds.child(f"chain[{i}]", value, SEGMENT_KEYS)
        kind = _segment_kind(segment)
        if kind == "holes":
            keyed = _hole_segment(segment, g)
            placed += [(f"chain[{i}].{key}", hole) for key, hole in keyed]
            pixels += [Pixel("hole", hole=hole) for _, hole in keyed]
        elif kind == "arrows":
            pixels += _arrow_segment(segment, g, pixels)
        else:
            pixels += _counted_segment(segment, kind, pixels)
    check_each_hole_once(leds, "chain", placed, g)
    return tuple(pixels)


# A segment's main key, the keys that may go with it, and the kind of Pixel it makes.
SEGMENT_EXTRAS = {"holes": ("start",), "arrows": ("per_arrow",), "status": (), "cards": ("per_card",)}
COUNTED_KINDS = {"status": "status", "cards": "card"}


def _segment_kind(segment: Table) -> str:
    """The main key of a chain segment (holes, arrows, status or cards); refuses the keys that
    belong to another kind."""
    found = [key for key in SEGMENT_EXTRAS if key in segment.data]
    if len(found) != 1:
        raise ProfileError(
            f"{segment.source}: {segment.prefix.rstrip('.')}: a segment needs exactly one of "
            f"holes, arrows, status, cards (found {', '.join(found) or 'none'})"
        )
    for name in segment.data:
        if name != found[0] and name not in SEGMENT_EXTRAS[found[0]]:
            raise segment.error(name, f"does not go with {found[0]} (a {found[0]} segment "
                                f"takes {', '.join((found[0],) + SEGMENT_EXTRAS[found[0]])})")
    return found[0]


def _counted_segment(segment: Table, key: str, before: list[Pixel]) -> list[Pixel]:
    """``status = 4`` or ``cards = 3``: that many pixels, numbered on from earlier segments.
    ``cards = 3`` with ``per_card = 5`` is a card strip: three cards of five pixels each."""
    kind = COUNTED_KINDS[key]
    count = segment.get(key, int)
    if not 1 <= count <= MAX_COUNTED:
        unit = "cards" if key == "cards" else "pixels"
        raise segment.error(key, f"{count} is out of range (1-{MAX_COUNTED} {unit})")
    start = sum(1 for p in before if p.kind == kind)
    if kind == "status":
        return [Pixel(kind, index=start + n) for n in range(count)]
    per_card = segment.get("per_card", int, 1)
    if per_card not in PER_CARD:
        raise segment.error("per_card", f"{per_card} is neither 1 (one pixel per card: a match "
                            f"score) nor {PATTERN_PIXELS} (a pattern card's five marbles)")
    first = len({p.card for p in before if p.kind == kind})
    return [Pixel(kind, index=start + n, card=first + n // per_card)
            for n in range(count * per_card)]


def _hole_segment(segment: Table, g: Geometry) -> list[tuple[str, int]]:
    """``holes = "serpentine"`` (with an optional ``start`` corner) or a list of hole names."""
    value = segment.data["holes"]
    if value == "serpentine":
        names = _serpentine(segment, g)
    elif isinstance(value, str):
        raise segment.error("holes", f'{shown(value)} is neither "serpentine" nor a list of hole names')
    elif "start" in segment.data:
        raise segment.error("start", 'only goes with holes = "serpentine"')
    else:
        texts = segment.items("holes", str, segment.get("holes", list))
        names = [(f"holes[{i}]", text) for i, text in enumerate(texts)]
    return [(key, read_hole(segment, key, text, g)) for key, text in names]


def _serpentine(segment: Table, g: Geometry) -> list[tuple[str, str]]:
    """Every hole row by row from the ``start`` corner, each row the other way round."""
    corners = {hole_name(g.hole(c, r), g): (c, r) for c in (0, g.size - 1) for r in (0, g.size - 1)}
    start = segment.get("start", str, "a1")
    if start not in corners:
        raise segment.error("start", f"{shown(start)} is not a corner (one of {', '.join(corners)})")
    c0, r0 = corners[start]
    rows = range(g.size) if r0 == 0 else range(g.size - 1, -1, -1)
    names = []
    for n, row in enumerate(rows):
        columns = list(range(g.size)) if c0 == 0 else list(range(g.size - 1, -1, -1))
        for column in columns if n % 2 == 0 else columns[::-1]:
            names.append(("holes", hole_name(g.hole(column, row), g)))
    return names


def _arrow_segment(segment: Table, g: Geometry, before: list[Pixel]) -> list[Pixel]:
    texts = segment.items("arrows", str, segment.get("arrows", list))
    per_arrow = segment.get("per_arrow", int)
    if not 1 <= per_arrow <= MAX_PER_ARROW:
        raise segment.error("per_arrow", f"{per_arrow} is out of range (1-{MAX_PER_ARROW} pixels)")
    done = {(p.block, p.clockwise) for p in before if p.kind == "arrow"}
    pixels = []
    for i, text in enumerate(texts):
        try:
            twist = parse_twist(text, g)
        except NotationError as exc:
            raise segment.error(f"arrows[{i}]", str(exc)) from None
        if (twist.block, twist.clockwise) in done:
            raise segment.error(f"arrows[{i}]", f"the arrow {twist} has pixels already")
        done.add((twist.block, twist.clockwise))
        pixels += [Pixel("arrow", block=twist.block, clockwise=twist.clockwise)] * per_arrow
    return pixels
