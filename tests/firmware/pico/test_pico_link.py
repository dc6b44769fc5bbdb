"""The Pi's real serial link (SerialLink) against the emulated Pico over a pty: the link comes
up on the firmware's hello, a marble's polarity arrives as its colour, and a pulled cable (the
tty gone, then back) resyncs with nothing lost. The link's clock is the emulator's time as last
heard from the device, so its silence timers judge emulated time (FACTS.md 8)."""

import wire
from conftest import linked, need_pico, until
from pico import Pico

from controller.events import HoleReading, LinkChange

SPEED = 0.3          # emulated seconds per wall second: below what the emulator sustains here


def test_a_marble_arrives_as_its_colour_and_an_unplug_resyncs(tmp_path):
    need_pico()
    with Pico(6, speed=SPEED) as pico:
        pico.pace(SPEED)
        with linked(pico, tmp_path / "ttyACM0") as (_link, bridge, events):
            pico.place(14, wire.NORTH)
            until(events, lambda e: isinstance(e, HoleReading) and e.hole == 14 and e.reading == "white")
            bridge.unplug()
            until(events, lambda e: isinstance(e, LinkChange) and not e.up)
            pico.place(15, wire.SOUTH)           # moved while the cable was out
            seen = {}

            def resynced(event):
                if isinstance(event, HoleReading):
                    seen[event.hole] = event.reading
                return seen.get(15) == "black"

            bridge.plug()
            until(events, resynced)   # from the snapshot after the reconnect
            assert seen.get(14, "white") == "white"   # unchanged: the Pi's mirror kept it
