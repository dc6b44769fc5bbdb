"""The firmware on MicroPython's own RP2040 build (rp2040js): it starts by itself from the
littlefs that `firmware flash` lays out, says hello, reports the board and the marbles. (The
9x9 board boots with its own config in test_pico_faults.py and test_pico_daemon.py.)"""

import wire
from version import FIRMWARE_VERSION


def test_the_firmware_starts_from_flash_and_says_hello(booted6):
    hello = booted6.wait_for("hello")
    assert hello.fields["size"] == 6
    assert hello.fields["firmware"] == FIRMWARE_VERSION
    assert hello.fields["reset_cause"] == wire.RESET_POWER_ON
    snapshot = booted6.wait_for("snapshot")
    assert snapshot.fields["classes"] == [wire.EMPTY] * 36
    assert snapshot.fields["counts"] == [0] * 4


def test_heartbeats_carry_the_state_hash(booted6):
    start = len(booted6.messages())
    beat = booted6.wait_for("heartbeat", after=start, limit_ms=600)
    assert beat.fields["state_hash"] == wire.state_hash([wire.EMPTY] * 36, [0] * 4)


def test_a_placed_marble_is_reported_with_its_polarity(booted6):
    start = len(booted6.messages())
    booted6.place(14, wire.NORTH)
    booted6.place(21, wire.SOUTH)
    booted6.run(150)
    holes = {m.fields["hole"]: m.fields["cls"] for m in booted6.messages()[start:] if m.name == "hole"}
    assert holes == {14: wire.NORTH, 21: wire.SOUTH}


def test_a_quarter_turn_arrives_as_encoder_steps_and_moved_marbles(booted6):
    booted6.place(35, wire.NORTH)      # f6, beside d4 (21, south up) of the test before
    booted6.run(150)
    start = len(booted6.messages())
    detents = 4
    last_ms = booted6.turn(2, detents, 1)
    booted6.run(last_ms + 250)
    later = booted6.messages()[start:]
    assert sum(m.fields["steps"] for m in later if m.name == "encoder") == detents
    moved = {m.fields["hole"]: m.fields["cls"] for m in later if m.name == "hole"}
    # Block 2 a quarter clockwise: f6 -> f4 and d4 -> d6.
    assert moved == {35: wire.EMPTY, 23: wire.NORTH, 21: wire.EMPTY, 33: wire.SOUTH}


def test_a_power_cycle_comes_back_with_a_new_boot_id_and_the_marbles_still_seen(booted6):
    before = booted6.wait_for("hello").fields["boot_id"]
    booted6.place(0, wire.NORTH)
    booted6.run(100)
    start = len(booted6.messages())
    booted6.power_off()                  # a brown-out: the board keeps its marbles
    booted6.power_on()
    hello = booted6.wait_for("hello", after=start, limit_ms=1000)
    assert hello.fields["reset_cause"] == wire.RESET_POWER_ON
    assert hello.fields["boot_id"] != before        # the ring oscillator stand-in differs per power-on
    classes = booted6.wait_for("snapshot", after=start).fields["classes"]
    assert classes[0] == wire.NORTH and classes[14] == wire.NORTH
