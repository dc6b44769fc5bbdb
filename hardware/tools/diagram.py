"""The wiring diagram of a build as SVG: the board seen from above and the headers it uses.

Each hole shows its name, its LED chain index and its sensor (matrix crossing on build A, mux
channel on build B); an orange line follows the LED chain from its data input. Blocks are
outlined with their encoder pins. On the right, the Pi header (and the Pico on build B) with every
used pin coloured by role and labelled. Deterministic output, so the committed file can be
compared with a fresh one.
"""

from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape

import pinout
from controller.profile import Profile
from controller.rules import hole_name

CELL = 64  # px per hole
GAP = 32  # px between blocks, where the block labels go (two lines)
MARGIN = 30
TOP = 70  # room for the title
PIN_PITCH = 22
LABEL_WIDTH = 250
ROLE_COLOURS = (  # first word(s) of a signal -> colour
    ("matrix row", "#c0392b"), ("matrix column", "#2471a3"), ("encoder", "#1e8449"),
    ("button", "#7d3c98"), ("NeoPixel", "#d35400"), ("mux", "#138d75"), ("ADC", "#9a7d0a"),
)
POWER_COLOUR = "#555555"


def svg(profile: Profile, config: dict | None) -> str:
    board = _board(profile, config)
    board_px = _board_px(profile)
    x = MARGIN + board_px + 2 * MARGIN
    parts = [_header(x, TOP, "Raspberry Pi 40-pin header (BCM)", pinout.PI_HEADER,
                     pinout.pi_pins(profile), _pi_position)]
    height = TOP + 20 * PIN_PITCH + 60
    if config is not None:
        y = height + 20
        parts.append(_header(x, y, "Raspberry Pi Pico", pinout.PICO_HEADER,
                             pinout.pico_pins(profile, config), _pico_position))
        height = y + 20 * PIN_PITCH + 60
    width = x + 2 * LABEL_WIDTH + 80
    height = max(height, TOP + board_px + 100)
    title = f"{profile.name}: {profile.description}"
    board += "\n" + _legend(profile, TOP + board_px + 40)
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        _text(MARGIN, 35, title, size=20, weight="bold"),
        _text(MARGIN, 55, "Generated from hardware/profiles/" + profile.name
              + ".toml by hardware/tools/wiring.py", size=12, fill="#666"),
        board, *parts, "</svg>",
    ]) + "\n"


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "start",
          fill: str = "#000", weight: str = "normal") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}" font-weight="{weight}">{escape(text)}</text>')


