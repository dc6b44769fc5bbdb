"""Whatever a peer sends, the host side of the serial link never raises and never believes a
frame whose check failed: arbitrary bytes, arbitrary payloads behind a good CRC, and damaged
frames among good ones, into the frame reader, the protocol session and the transcript."""

from __future__ import annotations

import io
import json
import random
import threading

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.drivers.link.session import LinkSession
from controller.drivers.link.transcript import FrameLog, ReplayTransport
from controller.errors import LinkError
from controller.events import EncoderSteps, HoleReading, LinkChange
from pentago_firmware import wire

from .damage import KINDS, corrupt_bytes, damage

COLOURS = {"north": "white", "south": "black"}
EMPTY_6 = [wire.EMPTY] * 36


def hello(boot_id: int = 1) -> bytes:
    return wire.encode_message(wire.HELLO, 0, {"protocol": 1, "size": 6, "caps": 3, "reset_cause": 1,
                                               "boot_id": boot_id, "firmware": "t"})


def session_in(state: str) -> LinkSession:
    """A session in ``state``: closed, handshake (connect sent), syncing (hello seen) or up."""
    session = LinkSession(6, COLOURS)
    if state == "closed":
        return session
    session.opened(0.0)
    frames = {"handshake": [], "syncing": [hello()],
              "up": [hello(), wire.encode_message(wire.SNAPSHOT, 1, {"classes": EMPTY_6, "counts": [0] * 4})]}
    for frame in frames[state]:
        session.receive(0.0, *wire.FrameReader().feed(frame)[0])
    assert session.state == state
    return session


def run(session: LinkSession, stream: bytes, cuts: list[int]) -> list:
    """Feed ``stream`` cut at ``cuts`` through a reader into the session; the events out."""
    reader, events, start = wire.FrameReader(), [], 0
    for t, end in enumerate(sorted(set(c for c in cuts if c < len(stream))) + [len(stream)]):
        for frame in reader.feed(stream[start:end]):
            events += session.receive(t * 0.01, *frame).events
        events += session.tick(t * 0.01).events
        start = end
    return events


states = st.sampled_from(["closed", "handshake", "syncing", "up"])
cuts = st.lists(st.integers(0, 2000), max_size=6)


@settings(max_examples=300, deadline=None)
@given(states, st.binary(max_size=2000), cuts)
def test_arbitrary_bytes_never_raise_and_never_make_an_event(state, data, where):
    # Random bytes pass a CRC-32 with odds of 2**-32 per candidate frame: an event is a bug.
    assert run(session_in(state), data, where) == []


int32 = st.one_of(st.integers(-2**31, 2**31 - 1), st.sampled_from([2**31 - 1, -2**31]))
seqs = st.integers(0, 255)
# Each type with payloads that unpack (extreme values included) and payloads that do not.
typed = st.one_of(
    st.tuples(st.just(wire.HOLE), st.builds(wire.pack_hole, st.integers(0, 255), st.integers(0, 255))),
    st.tuples(st.just(wire.ENCODER), st.builds(wire.pack_encoder, st.integers(0, 10), st.integers(-32768, 32767))),
    st.tuples(st.just(wire.HEARTBEAT), st.builds(wire.pack_heartbeat, st.integers(0, 2**32 - 1))),
    st.tuples(st.just(wire.ACK), st.builds(wire.pack_ack, st.integers(0, 255), st.integers(0, 255))),
    st.tuples(st.just(wire.SNAPSHOT), st.builds(wire.pack_snapshot, st.lists(st.integers(0, 4), min_size=36, max_size=36),
                                                st.lists(int32, min_size=4, max_size=4))),
    st.tuples(st.just(wire.SNAPSHOT), st.builds(wire.pack_snapshot, st.lists(st.integers(0, 255), max_size=81),
                                                st.lists(int32, max_size=9))),
    st.tuples(st.just(wire.HELLO), st.builds(lambda c, r, b: wire.pack_hello(6, c, r, b, "x"), st.integers(0, 255),
                                             st.integers(0, 255), st.integers(0, 2**32 - 1))),
    st.tuples(st.integers(0, 255), st.binary(max_size=300)),
)
messages = st.lists(st.builds(lambda typed, seq: (typed[0], seq, typed[1]), typed, seqs), max_size=30)


