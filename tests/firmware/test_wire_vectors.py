"""The wire codec against firmware/protocol-vectors.json (the bytes both sides must agree on),
plus round-trip and garbage properties of the framing."""

import binascii
import json
import struct
import subprocess
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pentago_firmware import wire

VECTORS = json.loads(resources.files("pentago_firmware").joinpath("protocol-vectors.json").read_text())


def by_name(section):
    return pytest.mark.parametrize("vector", VECTORS[section], ids=[v["name"] for v in VECTORS[section]])


def test_vectors_are_for_this_protocol_version():
    assert VECTORS["protocol_version"] == wire.PROTOCOL_VERSION


@by_name("frames")
def test_message_encodes_to_the_vector_bytes(vector):
    frame = wire.encode_message(wire.TYPES[vector["type"]], vector["seq"], vector["fields"])
    assert frame.hex() == vector["hex"]


@by_name("frames")
def test_vector_bytes_decode_to_the_message(vector):
    reader = wire.FrameReader()
    [(mtype, seq, payload)] = reader.feed(bytes.fromhex(vector["hex"]))
    assert (wire.NAMES[mtype], seq) == (vector["type"], vector["seq"])
    assert wire.decode_payload(mtype, payload) == vector["fields"]
    assert reader.rejected == 0


@by_name("bad_frames")
def test_bad_frame_is_rejected(vector):
    reader = wire.FrameReader()
    assert reader.feed(bytes.fromhex(vector["hex"])) == []
    assert reader.rejected >= 1 and reader.last_error


@by_name("bad_payloads")
def test_bad_payload_is_refused_with_a_clear_error(vector):
    [(mtype, _seq, payload)] = wire.FrameReader().feed(bytes.fromhex(vector["hex"]))
    with pytest.raises(wire.WireError) as caught:
        wire.decode_payload(mtype, payload)
    assert str(caught.value) == vector["error"]


@by_name("streams")
def test_stream_yields_exactly_its_messages(vector):
    reader = wire.FrameReader()
    got = [{"type": wire.NAMES[t], "seq": s, "fields": wire.decode_payload(t, p)}
           for t, s, p in reader.feed(bytes.fromhex(vector["hex"]))]
    assert got == vector["messages"]
    assert reader.rejected == vector["rejected"]


@by_name("streams")
def test_stream_fed_one_byte_at_a_time_gives_the_same_messages(vector):
    reader = wire.FrameReader()
    data = bytes.fromhex(vector["hex"])
    frames = [frame for i in range(len(data)) for frame in reader.feed(data[i:i + 1])]
    assert [(wire.NAMES[t], s) for t, s, _ in frames] == [(m["type"], m["seq"]) for m in vector["messages"]]


@by_name("count_wraps")
def test_count_wraps_to_signed_32_bits(vector):
    assert wire.wrap_count(vector["count"] + vector["steps"]) == vector["wrapped"]


def oversize_frame(body_len, seq=7):
    """A log frame whose body (type, seq, payload, CRC) is ``body_len`` bytes, CRC and COBS right."""
    body = bytes((wire.LOG, seq)) + bytes(1 + i % 255 for i in range(body_len - 6))
    return b"\x00" + wire.cobs_encode(body + struct.pack("<I", wire.crc32(body))) + b"\x00"


def feed_in_pieces(stream, cuts):
    """What a reader makes of ``stream`` cut at ``cuts``: frames, rejected count, last error."""
    reader, frames, start = wire.FrameReader(), [], 0
    for end in sorted(set(cuts)) + [len(stream)]:
        frames += reader.feed(stream[start:end])
        start = end
    return frames, reader.rejected, reader.last_error