def _centre(profile: Profile, hole: int) -> tuple[int, int]:
    """Pixel centre of a hole: column a on the left, row 1 at the bottom."""
    column, row = profile.geometry.column_row(hole)
    down = profile.size - 1 - row
    return (MARGIN + GAP + column * CELL + column // 3 * GAP + CELL // 2,
            TOP + GAP + down * CELL + down // 3 * GAP + CELL // 2)


def _board_px(profile: Profile) -> int:
    """Width (and height) of the drawn board: holes, and a gap around every block."""
    return profile.size * CELL + (profile.size // 3 + 1) * GAP


def _board(profile: Profile, config: dict | None) -> str:
    g = profile.geometry
    sensor = _sensor_labels(profile, config)
    side = _board_px(profile)
    out = [f'<rect x="{MARGIN}" y="{TOP}" width="{side}" height="{side}" '
           'fill="#f6efe2" stroke="#000"/>']
    out.append(_chain_path(profile))  # under the block labels, so they stay readable
    out += _blocks(profile, config)
    for hole in range(g.hole_count):
        x, y = _centre(profile, hole)
        out += [
            f'<circle cx="{x}" cy="{y}" r="{CELL // 2 - 6}" fill="white" stroke="#999"/>',
            _text(x, y - 8, hole_name(hole, g), size=12, anchor="middle", weight="bold"),
            _text(x, y + 5, f"LED {profile.leds.hole_pixel[hole]}", size=10, anchor="middle",
                  fill="#d35400"),
            _text(x, y + 17, sensor[hole], size=10, anchor="middle", fill="#2471a3"),
        ]
    return "\n".join(out)


def _sensor_labels(profile: Profile, config: dict | None) -> dict[int, str]:
    if profile.gpio is not None:
        width = len(profile.gpio.matrix_columns)
        return {hole: f"R{i // width + 1} C{i % width + 1}"
                for i, hole in enumerate(profile.gpio.matrix_holes)}
    if config is not None:
        return {w.hole: f"U{w.mux}.{w.channel}" for w in pinout.sensor_wires(config)}
    return {hole: "" for hole in range(profile.geometry.hole_count)}


def _blocks(profile: Profile, config: dict | None) -> list[str]:
    g = profile.geometry
    if profile.gpio is not None:
        encoders = [f"GPIO{a}/{b}" for a, b in profile.gpio.encoders]
    else:
        encoders = [f"GP{a}/{b}" for a, b in (config or {}).get("encoders", [])]
    out = []
    for block, holes in enumerate(g.block_holes, start=1):
        x, y = _centre(profile, holes[0])
        left, top = x - CELL // 2, y - CELL // 2
        out.append(f'<rect x="{left}" y="{top}" width="{3 * CELL}" height="{3 * CELL}" '
                   'fill="none" stroke="#000" stroke-width="3"/>')
        label = f"block {block}" + (f" enc {encoders[block - 1]}" if encoders else "")
        out.append(_text(left + 2, top - 18, label, size=11, fill="#1e8449", weight="bold"))
        out.append(_text(left + 2, top - 5, "arrows " + _arrow_label(profile, block), size=10,
                         fill="#d35400"))
    return out


def _span(indices: tuple[int, ...]) -> str:
    return f"{indices[0]}-{indices[-1]}" if len(indices) > 1 else str(indices[0])


def _arrow_label(profile: Profile, block: int) -> str:
    """The chain indices of a block's two arrows, e.g. ``R 36-38 L 39-41``."""
    arrows = profile.leds.arrow_pixels
    return " ".join(f"{d} {_span(arrows[(block, cw)])}"
                    for d, cw in (("R", True), ("L", False)) if (block, cw) in arrows)


def _legend(profile: Profile, y: int) -> str:
    """A few lines under the board, wrapped to its width (about 6 px per character)."""
    leds = profile.leds
    parts = [f"{name} LEDs {_span(indices)}" for name, indices in
             (("status", leds.status_pixels), ("card", leds.card_pixels)) if indices]
    pixels = ", ".join(parts)
    text = ("Orange line: the LED chain through the holes. Above each block: its encoder pins "
            "and the chain indices of its arrows (R clockwise, L counter-clockwise). "
            f"{pixels[:1].upper()}{pixels[1:]}.")
    lines = textwrap.wrap(text, _board_px(profile) // 6)
    return "\n".join(_text(MARGIN, y + 15 * i, line, size=11, fill="#333")
                     for i, line in enumerate(lines))


def _chain_path(profile: Profile) -> str:
    order = sorted(profile.leds.hole_pixel, key=profile.leds.hole_pixel.__getitem__)
    points = " ".join("{},{}".format(*_centre(profile, hole)) for hole in order)
    x, y = _centre(profile, order[0])
    return "\n".join([
        f'<polyline points="{points}" fill="none" stroke="#f5b041" stroke-width="4" '
        'stroke-linejoin="round"/>',
        _text(x - CELL // 2, y + CELL // 2 + 14, "DIN: LED data in", size=11,
              fill="#d35400", weight="bold"),
    ])


def _role_colour(signal: str) -> str:
    for start, colour in ROLE_COLOURS:
        if signal.startswith(start):
            return colour
    return POWER_COLOUR


def _pi_position(pin: int) -> tuple[int, int]:
    """(column, row) on the Pi header: odd pins on the left, pin 1 at the top."""
    return (pin + 1) % 2, (pin - 1) // 2


def _pico_position(pin: int) -> tuple[int, int]:
    """(column, row) on the Pico seen from above, USB at the top: 1-20 down the left side,
    21-40 up the right side."""
    return (0, pin - 1) if pin <= 20 else (1, 40 - pin)


def _header(x: int, y: int, title: str, header: dict[int, int | str],
            uses: list[pinout.PinUse], position) -> str:
    used = {use.physical: use for use in uses}
    left = x + LABEL_WIDTH
    out = [_text(left + PIN_PITCH // 2, y - 8, title, size=13, anchor="middle", weight="bold"),
           f'<rect x="{left - 12}" y="{y}" width="{PIN_PITCH + 24}" '
           f'height="{20 * PIN_PITCH + 8}" fill="#eee" stroke="#888"/>']
    for pin, name in header.items():
        column, row = position(pin)
        cx, cy = left + column * PIN_PITCH, y + 15 + row * PIN_PITCH
        use = used.get(pin)
        colour = _role_colour(use.signal) if use else "#fff"
        out.append(f'<circle cx="{cx}" cy="{cy}" r="7" fill="{colour}" stroke="#333"/>')
        if use is not None:
            tx = cx - 14 if column == 0 else cx + 14
            anchor = "end" if column == 0 else "start"
            out.append(_text(tx, cy + 4, f"{pin} {use.name}: {use.signal}", size=10,
                             anchor=anchor, fill=colour))
    return "\n".join(out)