@settings(max_examples=300, deadline=None)
@given(states, messages)
def test_any_payload_behind_a_good_crc_never_raises(state, sent):
    # A peer can send any type, seq and payload with a valid check: refused, never raised.
    session = session_in(state)
    for t, (mtype, seq, payload) in enumerate(sent):
        session.receive(float(t), mtype, seq, payload)
        session.tick(float(t))
    assert 0 <= session.mirror.state_hash() < 2**32


# What damaged frames would say if they were believed: things the board never does here
# (south marbles, turns, a reboot), so any such event is a damaged frame accepted.
poison = st.one_of(
    st.builds(lambda h: (wire.HOLE, {"hole": h, "cls": wire.SOUTH}), st.integers(0, 35)),
    st.builds(lambda b, s: (wire.ENCODER, {"block": b, "steps": s}), st.integers(1, 4),
              st.integers(-5, 5).filter(bool)),
    st.just((wire.SNAPSHOT, {"classes": [wire.SOUTH] * 36, "counts": [1, 2, 3, 4]})),
    st.just((wire.HELLO, {"protocol": 1, "size": 6, "caps": 3, "reset_cause": 2, "boot_id": 99, "firmware": "t"})),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), poison), max_size=25), cuts, st.randoms(use_true_random=False))
def test_damaged_frames_among_good_ones_are_never_believed(plan, where, rng):
    session, stream, expected = session_in("up"), b"", []
    for seq, (damaged, (mtype, fields)) in enumerate(plan, start=2):
        if damaged:
            body = wire.encode_message(mtype, seq, fields)[1:-1]
            stream += b"\x00" + (damage(body, rng)[1] if seq % 3 else corrupt_bytes(body, rng, 3)) + b"\x00"
        else:  # a good frame: b3 or e4 gets a north marble
            hole = 13 if seq % 2 else 22
            stream += wire.encode_message(wire.HOLE, seq, {"hole": hole, "cls": wire.NORTH})
            if HoleReading(0.0, hole, "white") not in expected:
                expected.append(HoleReading(0.0, hole, "white"))
    events = run(session, stream, where)
    assert not [e for e in events if isinstance(e, EncoderSteps | LinkChange)]
    assert [(e.hole, e.reading) for e in events] == [(e.hole, e.reading) for e in expected]
    assert session.state == "up"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600), st.integers(0, 255), st.integers(0, 255), st.binary(max_size=40))
def test_the_transcript_records_anything_without_raising(junk, mtype, seq, payload):
    out = io.StringIO()
    log = FrameLog("mcu", out, threading.Lock())
    log.record(junk)
    log.record(wire.encode_frame(mtype, seq, payload))
    assert out.getvalue().count("\n") >= 1


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_of_damage_is_refused_by_the_reader(kind):
    rng = random.Random(kind)
    for seq in range(200):
        body = wire.encode_message(wire.SNAPSHOT if seq % 2 else wire.HOLE, seq,
                                   {"classes": EMPTY_6, "counts": [seq, 0, 0, -seq]} if seq % 2
                                   else {"hole": seq % 36, "cls": wire.SOUTH})[1:-1]
        damaged = KINDS[kind](body, rng)
        assert damaged != body
        assert wire.FrameReader().feed(b"\x00" + damaged + b"\x00") == []


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=8)
transcript_lines = st.one_of(
    st.text(max_size=60),
    st.builds(lambda name, seq, fields: f"mcu> {name} seq={seq} {json.dumps(fields)}",
              st.sampled_from(sorted(wire.TYPES)), st.integers(-5, 300),
              st.dictionaries(st.sampled_from(["hole", "cls", "block", "steps", "text", "classes", "counts",
                                               "state_hash", "ref_seq", "status", "size"]), json_values, max_size=3)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(transcript_lines, max_size=5))
def test_a_transcript_to_replay_is_read_or_refused_with_a_link_error(lines):
    # A user's recording is outside input: any damage to it is a LinkError naming the line.
    try:
        ReplayTransport(lines, io.StringIO())
    except LinkError as error:
        assert "transcript line" in str(error)
