"""The host side of the serial link over a real pty, against a scripted fake MCU; and the
protocol session on its own, where a rule is easier to see without a port."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.drivers.link.backoff import Backoff
from controller.drivers.link.session import LinkSession
from controller.drivers.link.transcript import ReplayTransport, parse_frame, recording_opener
from controller.drivers.serial_link import SerialLink
from controller.errors import LinkError
from controller.events import EncoderSteps, HoleReading, LinkChange
from pentago_firmware import wire

from .fake_mcu import FakeMcu, wait_for
from .rigs import FakeClock

COLOURS = {"north": "white", "south": "black"}
B3, D4, E4 = 13, 21, 22
READINGS = ("empty", "marble", "white", "black", "unsure")  # by class code, with COLOURS
EMPTY_6 = [wire.EMPTY] * 36
ZERO_4 = [0, 0, 0, 0]
GOLDEN = Path(__file__).parent / "data" / "serial_link_session.txt"


def board(**classes: int) -> list[int]:
    """A 6x6 class list with the named holes set, e.g. ``board(b3=wire.NORTH)``."""
    holes = list(EMPTY_6)
    for name, cls in classes.items():
        holes[(int(name[1]) - 1) * 6 + ord(name[0]) - ord("a")] = cls
    return holes


@pytest.fixture
def mcu(tmp_path):
    fake = FakeMcu(tmp_path)
    yield fake
    fake.close()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def links():
    started: list[SerialLink] = []
    yield started
    for link in started:
        link.stop()


class Session:
    """A started link and the events it emitted."""

    def __init__(self, link: SerialLink) -> None:
        self.link, self.events = link, []
        link.start(self.events.append)

    def wait_events(self, count: int) -> list:
        wait_for(lambda: len(self.events) >= count, what=f"{count} events, have {self.events[-3:]}")
        return self.events

    def after(self, mark: int, count: int) -> list:
        """The ``count`` events after the first ``mark`` ones (waits for them)."""
        return self.wait_events(mark + count)[mark:]


@pytest.fixture
def connect(mcu, clock, links):
    """Start a link and complete the handshake with ``classes``; returns the Session."""

    def connect(classes=EMPTY_6, counts=ZERO_4, **options) -> Session:
        mcu.expect((wire.CONNECT, {"protocol": 1}), [mcu.hello(), mcu.snapshot(classes, counts)])
        link = SerialLink(mcu.port, 6, options.pop("colours", COLOURS), clock=clock,
                          reconnect=Backoff(0.01, 2.0, 0.05), **options)
        links.append(link)
        session = Session(link)
        assert link.wait_up(10.0)
        session.wait_events(37)
        mcu.assert_done()
        return session

    return connect


# Handshake and events ------------------------------------------------------------------------


def test_handshake_reports_every_hole_then_link_up(connect, clock):
    session = connect(board(b3=wire.NORTH, e4=wire.SOUTH))
    readings = session.events[:36]
    assert [e.hole for e in readings] == list(range(36))
    assert {e.hole: e.reading for e in readings if e.reading != "empty"} == {B3: "white", E4: "black"}
    assert session.events[36:] == [LinkChange(clock.t, True, "MCU connected")]
    assert session.link.error is None
    assert session.link.hello == {"protocol": 1, "size": 6, "caps": 3, "reset_cause": 1,
                                  "boot_id": 0x1234ABCD, "firmware": "0.1.0-fake"}


def test_events_become_readings_and_steps(connect, mcu, clock):
    session = connect()
    clock.advance(0.5)
    mcu.send(mcu.hole(B3, wire.NORTH), mcu.encoder(4, 2), mcu.hole(E4, wire.SOUTH),
             mcu.encoder(1, -1), mcu.hole(B3, wire.EMPTY), mcu.hole(0, wire.UNSURE))
    assert session.after(37, 6) == [
        HoleReading(100.5, B3, "white"), EncoderSteps(100.5, 4, 2), HoleReading(100.5, E4, "black"),
        EncoderSteps(100.5, 1, -1), HoleReading(100.5, B3, "empty"), HoleReading(100.5, 0, "unsure"),
    ]


def test_presence_board_reports_marbles_whatever_the_pole(connect, mcu):
    session = connect(board(a1=wire.MARBLE), colours={})
    mcu.send(mcu.hole(B3, wire.NORTH), mcu.hole(E4, wire.SOUTH))
    assert session.events[0].reading == "marble"
    assert [e.reading for e in session.after(37, 2)] == ["marble", "marble"]


def test_repeated_class_gives_no_second_event(connect, mcu):
    session = connect()
    mcu.send(mcu.hole(B3, wire.NORTH), mcu.hole(B3, wire.NORTH), mcu.hole(E4, wire.SOUTH))
    assert [e.hole for e in session.after(37, 2)] == [B3, E4]


def test_requests_reach_the_mcu_and_a_refusal_is_logged(connect, mcu, caplog):
    session = connect()
    # Host seq 0 was the connect, so these are 1, 2 and 3.
    mcu.expect((wire.SET_CONFIG, {"key": "debounce_scans", "value": 4}), [mcu.frame(wire.ACK, {"ref_seq": 1, "status": wire.OK})])
    mcu.expect((wire.SET_CONFIG, {"key": "debounce_ms", "value": 9}), [mcu.frame(wire.ACK, {"ref_seq": 2, "status": wire.UNKNOWN_KEY})])
    mcu.expect((wire.CALIBRATE, {"kind": 0}), [mcu.hole(B3, wire.MARBLE)])
    with caplog.at_level(logging.WARNING):
        session.link.set_config("debounce_scans", 4)
        session.link.set_config("debounce_ms", 9)
        session.link.calibrate()
        session.after(37, 1)
    mcu.assert_done()
    assert "the board MCU refused set_config (seq 2): unknown key" in caplog.messages


def test_setting_out_of_range_is_refused_before_sending(connect):
    session = connect()
    with pytest.raises(LinkError, match=r"MCU setting scan_ms = 4294967296 does not fit a 32-bit integer"):
        session.link.set_config("scan_ms", 2**32)


# Bad bytes never become events -----------------------------------------------------------------

GARBAGE = {
    "REPL traceback": b'Traceback (most recent call last):\r\n  File "main.py", line 3\r\nOSError: 5\r\n>>> ',
    "MicroPython banner": b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n>>> ",
    "random bytes": bytes.fromhex("5a1f9c03e7b2d4418807c6ff00fe01"),
    "our own frame echoed": wire.encode_message(wire.REQUEST_SNAPSHOT, 9, {}),
}


@pytest.mark.parametrize("junk", GARBAGE.values(), ids=GARBAGE.keys())
def test_garbage_between_frames_gives_no_event_and_no_request(connect, mcu, junk):
    session = connect()
    mcu.send(junk, mcu.hole(E4, wire.SOUTH), junk, mcu.heartbeat(board(e4=wire.SOUTH), ZERO_4), mcu.hole(B3, wire.NORTH))
    assert session.after(37, 2) == [HoleReading(100.0, E4, "black"), HoleReading(100.0, B3, "white")]
    mcu.assert_done()  # the heartbeat after the junk matched: no snapshot was needed
    pieces = 0 if junk == GARBAGE["our own frame echoed"] else len([p for p in junk.split(b"\x00") if p])
    assert session.link.rejected_frames == 2 * pieces  # each run of junk counted, none taken


def flip_payload_bit(frame: bytes) -> bytes:
    return frame[:4] + bytes([frame[4] ^ 0x01]) + frame[5:]


def truncate(frame: bytes) -> bytes:
    return frame[:-3] + b"\x00"


def random_body(frame: bytes) -> bytes:
    return b"\x00" + bytes(b or 1 for b in os.urandom(len(frame) - 2)) + b"\x00"


@pytest.mark.parametrize("corrupt", [flip_payload_bit, truncate, random_body])
def test_corrupted_event_is_dropped_and_the_snapshot_repairs(connect, mcu, corrupt):
    session = connect()
    truth = board(b3=wire.NORTH)
    lost, beat = corrupt(mcu.hole(B3, wire.NORTH)), mcu.heartbeat(truth, ZERO_4)
    mcu.expect(wire.REQUEST_SNAPSHOT, [mcu.snapshot(truth, ZERO_4)])
    mcu.send(lost, beat)
    mcu.assert_done()
    assert session.after(37, 1) == [HoleReading(100.0, B3, "white")]
    mcu.send(mcu.hole(E4, wire.SOUTH))  # a later event proves nothing else was queued before it
    assert session.after(38, 1) == [HoleReading(100.0, E4, "black")]


def oversize_log(seq: int, body_len: int) -> bytes:
    """A log frame with a good CRC whose body is ``body_len`` bytes, over the 250-byte limit."""
    body = bytes((wire.LOG, seq)) + b"x" * (body_len - 6)
    return b"\x00" + wire.cobs_encode(body + wire.pack_heartbeat(wire.crc32(body))) + b"\x00"


@pytest.mark.parametrize("body_len", [1012, 100_000])
def test_oversize_frame_is_dropped_whole_however_the_reads_fall(connect, mcu, caplog, body_len):
    session = connect()
    oversize = oversize_log(mcu.seq, body_len)
    mcu.seq += 1
    hole = mcu.hole(B3, wire.NORTH)
    mcu.expect(wire.REQUEST_SNAPSHOT, [mcu.snapshot(board(b3=wire.NORTH), ZERO_4)])  # for the gap it leaves
    with caplog.at_level(logging.INFO):
        mcu.send(oversize, hole)
        mcu.assert_done()
        assert session.after(37, 1) == [HoleReading(100.0, B3, "white")]
    assert session.link.rejected_frames == 1
    assert not [m for m in caplog.messages if m.startswith("board MCU says")]
    assert f"dropped 1 bad frame(s) from the board MCU: more than {wire.MAX_ENCODED} bytes without a delimiter" in caplog.messages


def test_count_past_the_32_bit_limit_wraps_and_the_link_stays_up(connect, mcu):
    top = 2**31 - 1
    session = connect(EMPTY_6, [top, 0, 0, 0])
    mcu.send(mcu.encoder(1, 1), mcu.heartbeat(EMPTY_6, [-2**31, 0, 0, 0]), mcu.hole(B3, wire.NORTH))
    assert session.after(37, 2) == [EncoderSteps(100.0, 1, 1), HoleReading(100.0, B3, "white")]
    mcu.assert_done()  # the heartbeat's hash matched the wrapped count: no snapshot asked for
    assert len(session.events) == 39  # and no LinkChange: the link never dropped


# Gaps, hash mismatches and silence ask for a snapshot ------------------------------------------


def test_sequence_gap_asks_for_a_snapshot(connect, mcu, caplog):
    session = connect()
    mcu.seq += 1  # the frame carrying "e4 south" is lost on the way
    hole = mcu.hole(B3, wire.NORTH)
    mcu.expect(wire.REQUEST_SNAPSHOT, [mcu.snapshot(board(b3=wire.NORTH, e4=wire.SOUTH), [0, 0, 2, 0])])
    with caplog.at_level(logging.WARNING):
        mcu.send(hole)
        mcu.assert_done()
        events = session.after(37, 3)
    assert events == [HoleReading(100.0, B3, "white"), HoleReading(100.0, E4, "black"), EncoderSteps(100.0, 3, 2)]
    assert "MCU frames lost: expected seq 2, got 3; asking for a snapshot" in caplog.messages


def test_heartbeat_hash_mismatch_asks_for_a_snapshot(connect, mcu):
    session = connect()
    truth = board(d4=wire.SOUTH)
    beat = mcu.heartbeat(truth, ZERO_4)
    mcu.expect(wire.REQUEST_SNAPSHOT, [mcu.snapshot(truth, ZERO_4)])
    mcu.send(beat)
    mcu.assert_done()
    assert session.after(37, 1) == [HoleReading(100.0, D4, "black")]


def test_silence_asks_for_a_snapshot(connect, mcu, clock):
    session = connect(heartbeat_timeout_s=1.0)
    mcu.expect(wire.REQUEST_SNAPSHOT, [mcu.snapshot(board(b3=wire.NORTH), ZERO_4)])
    clock.advance(1.2)
    mcu.assert_done()
    assert session.after(37, 1) == [HoleReading(101.2, B3, "white")]


def test_long_silence_reopens_the_port(connect, mcu, clock):
    session = connect(heartbeat_timeout_s=1.0)
    mcu.expect(wire.REQUEST_SNAPSHOT)  # the MCU hangs: no answer
    clock.advance(1.2)
    mcu.assert_done()
    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot(EMPTY_6, ZERO_4)])
    clock.advance(2.0)
    mcu.assert_done()
    assert session.after(37, 2) == [LinkChange(103.2, False, "no data from the board MCU for 3.2 s"),
                                    LinkChange(103.2, True, "MCU connected")]


# Version and size mismatches stop the link with a clear message ---------------------------------


REFLASH = "reflash it with `pentago-board firmware flash`"
HELLO_6 = wire.pack_hello(6, wire.CAP_POLARITY | wire.CAP_ENCODERS, wire.RESET_POWER_ON, 0x1234ABCD, "0.1.0")
BAD_HELLOS = {  # the hello's payload, and what the link says
    "empty": (b"", f"the board MCU speaks protocol unknown, this pentago-board speaks 1: {REFLASH}"),
    "one byte": (b"\x01", f"the board MCU sent a hello that does not decode (hello payload has 1 bytes, "
                          f"expected at least 8): {REFLASH}"),
    "seven bytes": (HELLO_6[:7], "the board MCU sent a hello that does not decode (hello payload has 7 bytes, "
                                 f"expected at least 8): {REFLASH}"),
    "protocol 2": (wire.pack_hello(6, 3, 1, 7, "9.0", protocol=2),
                   f"the board MCU speaks protocol 2, this pentago-board speaks 1: {REFLASH}"),
    "9x9 on a 6x6 profile": (wire.pack_hello(9, 3, 1, 7, "0.1.0"),
                             "the board MCU is set up for a 9x9 board but the hardware profile says 6x6: "
                             "fix the profile's size or the MCU config"),
    "firmware name not UTF-8": (HELLO_6[:8] + b"\xff\xfe0.1", "the board MCU sent a hello that does not decode "
                                f"(hello text is not UTF-8): {REFLASH}"),
}


@pytest.mark.parametrize("case", BAD_HELLOS)
def test_a_bad_hello_is_refused_saying_why_and_the_port_reopened_until_the_mcu_is_fixed(case, mcu, clock, links,
                                                                                     caplog):
    payload, message = BAD_HELLOS[case]
    mcu.answer(wire.CONNECT, lambda seq, fields: [wire.encode_frame(wire.HELLO, 0, payload)])
    link = SerialLink(mcu.port, 6, COLOURS, clock=clock, reconnect=Backoff(0.01, 2.0, 0.05))
    links.append(link)
    with caplog.at_level(logging.WARNING):
        session = Session(link)
        with pytest.raises(LinkError) as caught:
            link.wait_up(10.0)
        assert str(caught.value) == message
        connects = lambda: sum(mtype == wire.CONNECT for mtype, _, _ in mcu.received)  # noqa: E731
        wait_for(lambda: connects() >= 4, what="the link to reopen the port and ask again")
    assert session.events == [LinkChange(100.0, False, message)]  # said once, however many tries
    assert sum(message in m for m in caplog.messages) == 1  # logged once, then counted
    # Someone reflashes the MCU (or fixes the profile): the next try comes up.
    mcu.answer(wire.CONNECT, lambda seq, fields: [mcu.hello(), mcu.snapshot()])
    wait_for(lambda: LinkChange(100.0, True, "MCU connected") in session.events, what="the link to come up")
    assert link.error is None and link.wait_up(1.0)
    assert any("more times" in m for m in caplog.messages)  # the repeats, counted


# Unplug, reset, reconnect ---------------------------------------------------------------------


def test_unplug_and_replug_resyncs_the_board(connect, mcu, clock, caplog):
    session = connect(board(b3=wire.NORTH), [0, 0, 0, 5])
    with caplog.at_level(logging.WARNING):
        mcu.unplug()
        down = session.after(37, 1)[0]
    assert not down.up and down.reason.startswith("lost ")
    assert any(m.startswith("board MCU link down: lost ") and m.endswith("; reconnecting") for m in caplog.messages)
    # While unplugged someone took b3 and put a south marble on e4; the replugged Pico rebooted.
    mcu.reboot(boot_id=0x5EED)
    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot(board(e4=wire.SOUTH), ZERO_4)])
    mcu.plug()
    mcu.assert_done()
    # The counts restarted with the MCU: a new baseline, not steps.
    assert session.after(38, 3) == [HoleReading(100.0, B3, "empty"), HoleReading(100.0, E4, "black"),
                                    LinkChange(100.0, True, "MCU connected")]
    mcu.send(mcu.encoder(2, 1))
    assert session.after(41, 1) == [EncoderSteps(100.0, 2, 1)]


def test_port_missing_at_start_is_reported_then_retried(mcu, clock, links):
    mcu.unplug()
    link = SerialLink(mcu.port, 6, COLOURS, clock=clock, reconnect=Backoff(0.01, 2.0, 0.05))
    links.append(link)
    session = Session(link)
    first = session.wait_events(1)[0]
    assert not first.up and first.reason.startswith(f"cannot open {mcu.port}:")
    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot()])
    mcu.plug()
    assert link.wait_up(10.0)
    assert len(session.events) == 1 + 36 + 1


def test_mcu_reset_while_up_resyncs(connect, mcu, clock):
    session = connect(board(b3=wire.NORTH), [0, 3, 0, 0])
    mcu.reboot(boot_id=0xBEEF)
    mcu.send(b"\x00rst", mcu.hello(reset_cause=wire.RESET_WATCHDOG), mcu.snapshot(board(b3=wire.NORTH), ZERO_4))
    assert session.after(37, 2) == [LinkChange(100.0, False, "MCU reset (watchdog)"),
                                    LinkChange(100.0, True, "MCU connected")]


def test_a_failing_consumer_is_logged_and_the_link_recovers(mcu, clock, links, caplog):
    events, failures = [], []

    def emit(event):
        if isinstance(event, LinkChange) and event.up and not failures:
            failures.append(event)
            raise RuntimeError("queue full")
        events.append(event)

    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot()])
    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot()])
    link = SerialLink(mcu.port, 6, COLOURS, clock=clock, reconnect=Backoff(0.01, 2.0, 0.05))
    links.append(link)
    link.start(emit)
    mcu.assert_done()
    wait_for(lambda: events[-1:] == [LinkChange(100.0, True, "MCU connected")], what="the link back up")
    assert "serial link on %s failed" % mcu.port in caplog.messages
    assert LinkChange(100.0, False, "internal error: RuntimeError('queue full')") in events


def test_stop_is_quiet_and_safe_twice(connect):
    session = connect()
    session.link.stop()
    session.link.stop()
    assert len(session.events) == 37


# A recorded session against its golden transcript ---------------------------------------------


def test_session_transcript_matches_golden(mcu, clock, links, tmp_path):
    record = tmp_path / "session.txt"
    link = SerialLink(mcu.port, 6, COLOURS, clock=clock,
                      opener=recording_opener(str(record), opener=serial.serial_for_url))
    links.append(link)
    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot(EMPTY_6, ZERO_4)])
    session = Session(link)
    assert link.wait_up(10.0)
    mcu.assert_done()
    truth, counts = board(b3=wire.NORTH, e4=wire.SOUTH), [0, 0, 0, 1]
    hole, turn = mcu.hole(B3, wire.NORTH), mcu.encoder(4, 1)
    mcu.seq += 1  # "e4 south" is lost
    beat = mcu.heartbeat(truth, counts)
    mcu.expect(wire.REQUEST_SNAPSHOT, [mcu.snapshot(truth, counts)])
    mcu.send(hole, b"Traceback\r\n", turn, beat)
    mcu.assert_done()
    session.after(37, 3)
    link.stop()
    text = record.read_text()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
    assert all(parse_frame(line) for line in text.splitlines() if ">" in line.split(" ")[0])


def test_replaying_the_golden_session_gives_the_same_host_side_and_events(clock, links, tmp_path):
    golden = GOLDEN.read_text().splitlines()
    out = tmp_path / "replay.txt"
    with out.open("w") as written:
        link = SerialLink("replay", 6, COLOURS, clock=clock,
                          opener=lambda url, **_: ReplayTransport(golden, written))
        links.append(link)
        session = Session(link)
        events = session.wait_events(40)
        link.stop()
    assert [line for line in golden if line.startswith("pi>")] == out.read_text().splitlines()
    assert events[36:] == [LinkChange(100.0, True, "MCU connected"), HoleReading(100.0, B3, "white"),
                           EncoderSteps(100.0, 4, 1), HoleReading(100.0, E4, "black")]


# The session without a port ---------------------------------------------------------------------


def up_session(now: float = 0.0, counts: list[int] = ZERO_4) -> tuple[LinkSession, wire.FrameReader]:
    session = LinkSession(6, COLOURS)
    session.opened(now)
    for frame in (wire.encode_message(wire.HELLO, 0, {"protocol": 1, "size": 6, "caps": 3, "reset_cause": 1,
                                                      "boot_id": 1, "firmware": "t"}),
                  wire.encode_message(wire.SNAPSHOT, 1, {"classes": EMPTY_6, "counts": counts})):
        session.receive(now, *wire.FrameReader().feed(frame)[0])
    assert session.state == "up"
    return session, wire.FrameReader()


def sent_names(frames: list[bytes]) -> list[str]:
    return [wire.NAMES[t] for f in frames for t, _, _ in wire.FrameReader().feed(f)]


def test_sequence_wraps_without_a_gap():
    session, reader = up_session()
    session._expected_seq = 255
    for seq in (255, 0):
        frame = wire.encode_message(wire.HOLE, seq, {"hole": seq % 36, "cls": wire.MARBLE})
        assert session.receive(0.0, *reader.feed(frame)[0]).frames == []


def test_steps_between_snapshots_across_the_32_bit_wrap_are_the_short_way():
    session, reader = up_session(counts=[2**31 - 1, -2**31, 0, 0])
    snapshot = wire.encode_message(wire.SNAPSHOT, 2, {"classes": EMPTY_6, "counts": [-2**31 + 1, 2**31 - 1, 0, 0]})
    step = session.receive(0.0, *reader.feed(snapshot)[0])
    assert step.events == [EncoderSteps(0.0, 1, 2), EncoderSteps(0.0, 2, -1)]


def frame_in(reader, mtype: int, seq: int, fields: dict) -> tuple:
    return reader.feed(wire.encode_message(mtype, seq, fields))[0]


@pytest.mark.parametrize("steps", [32767, 3006, 2406, -1206])
def test_an_encoder_count_no_hand_can_make_is_no_turn_and_asks_for_a_snapshot(steps, caplog):
    session, reader = up_session()
    with caplog.at_level(logging.WARNING):
        step = session.receive(1.0, *frame_in(reader, wire.ENCODER, 2, {"block": 1, "steps": steps}))
    assert step.events == [] and sent_names(step.frames) == ["request_snapshot"]
    assert any(f"block 1: {steps:+d} detents" in m for m in caplog.messages)
    # The MCU's own count took the jump too: its snapshot is the new baseline, still no turn.
    step = session.receive(1.1, *frame_in(reader, wire.SNAPSHOT, 3, {"classes": EMPTY_6, "counts": [steps, 0, 0, 0]}))
    assert step.events == []
    assert session.mirror.state_hash() == wire.state_hash(EMPTY_6, [steps, 0, 0, 0])  # in step: no resync loop
    # A real detent after it is a turn again.
    assert session.receive(1.2, *frame_in(reader, wire.ENCODER, 4, {"block": 1, "steps": 1})).events == [
        EncoderSteps(1.2, 1, 1)]


def test_a_snapshot_whose_count_jumps_by_2_31_minus_1_is_no_turn():
    session, reader = up_session()
    step = session.receive(1.0, *frame_in(reader, wire.SNAPSHOT, 2, {"classes": EMPTY_6, "counts": [0, 2**31 - 1, 0, 0]}))
    assert step.events == [] and step.frames == []
    heartbeat = {"state_hash": wire.state_hash(EMPTY_6, [0, 2**31 - 1, 0, 0])}
    assert session.receive(1.5, *frame_in(reader, wire.HEARTBEAT, 3, heartbeat)).frames == []  # agreed


def test_a_hand_s_quick_half_turn_passes_and_a_detent_more_at_that_moment_does_not():
    session, reader = up_session()
    events = [e for seq in range(2, 14)
              for e in session.receive(1.0, *frame_in(reader, wire.ENCODER, seq, {"block": 3, "steps": 1})).events]
    assert events == [EncoderSteps(1.0, 3, 1)] * 12  # two quarters (6 detents each), all at once
    assert session.receive(1.0, *frame_in(reader, wire.ENCODER, 14, {"block": 4, "steps": 1})).events == [
        EncoderSteps(1.0, 4, 1)]  # each block has its own hand
    extra = session.receive(1.0, *frame_in(reader, wire.ENCODER, 15, {"block": 3, "steps": 1}))
    assert extra.events == [] and sent_names(extra.frames) == ["request_snapshot"]


def test_a_replayed_old_encoder_frame_is_no_turn_even_when_the_snapshot_comes_late():
    session, reader = up_session()
    quarter = wire.encode_message(wire.ENCODER, 2, {"block": 2, "steps": 6})
    assert session.receive(1.0, *reader.feed(quarter)[0]).events == [EncoderSteps(1.0, 2, 6)]
    replayed = session.receive(3.0, *reader.feed(quarter)[0])  # the same frame again, seq 2 once more
    assert replayed.events == [] and sent_names(replayed.frames) == ["request_snapshot"]
    # A real detent on block 1 while the snapshot is awaited waits for the snapshot too.
    assert session.receive(3.3, *frame_in(reader, wire.ENCODER, 3, {"block": 1, "steps": 1})).events == []
    late = session.receive(3.6, *frame_in(reader, wire.SNAPSHOT, 4, {"classes": EMPTY_6, "counts": [1, 6, 0, 0]}))
    assert late.events == [EncoderSteps(3.6, 1, 1)]  # the snapshot brings what was real, once


def test_bad_payload_is_logged_and_asks_for_a_snapshot(caplog):
    session, reader = up_session()
    with caplog.at_level(logging.WARNING):
        step = session.receive(0.0, wire.HOLE, 2, b"\x0d")
    assert step.events == [] and sent_names(step.frames) == ["request_snapshot"]
    assert "bad message from the MCU (seq 2): hole payload has 1 bytes, expected 2; asking for a snapshot" in caplog.messages


def test_out_of_range_hole_is_ignored_with_a_message(caplog):
    session, _ = up_session()
    with caplog.at_level(logging.WARNING):
        step = session.receive(0.0, wire.HOLE, 2, wire.pack_hole(40, wire.NORTH))
    assert step.events == []
    assert "ignoring a message from the MCU: hole event for hole 40, a 6x6 board has 0..35" in caplog.messages


def test_unanswered_snapshot_request_is_repeated_once_per_timeout():
    session, _ = up_session()
    assert sent_names(session.tick(1.0).frames) == ["request_snapshot"]
    assert session.tick(1.5).frames == []
    assert sent_names(session.tick(2.0).frames) == ["request_snapshot"]
    assert session.tick(3.0).drop == "no data from the board MCU for 3.0 s"


def test_unknown_message_type_is_skipped_without_a_resync(caplog):
    session, _ = up_session()
    with caplog.at_level(logging.INFO):
        step = session.receive(0.0, 0x30, 2, b"new")
    assert step.frames == [] and step.events == []
    assert "ignoring message type 0x30 from the MCU (seq 2): not known to this host" in caplog.messages


def test_lost_snapshot_after_hello_is_asked_for():
    session = LinkSession(6, COLOURS)
    session.opened(0.0)
    hello = wire.encode_message(wire.HELLO, 0, {"protocol": 1, "size": 6, "caps": 3, "reset_cause": 1,
                                                "boot_id": 1, "firmware": "t"})
    session.receive(0.2, *wire.FrameReader().feed(hello)[0])
    assert session.tick(0.5).frames == []
    assert sent_names(session.tick(1.2).frames) == ["request_snapshot"]


def test_presence_only_mcu_on_a_colour_profile_is_warned_about(caplog):
    session = LinkSession(6, COLOURS)
    session.opened(0.0)
    hello = wire.encode_message(wire.HELLO, 0, {"protocol": 1, "size": 6, "caps": wire.CAP_ENCODERS,
                                                "reset_cause": 1, "boot_id": 1, "firmware": "t"})
    with caplog.at_level(logging.WARNING):
        session.receive(0.0, *wire.FrameReader().feed(hello)[0])
    assert ('the hardware profile names colours (polarity sensing) but the board MCU senses presence '
            'only, so every marble reads "marble": fix the profile\'s sensing or the MCU config') in caplog.messages


def test_no_hello_drops_with_a_hint_to_flash():
    session = LinkSession(6, COLOURS)
    assert sent_names(session.opened(0.0).frames) == ["connect"]
    assert sent_names(session.tick(1.0).frames) == ["connect"]
    assert session.tick(3.0).drop == ("no hello from the board MCU within 3.0 s: is it running the pentago "
                                      "firmware? If not, reflash it with `pentago-board firmware flash`")


event_frames = st.lists(st.one_of(
    st.builds(lambda h, c: (wire.HOLE, {"hole": h, "cls": c}), st.integers(0, 35), st.integers(0, 4)),
    st.builds(lambda b, s: (wire.ENCODER, {"block": b, "steps": s}), st.integers(1, 4), st.integers(-5, 5).filter(bool)),
), max_size=20)
junk = st.binary(max_size=30).map(lambda b: b.replace(b"\x00", b""))


@settings(max_examples=60, deadline=None)
@given(event_frames, st.lists(junk, min_size=21, max_size=21))
def test_garbage_interleaved_with_events_yields_exactly_their_events(messages, junks):
    session, reader = up_session()
    stream = b"".join(j + wire.encode_message(mtype, seq, fields)
                      for seq, (j, (mtype, fields)) in enumerate(zip(junks, messages), start=2)) + junks[-1]
    # A frame every 0.1 s: at most 5 detents each, as fast as a hand turns (see link/hand.py).
    steps = [session.receive(n * 0.1, *frame) for n, frame in enumerate(reader.feed(stream))]
    expected, reported = [], ["empty"] * 36
    for n, (mtype, fields) in enumerate(messages):  # a plain model: holes report changes, encoders every step
        if mtype == wire.ENCODER:
            expected.append(EncoderSteps(n * 0.1, fields["block"], fields["steps"]))
        elif reported[fields["hole"]] != READINGS[fields["cls"]]:
            reported[fields["hole"]] = READINGS[fields["cls"]]
            expected.append(HoleReading(n * 0.1, fields["hole"], reported[fields["hole"]]))
    assert [e for step in steps for e in step.events] == expected
    assert all(step.frames == [] for step in steps)  # no gap, no false alarm