@pytest.mark.parametrize("body_len", [wire.MAX_BODY + 1, 1012, 100_000])
@pytest.mark.parametrize("split", ["one read", "two reads", "4 kB reads"])
def test_oversize_frame_is_rejected_however_it_arrives(body_len, split):
    good = wire.encode_message(wire.HOLE, 1, {"hole": 13, "cls": wire.NORTH})
    stream = good + oversize_frame(body_len) + good
    cuts = {"one read": [], "two reads": [len(stream) // 2], "4 kB reads": range(0, len(stream), 4096)}[split]
    frames, rejected, why = feed_in_pieces(stream, list(cuts))
    assert [(t, s) for t, s, _ in frames] == [(wire.HOLE, 1), (wire.HOLE, 1)]
    assert (rejected, why) == (1, "more than %d bytes without a delimiter" % wire.MAX_ENCODED)


def test_largest_body_still_passes():
    [(mtype, _seq, payload)] = wire.FrameReader().feed(oversize_frame(wire.MAX_BODY))
    assert mtype == wire.LOG and len(payload) == wire.MAX_BODY - 6
    with pytest.raises(wire.WireError, match="frame of 251 bytes is too long"):
        wire.decode_frame(oversize_frame(wire.MAX_BODY + 1)[1:-1])


pieces = st.one_of(
    st.binary(max_size=30),
    st.sampled_from([b"\x00", b"\x00\x00", b"Traceback (most recent call last):\r\n>>> "]),
    st.builds(lambda n: oversize_frame(n), st.integers(wire.MAX_BODY - 3, wire.MAX_BODY + 300)),
    st.builds(lambda h, s: wire.encode_message(wire.HOLE, s, {"hole": h, "cls": 2}), st.integers(0, 80),
              st.integers(0, 255)),
)


@given(st.lists(pieces, max_size=10), st.lists(st.integers(0, 3000), max_size=8))
def test_how_a_stream_is_split_never_changes_what_is_read(parts, cuts):
    stream = b"".join(parts)
    whole = feed_in_pieces(stream, [])
    assert feed_in_pieces(stream, [c for c in cuts if c < len(stream)]) == whole
    assert feed_in_pieces(stream, range(len(stream))) == whole


def test_crc_without_binascii_matches_binascii():
    for data in (b"", b"123456789", bytes(range(256))):
        assert wire._table_crc32(data) == binascii.crc32(data)


def test_state_hash_is_the_crc_of_the_snapshot_payload():
    classes, counts = [0] * 35 + [wire.SOUTH], [1, 0, -1, 0]
    assert wire.state_hash(classes, counts) == binascii.crc32(wire.pack_snapshot(classes, counts))


def test_oversized_payload_is_refused():
    with pytest.raises(wire.WireError, match="log payload of 300 bytes is too long"):
        wire.encode_frame(wire.LOG, 0, b"x" * 300)


@given(st.binary(max_size=600))
def test_cobs_round_trip_never_contains_zero(data):
    encoded = wire.cobs_encode(data)
    assert 0 not in encoded
    assert wire.cobs_decode(encoded) == data


classes = st.lists(st.integers(0, 4), min_size=36, max_size=81)
counts = st.lists(st.integers(-2**31, 2**31 - 1), min_size=4, max_size=9)
messages = st.one_of(
    st.builds(lambda h, c: (wire.HOLE, {"hole": h, "cls": c}), st.integers(0, 80), st.integers(0, 4)),
    st.builds(lambda b, s: (wire.ENCODER, {"block": b, "steps": s}), st.integers(1, 9), st.integers(-32768, 32767)),
    st.builds(lambda h: (wire.HEARTBEAT, {"state_hash": h}), st.integers(0, 2**32 - 1)),
    st.builds(lambda c, n: (wire.SNAPSHOT, {"classes": c, "counts": n}), classes, counts),
    st.builds(lambda t: (wire.LOG, {"text": t}), st.text(max_size=40)),
    st.builds(lambda k, v: (wire.SET_CONFIG, {"key": k, "value": v}),
              st.sampled_from(sorted(wire.CONFIG_KEYS)), st.integers(-2**31, 2**31 - 1)),
    st.builds(lambda s, c, r, b, f: (wire.HELLO, {"size": s, "caps": c, "reset_cause": r, "boot_id": b,
                                                   "firmware": f, "protocol": wire.PROTOCOL_VERSION}),
              st.sampled_from([6, 9]), st.integers(0, 3), st.integers(0, 4), st.integers(0, 2**32 - 1),
              st.text(max_size=20)),
)


@given(messages, st.integers(0, 255))
def test_message_round_trip(message, seq):
    mtype, fields = message
    [(got_type, got_seq, payload)] = wire.FrameReader().feed(wire.encode_message(mtype, seq, fields))
    assert (got_type, got_seq, wire.decode_payload(got_type, payload)) == (mtype, seq, fields)


# Garbage as a REPL or a noisy line would produce it: anything but the zero delimiter.
garbage = st.one_of(st.binary(max_size=40).map(lambda b: b.replace(b"\x00", b"")),
                    st.just(b"Traceback (most recent call last):\r\n"), st.just(b">>> "))


@given(st.lists(st.tuples(garbage, messages), max_size=12), garbage)
def test_garbage_between_frames_yields_exactly_the_frames(pairs, tail):
    stream = b"".join(junk + wire.encode_message(mtype, i, fields)
                      for i, (junk, (mtype, fields)) in enumerate(pairs)) + tail
    got = [(t, s, wire.decode_payload(t, p)) for t, s, p in wire.FrameReader().feed(stream)]
    assert got == [(mtype, i, fields) for i, (_junk, (mtype, fields)) in enumerate(pairs)]


@given(st.binary(max_size=400))
def test_random_bytes_never_pass_as_a_frame(data):
    # A random 4-byte CRC matches with odds 2**-32 per candidate: a failure here is a codec bug.
    assert wire.FrameReader().feed(data) == []


# The same vectors inside real MicroPython (WebAssembly build under Node, installed by
# `npm ci` in tests/firmware/mpy): proves wire.py is portable, not just CPython-correct.
MPY_PACKAGE = (Path(__file__).parent / "mpy" / "node_modules" / "@micropython"
               / "micropython-webassembly-pyscript" / "micropython.mjs")
MPY_CHECK = '''
import sys, json, binascii
sys.path.append("/")
import wire
v = json.load(open("/vectors.json"))
hexed = lambda b: binascii.hexlify(b).decode()
for f in v["frames"]:
    assert hexed(wire.encode_message(wire.TYPES[f["type"]], f["seq"], f["fields"])) == f["hex"], f["name"]
    [(t, s, p)] = wire.FrameReader().feed(binascii.unhexlify(f["hex"]))
    assert wire.decode_payload(t, p) == f["fields"], f["name"]
for f in v["bad_frames"]:
    r = wire.FrameReader()
    assert r.feed(binascii.unhexlify(f["hex"])) == [] and r.rejected, f["name"]
for f in v["streams"]:
    got = [(wire.NAMES[t], s) for t, s, p in wire.FrameReader().feed(binascii.unhexlify(f["hex"]))]
    assert got == [(m["type"], m["seq"]) for m in f["messages"]], f["name"]
for f in v["count_wraps"]:
    assert wire.wrap_count(f["count"] + f["steps"]) == f["wrapped"], f["name"]
assert wire._table_crc32(b"123456789") == 0xCBF43926
print("checked", len(v["frames"]), len(v["bad_frames"]), len(v["streams"]), len(v["count_wraps"]))
'''
MPY_RUNNER = '''
import { loadMicroPython } from %s;
import fs from "fs";
let out = "";
const mp = await loadMicroPython({ stdout: (l) => { out += l + "\\n"; }, stderr: (l) => { out += l + "\\n"; } });
mp.FS.writeFile("/wire.py", fs.readFileSync(%s));
mp.FS.writeFile("/vectors.json", fs.readFileSync(%s));
try { mp.runPython(%s); } catch (e) { out += "error: " + e + "\\n"; }
process.stdout.write(out);
'''


def test_vectors_pass_inside_micropython():
    assert MPY_PACKAGE.exists(), f"{MPY_PACKAGE} missing: run `npm ci` in tests/firmware/mpy"
    firmware = resources.files("pentago_firmware")
    script = MPY_RUNNER % tuple(json.dumps(str(s)) for s in (
        MPY_PACKAGE.as_uri(), firmware / "wire.py", firmware / "protocol-vectors.json", MPY_CHECK))
    result = subprocess.run(["node", "--input-type=module", "-e", script],
                            capture_output=True, text=True, timeout=120)
    # The WebAssembly CLI exits 0 even on a Python exception: judge by the output.
    counts = tuple(len(VECTORS[k]) for k in ("frames", "bad_frames", "streams", "count_wraps"))
    assert result.stdout.strip() == "checked %d %d %d %d" % counts, result.stdout + result.stderr


def transcript_pairs():
    """(message line, bytes line) pairs of PROTOCOL.md's transcript, skipping abbreviated bytes."""
    lines = resources.files("pentago_firmware").joinpath("PROTOCOL.md").read_text().splitlines()
    return [(head, data) for head, data in zip(lines, lines[1:])
            if head.startswith(("pi  >", "mcu >")) and "(" not in data]


def test_protocol_md_transcript_bytes_are_the_messages_they_claim():
    pairs = transcript_pairs()
    assert len(pairs) >= 10
    for head, data in pairs:
        _sender, _arrow, name, seq, *fields = head.split()
        [(mtype, got_seq, payload)] = wire.FrameReader().feed(bytes.fromhex(data))
        assert (wire.NAMES[mtype], "seq=%d" % got_seq) == (name, seq), head
        decoded = wire.decode_payload(mtype, payload)
        for field in fields:  # the fields the line spells out as key=number
            key, _, value = field.partition("=")
            if key in decoded and (value.lstrip("+-").isdigit() or value.startswith("0x")):
                assert decoded[key] == int(value, 0), head


@given(st.text(min_size=0, max_size=300))
def test_long_text_is_clipped_on_a_character_boundary(text):
    # A log line cut inside a multi-byte character would be refused as not UTF-8 by the Pi.
    clipped = wire.unpack_log(wire.pack_log(text))["text"]
    assert text.startswith(clipped)
    assert len(clipped.encode()) <= wire.MAX_TEXT
    assert len(clipped.encode()) > wire.MAX_TEXT - 4 or clipped == text
