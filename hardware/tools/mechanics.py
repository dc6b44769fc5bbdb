"""The mechanical build of a board, dimensioned, from its profile: a drawing (SVG) and a cut list.

The profile gives what the mechanics must fit: the board's size and blocks, the sensing (reed
switches or Hall sensors under the holes), the LED chain (a pixel under every hole) and the
encoders' detents per quarter turn, from which the coupling's ratio follows. The dimensions
below are this design's choices (a classic Pentago board's proportions, 16 mm marbles); change
one here and ``python hardware/tools/wiring.py`` redraws every build.

How it works, in one paragraph. Each block is a square plate turning about its centre hole on a
fixed hollow axle. A quarter turn maps the 3x3 grid of holes onto itself, so the sensors and
LEDs never move: they sit on a fixed circuit board under the blocks, one LED under the centre of
every hole position (shining up through the hole) with its sensor straight below it on the
board's back, where the marble's magnet is above it whichever hole of the block is there. The
centre position's LED and sensor sit inside the hollow axle. The block's bushing reaches down
through the board to a toothed pulley; a belt under the board turns the encoder's pulley, so
belts and encoders never cross a light or a sensor. The encoder's detents hold the block: a
quarter turn is the profile's ``detents_per_quarter`` detents.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import escape

from controller.profile import Profile

# The design's dimensions, mm.
PITCH = 30.0  # between hole centres
MARBLE = 16.0  # marble diameter
SEAT = 12.0  # the hole in the top plate the marble sits in
CLEAR = 14.0  # the hole under it in the lower plate (light and field pass)
RIM = 5.0  # block plate beyond the outer hole centres' half-pitch
GAP = 4.0  # between blocks
FRAME = 40.0  # the border round the blocks: the frame strips, and the status and card pixels in front
STRIP = 18.0  # the frame strips' thickness
TOP_PLATE, LOWER_PLATE, BASE_PLATE, COVER = 3.0, 6.0, 6.0, 3.0  # thicknesses
PTFE = 0.5  # the slide sheet under each block
BELT_LAYER = 14.0  # base plate top to the circuit board's underside: pulleys, belts, encoders
PCB = 1.6
LED_HEIGHT = 1.6  # a 5050 NeoPixel
AXLE_OD, AXLE_ID = 12.0, 10.0  # brass tube, fixed in the base
BUSHING_OD = 16.0  # flanged bronze sleeve, 12 mm bore, turning with the block
MAGNET = (4.0, 2.0)  # the marble's disc magnet: diameter, thickness
ENCODER_DETENTS = 24  # Bourns PEC11R-4220F-S0024: detents per turn of its shaft
BLOCK_PULLEY_TEETH = 36  # GT2, on the block's bushing
GT2_PITCH = 2.0
BELT_ANGLE = 22.5  # degrees off a block's axes: the belt runs between the edge and corner positions
BELTS = tuple(range(100, 402, 2))  # GT2 closed belts come in even tooth counts


@dataclass(frozen=True)
class Layout:
    """Every dimension the drawing and the cut list show, for one profile."""

    size: int
    blocks_per_side: int
    block: float  # a block plate's side
    board: float  # the base plate's side
    ratio: float  # encoder turns per block turn
    encoder_teeth: int
    belt_teeth: int
    centres: float  # block axle to encoder shaft
    detent_deg: float  # the block's turn per encoder detent
    magnet_to_sensor: float  # the marble's magnet centre to its sensor, vertically
    sensor: str


def stack() -> dict[str, float]:
    """The layers from the base plate's top (0) upwards: where each starts, and the playing surface."""
    pcb = BELT_LAYER
    cover = pcb + PCB + LED_HEIGHT + 0.4
    block = cover + COVER + PTFE
    return {"pcb": pcb, "cover": cover, "block": block, "top": block + LOWER_PLATE,
            "surface": block + LOWER_PLATE + TOP_PLATE}


