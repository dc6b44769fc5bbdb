"""`pentago-board leds`: light the LED chain one pixel at a time, to check its order.

Each pixel of the profile's chain lights alone, in chain order, while a line says what the
profile thinks it is (``pixel 7: hole b2``); a pixel that lights somewhere else shows where the
chain in the profile and the wiring disagree. Frames go through the normal output, so the
brightness cap and current budget apply.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from ..errors import PentagoError
from ..colours import MARBLE_COLOURS, light_name
from ..lights.view import PALETTE, SIGNAL_WORDS
from ..rules import Geometry, hole_name
from . import add_profile_argument

if TYPE_CHECKING:
    from ..profile import Pixel


COLOURS = (*MARBLE_COLOURS, *SIGNAL_WORDS)


def colour_words() -> str:
    """Every colour ``--colour`` takes, with how it looks and what the board lights it for.

    >>> colour_words().split("; ")[1]
    'black (glows violet)'
    """
    marbles = [name if light_name(name) == name else f"{name} (glows {light_name(name)})" for name in MARBLE_COLOURS]
    signals = [f"{name} ({looks}, {means})" for name, (looks, means) in SIGNAL_WORDS.items()]
    return "; ".join(marbles + signals)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "leds",
        help="light the LED chain pixel by pixel (chain order check)",
        description="Light each pixel of PROFILE's LED chain alone, in chain order, and say what "
        "the profile maps it to. Stop the daemon first: it holds the LEDs.",
    )
    add_profile_argument(parser, required=True, help="the LED chain of this profile")
    parser.add_argument("--step-s", type=float, default=0.5, help="seconds per pixel (default 0.5)")
    parser.add_argument("--colour", choices=COLOURS, default="white", metavar="COLOUR",
                        help=f"the colour each pixel lights in (default white): {colour_words()}")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..drivers.factory import build_pixels
    from ..profile import load_profile

    try:
        profile = load_profile(args.profile)
        output = build_pixels(profile)
    except PentagoError as error:
        print(f"pentago-board leds: {error}", file=sys.stderr)
        return 2 if isinstance(error, ValueError) else 1
    off = (0, 0, 0)
    try:
        for i, pixel in enumerate(profile.leds.pixels):
            output.show([PALETTE[args.colour] if j == i else off for j in range(profile.leds.length)])
            print(f"pixel {i}: {what(pixel, profile.geometry)}", flush=True)
            time.sleep(args.step_s)
    except KeyboardInterrupt:
        pass
    finally:
        output.close()
    return 0


def what(pixel: Pixel, g: Geometry) -> str:
    """What a chain pixel lights, in words: ``hole b2``, ``arrow 3R``, ``status 0``."""
    if pixel.kind == "hole" and pixel.hole is not None:
        return f"hole {hole_name(pixel.hole, g)}"
    if pixel.kind == "arrow":
        return f"arrow {pixel.block}{'R' if pixel.clockwise else 'L'}"
    return f"{pixel.kind} {pixel.index}"
