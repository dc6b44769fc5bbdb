"""Portable test table: the firmware's own message encoder (link.py) against the shared
protocol vectors, byte for byte; request parsing; mpremote's knock."""

import json
from binascii import hexlify, unhexlify

import wire
from link import Link

# Link method per MCU message type, taking the vector's fields in the wire's packer order.
SENDERS = {
    "hello": lambda link, f: link.hello(f["size"], f["caps"], f["reset_cause"], f["boot_id"],
                                        f["firmware"]),
    "snapshot": lambda link, f: link.snapshot(f["classes"], f["counts"]),
    "hole": lambda link, f: link.hole(f["hole"], f["cls"]),
    "encoder": lambda link, f: link.encoder(f["block"], f["steps"]),
    "heartbeat": lambda link, f: link.heartbeat(f["state_hash"]),
    "ack": lambda link, f: link.ack(f["ref_seq"], f["status"]),
    "log": lambda link, f: link.log(f["text"]),
}


def vectors():
    folder = wire.__file__.rsplit("/", 1)[0] if "/" in wire.__file__ else "."
    with open(folder + "/protocol-vectors.json") as f:
        return json.load(f)


class Sink:
    def __init__(self):
        self.frames = []

    def __call__(self, data):
        self.frames.append(bytes(data))


def test_every_mcu_message_matches_its_vector_byte_for_byte():
    checked = set()
    for vector in vectors()["frames"]:
        if vector["type"] not in SENDERS:
            continue
        sink = Sink()
        link = Link(sink)
        link.seq = vector["seq"]
        SENDERS[vector["type"]](link, vector["fields"])
        assert hexlify(sink.frames[0]).decode() == vector["hex"], vector["name"]
        assert link.seq == (vector["seq"] + 1) & 0xFF
        checked.add(vector["type"])
    assert checked == set(SENDERS), checked


def test_requests_from_the_vectors_are_received():
    link = Link(Sink())
    wanted = [v for v in vectors()["frames"] if wire.TYPES[v["type"]] >= wire.CONNECT]
    stream = b"".join(unhexlify(v["hex"]) for v in wanted)
    got = link.receive(stream)
    assert [(wire.NAMES[t], s) for t, s, _ in got] == [(v["type"], v["seq"]) for v in wanted]
    assert not link.wants_repl


def test_echoed_mcu_frames_and_garbage_are_not_requests():
    link = Link(Sink())
    echo = wire.encode_message(wire.HOLE, 3, {"hole": 13, "cls": wire.NORTH})
    assert link.receive(b"junk\r\n>>> " + echo) == []
    assert link.rejected == 1


def test_mpremote_knock_after_a_frame_or_at_boot():
    link = Link(Sink())
    link.receive(wire.encode_message(wire.PING, 0))
    assert not link.wants_repl
    link.receive(b"\r")
    link.receive(b"\x03")
    assert link.wants_repl
    fresh = Link(Sink())
    fresh.receive(b"\r\x03")
    assert fresh.wants_repl


def test_no_knock_inside_frames():
    # A Pi frame can hold \r\x03 in its body (here a set_config value 0x030d), never at its start.
    link = Link(Sink())
    frame = wire.encode_message(wire.SET_CONFIG, 13, {"key": "scan_ms", "value": 0x030D})
    assert b"\r\x03" in frame
    for i in range(len(frame)):
        link.receive(frame[i:i + 1])
    assert not link.wants_repl
    late = Link(Sink())
    late.receive(b"garbage\r\x03")    # not right after a delimiter: someone's text, not mpremote
    assert not late.wants_repl


def oversize_request(body_len):
    """A ping whose body (type, seq, padding, CRC) is ``body_len`` bytes, CRC and COBS right."""
    body = bytes((wire.PING, 5)) + b"p" * (body_len - 6)
    crc = wire.crc32(body)
    body += bytes((crc & 0xFF, (crc >> 8) & 0xFF, (crc >> 16) & 0xFF, crc >> 24))
    return b"\x00" + wire.cobs_encode(body) + b"\x00"


def test_an_oversize_request_is_dropped_in_one_read_or_many():
    ping = wire.encode_message(wire.PING, 6)
    for body_len in (wire.MAX_BODY + 1, 1012):
        stream = oversize_request(body_len) + ping
        for size in (len(stream), 64, 1):
            link = Link(Sink())
            got = []
            for i in range(0, len(stream), size):
                got += link.receive(stream[i:i + size])
            assert [(t, s) for t, s, _ in got] == [(wire.PING, 6)], (body_len, size)
            assert link.rejected == 1, (body_len, size)
    link = Link(Sink())
    assert [s for _, s, _ in link.receive(oversize_request(wire.MAX_BODY))] == [5]