def layout(profile: Profile) -> Layout:
    """The dimensions of ``profile``'s build (ValueError if its detents need a ratio no pair of
    GT2 pulleys gives)."""
    g = profile.geometry
    per_side = g.size // 3
    block = 3 * PITCH + 2 * RIM
    board = per_side * block + (per_side - 1) * GAP + 2 * FRAME
    ratio = 4 * profile.detents_per_quarter / ENCODER_DETENTS
    encoder_teeth = BLOCK_PULLEY_TEETH / ratio
    if encoder_teeth != int(encoder_teeth) or encoder_teeth < 12:
        raise ValueError(f"{profile.name}: {profile.detents_per_quarter} detents per quarter needs a {ratio:g}:1 "
                         f"coupling, which a {BLOCK_PULLEY_TEETH}-tooth pulley cannot make with a whole one")
    teeth, centres = _belt(BLOCK_PULLEY_TEETH, int(encoder_teeth), block / 2 + 14)
    marble_bottom = stack()["surface"] - _sag()
    sensor_z = BELT_LAYER - 1.0  # on the board's back, half a TO-92 / SMD reed below it
    return Layout(g.size, per_side, block, board, ratio, int(encoder_teeth), teeth, centres,
                  360 / (4 * profile.detents_per_quarter), marble_bottom + MAGNET[1] / 2 - sensor_z,
                  "reed switch" if profile.sensing == "presence" else "Hall sensor")


def _plural(word: str) -> str:
    return word + ("es" if word.endswith(("ch", "sh", "s")) else "s")


def _sag() -> float:
    """How far a marble sinks into its seat below the top plate's surface."""
    r, s = MARBLE / 2, SEAT / 2
    return r - math.sqrt(r * r - s * s)


def _belt(teeth_a: int, teeth_b: int, least: float) -> tuple[int, float]:
    """The shortest closed GT2 belt whose centre distance is at least ``least``, and that distance."""
    ra, rb = teeth_a * GT2_PITCH / (2 * math.pi), teeth_b * GT2_PITCH / (2 * math.pi)
    for teeth in BELTS:
        length = teeth * GT2_PITCH
        c = _centres(length, ra, rb)
        if c is not None and c >= least:
            return teeth, c
    raise ValueError("no listed GT2 belt is long enough")


def _centres(length: float, ra: float, rb: float) -> float | None:
    """The centre distance of two pulleys of pitch radii ``ra``, ``rb`` on a belt of ``length``."""
    b = length - math.pi * (ra + rb)
    d = b * b - 8 * (ra - rb) ** 2
    return None if d < 0 or b <= 0 else (b + math.sqrt(d)) / 4


# -- the cut list -------------------------------------------------------------------------------

