"""The Pi's real serial link (SerialLink) against the emulated Pico over a pty: the link comes
up on the firmware's hello, a marble's polarity arrives as its colour, and a pulled cable (the
tty gone, then back) resyncs with nothing lost. The link's clock is the emulator's time as last
heard from the device, so its silence timers judge emulated time (FACTS.md 8)."""

import queue
import time

import pytest
import wire
from conftest import need_pico
from pico import Pico, PtyBridge

from controller.drivers.serial_link import SerialLink
from controller.events import HoleReading, LinkChange

COLOURS = {"north": "white", "south": "black"}
SPEED = 0.3          # emulated seconds per wall second: below what the emulator sustains here
WAIT_S = 60          # wall seconds for any one thing to arrive (a loaded machine is slow)


@pytest.fixture
def linked(tmp_path):
    need_pico()
    with Pico(6, speed=SPEED) as pico, PtyBridge(pico, tmp_path / "ttyACM0") as bridge:
        pico.pace(SPEED)
        events = queue.Queue()
        link = SerialLink(str(bridge.path), 6, COLOURS, clock=lambda: pico.last_ns / 1e9)
        link.start(events.put)
        try:
            assert link.wait_up(WAIT_S), "the link never came up"
            yield pico, bridge, events
        finally:
            link.stop()


def until(events, wanted):
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        try:
            event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        if wanted(event):
            return event
    raise AssertionError("never arrived")


def test_a_marble_arrives_as_its_colour_and_an_unplug_resyncs(linked):
    pico, bridge, events = linked
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
