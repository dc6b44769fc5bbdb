"""`pentago-board inputs`: watch what the profile's sensors report, to check the wiring.

Builds the input driver the profile names (GPIO pins, the MCU link or the virtual board) and
prints every event it emits as one readable line: place a marble on a1 and ``hole a1 marble``
must appear; turn block 2 clockwise and ``block 2 +1`` must.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time

from ..errors import PentagoError
from ..events import ButtonPress, EncoderSteps, HoleReading, InputEvent, LinkChange
from ..rules import Geometry, hole_name
from . import add_profile_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "inputs",
        help="print every sensor, encoder and button event (wiring check)",
        description="Start the input driver of PROFILE (a shipped name or a .toml path) and print "
        "each event until Ctrl-C or --seconds. Stop the daemon first: it holds the pins and port.",
    )
    add_profile_argument(parser, required=True, help="watch this profile's inputs")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop after this long (default: until Ctrl-C)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..drivers.factory import build_inputs
    from ..profile import load_profile

    try:
        profile = load_profile(args.profile)
        driver = build_inputs(profile)
    except PentagoError as error:
        print(f"pentago-board inputs: {error}", file=sys.stderr)
        return 2 if isinstance(error, ValueError) else 1
    events: queue.Queue[InputEvent] = queue.Queue()
    driver.start(events.put)
    try:
        _print_until(events, profile.geometry, args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        driver.stop()
    return 0


def _print_until(events: queue.Queue[InputEvent], g: Geometry, seconds: float | None) -> None:
    deadline = None if seconds is None else time.monotonic() + seconds
    while deadline is None or time.monotonic() < deadline:
        try:
            event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        print(f"{event.t:10.3f}  {describe(event, g)}", flush=True)
    while not events.empty():  # what arrived before the deadline is shown too
        event = events.get()
        print(f"{event.t:10.3f}  {describe(event, g)}", flush=True)


def describe(event: InputEvent, g: Geometry) -> str:
    """One event as a line a person reads.

    >>> from controller.rules import geometry
    >>> describe(HoleReading(0.0, 20, "marble"), geometry(6))
    'hole c4 marble'
    >>> describe(EncoderSteps(0.0, 2, -1), geometry(6))
    'block 2 -1 (counter-clockwise)'
    """
    if isinstance(event, HoleReading):
        return f"hole {hole_name(event.hole, g)} {event.reading}"
    if isinstance(event, EncoderSteps):
        sense = "clockwise" if event.steps > 0 else "counter-clockwise"
        return f"block {event.block} {event.steps:+d} ({sense})"
    if isinstance(event, ButtonPress):
        return f"button {event.button}"
    assert isinstance(event, LinkChange)
    return f"link {'up' if event.up else 'down'}" + (f" ({event.reason})" if event.reason else "")