def cut_list(profile: Profile) -> list[tuple[int, str, str]]:
    """(quantity, part, size and what it is for) for ``profile``'s mechanics."""
    m, g = layout(profile), profile.geometry
    h = stack()
    n = g.block_count
    inside = m.board - 2 * STRIP
    pixels = len(profile.leds.status_pixels) + len(profile.leds.card_pixels)
    return [
        (1, "base plate, 6 mm birch plywood", f"{m.board:.0f} x {m.board:.0f} mm; a {AXLE_OD:g} mm hole (press fit) "
            f"at each block centre, the centres {m.block + GAP:g} mm apart and {FRAME + m.block / 2:g} mm in from the edges"),
        (4, "frame strips, 18 x 40 mm pine", f"{m.board:.0f} mm (two) and {m.board - 2 * STRIP:.0f} mm (two), glued "
            "round the base plate's edges"),
        (1, "circuit board (perfboard or a printed board), 1.6 mm", f"{inside:.0f} x {inside:.0f} mm inside the frame, on "
            f"{BELT_LAYER:g} mm standoffs: an LED on top at each of the {g.hole_count - n} outer hole positions, its "
            f"{m.sensor} on the back straight below; the {pixels} status and card pixels in a row along the front "
            f"border; a {BUSHING_OD + 2:g} mm hole at each block centre"),
        (1, "cover, 3 mm clear acrylic", f"{inside:.0f} x {inside:.0f} mm, on {h['cover'] - BELT_LAYER:.1f} mm "
            f"spacers over the board; a {BUSHING_OD + 2:g} mm hole at each block centre"),
        (n, "block top plate, 3 mm acrylic (frosted: the LED glows in it)", f"{m.block:g} x {m.block:g} mm, 3 x 3 seats "
            f"of {SEAT:g} mm at {PITCH:g} mm pitch, the centre seat on the plate's centre"),
        (n, "block lower plate, 6 mm birch plywood", f"{m.block:g} x {m.block:g} mm, {CLEAR:g} mm holes under the seats, "
            f"the centre one {BUSHING_OD:g} mm for the bushing"),
        (n, "slide sheet, 0.5 mm PTFE", f"{m.block:g} x {m.block:g} mm with the lower plate's holes"),
        (n, f"axle, brass tube {AXLE_OD:g} x {(AXLE_OD - AXLE_ID) / 2:g} mm", f"{h['top'] - 0.5 + BASE_PLATE:.0f} mm long, "
            f"fixed in the base; the centre position's LED and {m.sensor} on a {AXLE_ID - 1:g} mm round board inside it"),
        (n, f"flanged bronze bushing, 12 mm bore, {BUSHING_OD:g} mm outside", f"{h['top'] - 2:.0f} mm long, glued in the "
            "lower plate, reaching down through the cover and the board"),
        (n, f"GT2 pulley, {BLOCK_PULLEY_TEETH} teeth, bored to 16 mm", "on the bushing's lower end, grub screw"),
        (n, f"GT2 pulley, {m.encoder_teeth} teeth, 6 mm bore", "on the encoder's shaft, grub screw"),
        (n, f"GT2 closed belt, 6 mm wide, {m.belt_teeth} teeth ({m.belt_teeth * GT2_PITCH:.0f} mm)",
            f"block to encoder, {m.centres:.1f} mm centres"),
        (n, "encoder bracket, 2 mm aluminium angle", "holds the encoder on the base, shaft up, under the board"),
        (g.hole_count, f"marble, {MARBLE:g} mm (wood, resin or acrylic)", f"a {MAGNET[0]:g} mm pocket, {MAGNET[1]:g} mm deep, "
            "drilled at its bottom for the magnet (the bill of materials lists the magnets)"),
    ]


def cut_list_markdown(profile: Profile) -> str:
    m = layout(profile)
    h = stack()
    rows = "\n".join(f"| {qty} | {part} | {what} |" for qty, part, what in cut_list(profile))
    return "\n".join([
        f"<!-- Generated by hardware/tools/wiring.py (tools/mechanics.py) from hardware/profiles/{profile.name}.toml; "
        "do not edit. -->",
        f"# {profile.name}: the mechanical build", "",
        f"Drawing: [{profile.name}-mechanics.svg]({profile.name}-mechanics.svg). Wiring: [{profile.name}.md]({profile.name}.md).",
        "", f"![{profile.name} mechanical drawing]({profile.name}-mechanics.svg)", "",
        "## Dimensions", "",
        "| What | mm |", "|---|---|",
        f"| hole pitch | {PITCH:g} |", f"| marble | {MARBLE:g} (sits {_sag():.1f} deep in its {SEAT:g} mm seat) |",
        f"| block plate | {m.block:g} x {m.block:g} ({TOP_PLATE:g} acrylic on {LOWER_PLATE:g} plywood) |",
        f"| gap between blocks | {GAP:g} |", f"| board (base plate) | {m.board:.0f} x {m.board:.0f} |",
        f"| playing surface above the base | {h['surface']:.1f} |",
        f"| marble's magnet to its {m.sensor} | {m.magnet_to_sensor:.1f} |",
        f"| block axle to encoder shaft | {m.centres:.1f}, {BELT_ANGLE:g} degrees off the block's axes |", "",
        "## How the parts meet", "",
        f"- **The holes after a quarter turn.** A block turns about its centre hole, and a quarter turn "
        f"maps its 3 x 3 holes onto the same 9 positions, so the LEDs and {_plural(m.sensor)} stay "
        "where they are, on the fixed board: an LED under the centre of each position, its sensor straight below "
        "on the board's back (the marble's magnet is above it whichever hole of the block is there). "
        "The centre position's LED and sensor sit inside the hollow axle.",
        "- **Bearing.** The block's bronze bushing turns on the fixed brass axle; the block's weight "
        "rests on its PTFE slide sheet on the clear cover. Nothing but the marbles and the light crosses "
        "the gap between the block and the cover.",
        f"- **Encoder coupling.** The bushing carries a {BLOCK_PULLEY_TEETH}-tooth GT2 pulley under the "
        f"board; a {m.belt_teeth}-tooth belt turns the encoder's {m.encoder_teeth}-tooth pulley: "
        f"{m.ratio:g} encoder turn{'s' if m.ratio != 1 else ''} per block turn, so the encoder's "
        f"{ENCODER_DETENTS} detents a turn make {profile.detents_per_quarter} per quarter turn, the "
        "profile's `detents_per_quarter`. The belt runs under the board, "
        f"{BELT_ANGLE:g} degrees off the block's axes, between the positions' sensors.",
        f"- **Detent alignment.** The detents hold the block every {m.detent_deg:g} degrees. Set the block "
        "square to the board, turn the encoder to its nearest detent, then tighten the encoder pulley's "
        "grub screw: from then on every quarter turn ends square, over the fixed LEDs and sensors. "
        "`pentago-board selftest` asks for a quarter turn of each block and names one that counts wrong.",
        "", "## Cut list", "",
        "| Qty | Part | Size, and what it is for |", "|---|---|---|", rows, "",
    ])


