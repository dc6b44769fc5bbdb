"""Faults a real Pico has, emulated, and what the firmware and the Pi see of them and do:

* the watchdog in production mode (armed, fed by the loop, biting when the loop stops);
* a USB bus reset (the host re-enumerates the device): the firmware runs on, the Pi reconnects
  to the same boot and takes what changed meanwhile from the snapshot;
* a brown-out in the middle of a frame: the half frame reaches the Pi, which drops it, and
  resyncs with the MCU that comes back;
* a full heap (every allocation failing): the firmware restarts itself at once and says why on
  its next hello; the Pi resyncs as after any MCU reset.

The last three run on a 9x9 board (its snapshot is longer than a USB packet) through the Pi's
real serial link. (A power cut and back with the marbles left on the board is in
test_pico_boot.py; a pulled cable in test_pico_link.py.)"""

import logging
import time

import pytest
import serial
import wire
from conftest import WAIT_S, linked, need_pico, until
from pico import HOG_LOCK_PIN, Pico, device_files, with_heap_hog

from controller.events import EncoderSteps, HoleReading, LinkChange

SPEED = 0.3


@pytest.mark.timeout(600)   # 19 s of emulated time
def test_the_watchdog_in_production_mode_is_fed_and_bites_when_the_loop_stops():
    need_pico()
    with Pico(6, files=device_files(6, production=True)) as pico:
        first = pico.wait_for("hello", limit_ms=1000)
        # One scan a second: the loop still feeds the watchdog each step, 8 times within its
        # timeout, and the emulator sleeps through the rest (9 s of scanning cost minutes here).
        pico.request(wire.SET_CONFIG, 1, {"key": "scan_ms", "value": 1000})
        assert pico.wait_for("ack").fields == {"ref_seq": 1, "status": wire.OK}
        pico.run(9000)                       # past the 8 s timeout: the loop feeds it
        assert pico.stats()["resets"] == 0
        start = len(pico.messages())
        pico.send(b"\x00\r\x03")             # mpremote's knock: the loop ends, the REPL is fed nothing
        pico.run(10000)                      # the next step (within 1 s) sees it, 8 s to the bite
        hello = pico.wait_for("hello", after=start, limit_ms=1000)
        assert hello.fields["reset_cause"] == wire.RESET_WATCHDOG
        assert hello.fields["boot_id"] != first.fields["boot_id"]


class Tap:
    """The real port, keeping every byte the Pi read from it."""

    def __init__(self, port):
        self.port = port
        self.read_bytes = bytearray()

    @property
    def in_waiting(self):
        return self.port.in_waiting

    def read(self, size=1):
        data = self.port.read(size)
        self.read_bytes += data
        return data

    def write(self, data):
        return self.port.write(data)

    def close(self):
        self.port.close()


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """A paced 9x9 Pico with the heap hog beside the firmware (pico.HEAP_HOG), linked to the Pi's
    SerialLink through taps that keep what the Pi read, one per time it opened the port."""
    need_pico()
    taps = []

    def opener(*args, **kwargs):
        taps.append(Tap(serial.serial_for_url(*args, **kwargs)))
        return taps[-1]

    with Pico(9, speed=SPEED, files=with_heap_hog(device_files(9))) as pico:
        pico.pace(SPEED)
        with linked(pico, tmp_path_factory.mktemp("pico") / "ttyACM0", opener=opener) as (link, _, events):
            assert link.hello["size"] == 9             # the 9x9 board came up with its own config
            yield pico, link, events, taps


def is_reading(hole, colour):
    return lambda e: isinstance(e, HoleReading) and e.hole == hole and e.reading == colour


def is_link(up):
    return lambda e: isinstance(e, LinkChange) and e.up is up


def test_a_usb_bus_reset_reconnects_to_the_same_boot_with_what_changed_meanwhile(board):
    pico, link, events, _ = board
    pico.place(10, wire.NORTH)
    until(events, is_reading(10, "white"))
    boot = link.hello["boot_id"]
    pico.bus_reset()
    pico.place(11, wire.SOUTH)                 # while the host sets the device up again
    pico.turn(1, 6, 1)                         # block 1 a quarter clockwise: six detents
    until(events, is_link(False))
    seen = []

    def resynced(_):
        # The link is up again with the marble and the six detents. Which comes first depends on
        # when the emulator takes the snapshot: changes a snapshot finds come before its link-up.
        return (any(is_reading(11, "black")(e) for e in seen) and any(is_link(True)(e) for e in seen)
                and sum(x.steps for x in seen if isinstance(x, EncoderSteps)) == 6)

    until(events, resynced, seen)
    assert link.hello["boot_id"] == boot       # the firmware ran on: its counts went on too
    assert not [e for e in seen if isinstance(e, EncoderSteps) and e.block != 1]


def test_a_brown_out_mid_frame_reaches_the_pi_as_half_a_frame_which_it_drops(board):
    pico, link, events, taps = board
    pico.place(40, wire.NORTH)
    until(events, is_reading(40, "white"))
    boot, tap = link.hello["boot_id"], taps[-1]
    pico.tear_next_frame()
    link.request_snapshot()                    # 9x9: a frame of 169 bytes, three USB packets
    until(events, is_link(False))
    assert pico.brownout is not None and pico.brownout["sent"] == 64
    torn = bytes(tap.read_bytes).rsplit(b"\x00", 1)[1]
    assert torn, "the Pi read no half frame"
    assert list(wire.FrameReader().feed(torn + b"\x00")) == []   # not a frame: dropped
    pico.place(41, wire.SOUTH)                 # while the power is off
    pico.power_on()
    seen = []
    until(events, is_link(True), seen)
    assert link.hello["boot_id"] != boot and link.hello["reset_cause"] == wire.RESET_POWER_ON
    # Nothing came of the half frame: only the new marble, and no turn (the counts restarted).
    assert [e for e in seen if isinstance(e, (HoleReading, EncoderSteps))] == [
        HoleReading(seen[-1].t, 41, "black")]


def test_a_full_heap_restarts_the_firmware_which_says_why_and_the_pi_resyncs(board, caplog):
    pico, link, events, _ = board
    caplog.set_level(logging.INFO)
    pico.place(20, wire.NORTH)
    until(events, is_reading(20, "white"))
    boot = link.hello["boot_id"]
    pico.drive(HOG_LOCK_PIN, 1)                # from now on nothing can be allocated
    pico.place(21, wire.SOUTH)
    until(events, is_link(False))              # the chip reset: it left the bus
    seen = []
    until(events, is_link(True), seen)
    assert [e for e in seen if isinstance(e, HoleReading)] == [HoleReading(seen[-1].t, 21, "black")]
    assert link.hello["boot_id"] != boot
    assert "the board MCU restarted (watchdog reset); resyncing" in caplog.messages   # machine.reset()
    deadline = time.monotonic() + WAIT_S      # the line after the hello and the snapshot
    while "board MCU says: restarted: the heap was full" not in caplog.messages:
        assert time.monotonic() < deadline, caplog.messages
        time.sleep(0.1)