# -- the drawing --------------------------------------------------------------------------------

SCALE = 2.0  # px per mm in the top view
INK, MUTED, LIGHT, DIM = "#1d1b18", "#6f675c", "#c8955a", "#2563eb"


def svg(profile: Profile) -> str:
    """The drawing: the board from above with its dimensions, one block and its coupling, and a
    section through a block's centre row."""
    m = layout(profile)
    board_px = m.board * SCALE
    x0, y0 = 40, 70
    parts = [_top_view(profile, m, x0, y0)]
    section_y = y0 + board_px + 90
    parts.append(_section(m, x0, section_y))
    width = max(x0 + board_px + 60, x0 + 60 + (m.block + 40) * 3.0 + 330)
    height = section_y + 260
    title = f"{profile.name}: mechanical build (mm)"
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fbf8f3"/>',
        f'<text x="{x0}" y="32" font-size="18" font-weight="bold">{escape(title)}</text>',
        f'<text x="{x0}" y="52" fill="{MUTED}">Generated from hardware/profiles/{profile.name}.toml by '
        'hardware/tools/wiring.py: the board from above, then a section through a block.</text>',
        *parts, "</svg>", ""])


def _dim(x1: float, y1: float, x2: float, y2: float, text: str, offset: float = 14) -> str:
    """A dimension line between two points, its text beside it."""
    horizontal = abs(y2 - y1) < abs(x2 - x1)
    dx, dy = (0, -offset) if horizontal else (-offset, 0)
    ax1, ay1, ax2, ay2 = x1 + dx, y1 + dy, x2 + dx, y2 + dy
    tx, ty = (ax1 + ax2) / 2, (ay1 + ay2) / 2
    rotate = "" if horizontal else f' transform="rotate(-90 {tx - 4:.1f} {ty:.1f})"'
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{ax1:.1f}" y2="{ay1:.1f}" stroke="{DIM}" stroke-width="0.6"/>'
            f'<line x1="{x2:.1f}" y1="{y2:.1f}" x2="{ax2:.1f}" y2="{ay2:.1f}" stroke="{DIM}" stroke-width="0.6"/>'
            f'<line x1="{ax1:.1f}" y1="{ay1:.1f}" x2="{ax2:.1f}" y2="{ay2:.1f}" stroke="{DIM}" stroke-width="1" '
            'marker-start="url(#tick)" marker-end="url(#tick)"/>'
            f'<text x="{tx - (4 if not horizontal else 0):.1f}" y="{ty - 3:.1f}" text-anchor="middle" fill="{DIM}"{rotate}>'
            f'{escape(text)}</text>')


def _top_view(profile: Profile, m: Layout, x0: float, y0: float) -> str:
    s = SCALE
    out = ['<defs><marker id="tick" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" markerHeight="8" '
           f'orient="auto"><path d="M 5 0 L 5 10" stroke="{DIM}" stroke-width="1.5"/></marker></defs>',
           f'<rect x="{x0}" y="{y0}" width="{m.board * s:.1f}" height="{m.board * s:.1f}" fill="{LIGHT}" '
           f'fill-opacity="0.35" stroke="{INK}"/>']
    for by in range(m.blocks_per_side):
        for bx in range(m.blocks_per_side):
            left = x0 + (FRAME + bx * (m.block + GAP)) * s
            top = y0 + (FRAME + by * (m.block + GAP)) * s
            out.append(f'<rect x="{left:.1f}" y="{top:.1f}" width="{m.block * s:.1f}" height="{m.block * s:.1f}" '
                       f'rx="4" fill="#fff" stroke="{INK}"/>')
            cx, cy = left + m.block * s / 2, top + m.block * s / 2
            for row in (-1, 0, 1):
                for col in (-1, 0, 1):
                    out.append(f'<circle cx="{cx + col * PITCH * s:.1f}" cy="{cy + row * PITCH * s:.1f}" '
                               f'r="{SEAT / 2 * s:.1f}" fill="none" stroke="{INK}"/>')
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{AXLE_OD / 2 * s:.1f}" fill="none" stroke="{MUTED}" '
                       'stroke-dasharray="3 2"/>')
            out.append(_coupling(m, cx, cy, _outward(bx, m.blocks_per_side), _outward(by, m.blocks_per_side)))
    first_left, first_top = x0 + FRAME * s, y0 + FRAME * s
    cx, cy = first_left + m.block * s / 2, first_top + m.block * s / 2
    out += [
        _dim(x0, y0 + m.board * s, x0 + m.board * s, y0 + m.board * s, f"{m.board:.0f}", offset=-22),
        _dim(first_left, first_top, first_left + m.block * s, first_top, f"block {m.block:g}", offset=28),
        _dim(cx - PITCH * s, cy - PITCH * s, cx, cy - PITCH * s, f"pitch {PITCH:g}", offset=18),
        _dim(first_left + m.block * s, first_top - 6, first_left + (m.block + GAP) * s, first_top - 6,
             f"gap {GAP:g}", offset=12),
        _dim(x0, y0 + 8, first_left, y0 + 8, f"frame {FRAME:g}", offset=-2),
        f'<text x="{cx + 6:.1f}" y="{cy + SEAT * s:.1f}" fill="{MUTED}">axle {AXLE_OD:g}</text>',
        f'<text x="{x0 + m.board * s - 4:.1f}" y="{y0 + m.board * s + 44:.1f}" text-anchor="end" fill="{MUTED}">'
        f'seats {SEAT:g} for {MARBLE:g} mm marbles; dashed: belt and encoder under the board, '
        f'{m.centres:.1f} centres, {m.ratio:g}:1, {profile.detents_per_quarter} detents a quarter</text>',
    ]
    return "\n".join(out)


def _outward(index: int, count: int) -> int:
    """Which way a block's encoder goes along one axis: towards the board's nearer edge."""
    return -1 if index < (count - 1) / 2 else 1


def _coupling(m: Layout, cx: float, cy: float, sx: int, sy: int) -> str:
    """The belt from the block's pulley to its encoder, under the board (dashed), towards the
    board's nearer edges (``sx``, ``sy``: -1 left or up, 1 right or down)."""
    s, a = SCALE, math.radians(BELT_ANGLE)
    ex, ey = cx + sx * m.centres * s * math.cos(a), cy + sy * m.centres * s * math.sin(a)
    rb = BLOCK_PULLEY_TEETH * GT2_PITCH / (2 * math.pi) * s
    re = m.encoder_teeth * GT2_PITCH / (2 * math.pi) * s
    return (f'<g stroke="{MUTED}" fill="none" stroke-dasharray="4 3" stroke-width="0.8">'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rb:.1f}"/><circle cx="{ex:.1f}" cy="{ey:.1f}" r="{re:.1f}"/>'
            f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}"/></g>'
            f'<rect x="{ex - 6:.1f}" y="{ey - 6:.1f}" width="12" height="12" fill="{MUTED}" fill-opacity="0.4"/>')


def _section(m: Layout, x0: float, y0: float) -> str:
    """A section through a block's centre row, to a larger scale: the stack from the base up."""
    s = 3.0  # px per mm here
    h = stack()
    base = y0 + 200  # the base plate's top, on screen
    left, width = x0 + 60, (m.block + 40) * s

    def z(mm: float) -> float:
        return base - mm * s

    labels: list[tuple[float, str]] = []  # placed after the layers, none over another

    def layer(bottom: float, top: float, colour: str, label: str, x: float = left, w: float = width) -> str:
        labels.append((z((top + bottom) / 2) + 4, label))
        return (f'<rect x="{x:.1f}" y="{z(top):.1f}" width="{w:.1f}" height="{(top - bottom) * s:.1f}" '
                f'fill="{colour}" stroke="{INK}" stroke-width="0.6"/>')

    block_left = left + 20 * s
    out = [f'<text x="{x0}" y="{y0}" font-weight="bold">Section through a block\'s centre row (scale 3 px/mm)</text>',
           layer(-BASE_PLATE, 0, LIGHT, "base plate 6"),
           layer(h["pcb"], h["pcb"] + PCB, "#4d7c0f", f"board 1.6 on {BELT_LAYER:g} standoffs: LEDs on top, sensors below"),
           layer(h["cover"], h["cover"] + COVER, "#dbeafe", "clear cover 3"),
           layer(h["block"] - PTFE, h["block"], "#e5e7eb", "PTFE 0.5", block_left, m.block * s),
           layer(h["block"], h["top"], LIGHT, "block lower plate 6", block_left, m.block * s),
           layer(h["top"], h["surface"], "#f5f5f4", "block top plate 3 (acrylic)", block_left, m.block * s)]
    cx = block_left + m.block * s / 2
    axle_top = h["top"] - 0.5
    out.append(f'<rect x="{cx - AXLE_OD / 2 * s:.1f}" y="{z(axle_top):.1f}" width="{AXLE_OD * s:.1f}" '
               f'height="{(axle_top + BASE_PLATE) * s:.1f}" fill="#d4a017" fill-opacity="0.5" stroke="{INK}" stroke-width="0.6"/>')
    marble_centre = h["surface"] - _sag() + MARBLE / 2
    for col in (-1, 0, 1):
        x = cx + col * PITCH * s
        out.append(f'<circle cx="{x:.1f}" cy="{z(marble_centre):.1f}" r="{MARBLE / 2 * s:.1f}" fill="#f4f1ea" stroke="{INK}"/>')
        out.append(f'<rect x="{x - 2.5 * s:.1f}" y="{z(h["pcb"] + PCB + LED_HEIGHT):.1f}" width="{5 * s:.1f}" '
                   f'height="{LED_HEIGHT * s:.1f}" fill="#f97316"/>')
        out.append(f'<rect x="{x - 2 * s:.1f}" y="{z(h["pcb"]):.1f}" width="{4 * s:.1f}" height="{3 * s:.1f}" fill="#111"/>')
    belt_z = 6.0
    out.append(f'<rect x="{cx - 12:.1f}" y="{z(belt_z + 3):.1f}" width="{m.centres * s * 0.6:.1f}" height="{6:.1f}" '
               f'fill="{MUTED}" fill-opacity="0.5"/>')
    out.append(f'<text x="{cx + m.centres * s * 0.6:.1f}" y="{z(belt_z):.1f}" fill="{MUTED}">belt to the encoder</text>')
    placed = float("-inf")
    for y, label in sorted(labels):
        placed = max(y, placed + 14)
        out.append(f'<text x="{left + width + 8:.1f}" y="{placed:.1f}" fill="{MUTED}">{escape(label)}</text>')
    right = left - 30
    out += [_dim(right, z(0), right, z(h["surface"]), f"{h['surface']:.1f}", offset=6),
            _dim(cx - PITCH * s, z(marble_centre + MARBLE / 2) - 6, cx, z(marble_centre + MARBLE / 2) - 6,
                 f"pitch {PITCH:g}", offset=8),
            f'<text x="{cx + PITCH * s + MARBLE / 2 * s + 6:.1f}" y="{z(marble_centre):.1f}" fill="{MUTED}">'
            f'marble {MARBLE:g}: its magnet {m.magnet_to_sensor:.1f} above its {m.sensor}</text>']
    return "\n".join(out)
