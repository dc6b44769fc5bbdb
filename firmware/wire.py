"""The serial link's wire format, loaded by both sides: the MCU as ``import wire``, the Pi as
``from pentago_firmware import wire``. PROTOCOL.md explains it; protocol-vectors.json pins it.

A frame is ``0x00 COBS(type, seq, payload, crc32) 0x00``: the zero byte only ever delimits
frames, so a reader resynchronises at the next zero after any garbage (REPL text, a half-sent
frame), and the leading zero cuts off any junk written just before the frame.
This file must stay portable MicroPython: no typing, enum, dataclasses or sibling imports.

Example (host or MCU)::

    frame = encode_message(HOLE, 7, {"hole": 14, "cls": NORTH})
    reader = FrameReader()
    for mtype, seq, payload in reader.feed(frame):
        fields = decode_payload(mtype, payload)   # {"hole": 14, "cls": 2}
"""

import struct

try:
    from binascii import crc32 as _builtin_crc32
except ImportError:  # a MicroPython build without binascii
    _builtin_crc32 = None

PROTOCOL_VERSION = 1

# Message types. MCU -> host below 0x40, host -> MCU from 0x40, so a frame echoed back by a
# REPL is recognised as the host's own and ignored.
HELLO = 0x01
SNAPSHOT = 0x02
HOLE = 0x03
ENCODER = 0x04
HEARTBEAT = 0x05
ACK = 0x06
LOG = 0x07
CONNECT = 0x41
REQUEST_SNAPSHOT = 0x42
CALIBRATE = 0x43
SET_CONFIG = 0x44
PING = 0x45

NAMES = {
    HELLO: "hello", SNAPSHOT: "snapshot", HOLE: "hole", ENCODER: "encoder",
    HEARTBEAT: "heartbeat", ACK: "ack", LOG: "log", CONNECT: "connect",
    REQUEST_SNAPSHOT: "request_snapshot", CALIBRATE: "calibrate", SET_CONFIG: "set_config",
    PING: "ping",
}
TYPES = {name: code for code, name in NAMES.items()}

# Hole classes the MCU reports. Presence boards report MARBLE; polarity boards NORTH/SOUTH
# (magnet pole up) or UNSURE between the threshold bands.
EMPTY = 0
MARBLE = 1
NORTH = 2
SOUTH = 3
UNSURE = 4
CLASS_NAMES = ("empty", "marble", "north", "south", "unsure")

# Capability bits in the hello.
CAP_POLARITY = 0x01
CAP_ENCODERS = 0x02

# Reset causes in the hello (from machine.reset_cause()).
RESET_UNKNOWN = 0
RESET_POWER_ON = 1
RESET_WATCHDOG = 2
RESET_SOFT = 3
RESET_HARD = 4
RESET_NAMES = ("unknown", "power-on", "watchdog", "soft", "hard")

# Ack status codes.
OK = 0
UNKNOWN_MESSAGE = 1
BAD_PAYLOAD = 2
UNKNOWN_KEY = 3
BAD_VALUE = 4
FAILED = 5
STATUS_NAMES = ("ok", "unknown message", "bad payload", "unknown key", "bad value", "failed")

# What CALIBRATE asks for.
CALIBRATE_EMPTY = 0  # the board is empty now: record every sensor's baseline

# Settings the firmware understands (SET_CONFIG key -> meaning). Unknown keys get UNKNOWN_KEY.
CONFIG_KEYS = {
    "debounce_scans": "scans a hole must read the same class before it is reported",
    "scan_ms": "milliseconds between two scans of all holes",
    "heartbeat_ms": "milliseconds between heartbeats",
    "north_threshold": "ADC counts above the baseline that read NORTH",
    "south_threshold": "ADC counts below the baseline that read SOUTH",
}

HEADER_LEN = 2  # type, seq
CRC_LEN = 4
MAX_BODY = 250  # type + seq + payload + crc; the largest message (9x9 snapshot) is 125
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 1
MAX_TEXT = 200  # log text and firmware version bytes
COUNT_WRAP = 0x100000000  # encoder counts are signed 32-bit and wrap (PROTOCOL.md, **count**)


class WireError(ValueError):
    """A frame or payload that does not decode; the message says what and where."""


def _table_crc32(data, crc=0):
    """CRC-32 (the ZIP/Ethernet one) without binascii, bit by bit: MCU traffic is tiny."""
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def crc32(data):
    """CRC-32 of ``data`` as an unsigned int, same value as ``binascii.crc32`` and zlib."""
    if _builtin_crc32 is None:
        return _table_crc32(data)
    return _builtin_crc32(data) & 0xFFFFFFFF


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` without any zero byte, one byte longer
    (plus one per 254 bytes). Each block starts with a code: the distance to the next zero."""
    out = bytearray(b"\x00")
    code_at = 0
    last = len(data) - 1
    for i in range(len(data)):
        byte = data[i]
        if byte:
            out.append(byte)
            # A full block (254 data bytes) closes early, but not at the very end of the data.
            if len(out) - code_at < 0xFF or i == last:
                continue
        out[code_at] = len(out) - code_at
        code_at = len(out)
        out.append(0)
    out[code_at] = len(out) - code_at
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raises WireError on a zero byte or a block past the end."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        end = i + code
        if code == 0 or end > len(data):
            raise WireError("bad COBS block at byte %d" % i)
        out.extend(data[i + 1:end])
        i = end
        if code < 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def encode_frame(mtype, seq, payload=b""):
    """The bytes to write for one message: the COBS body between two 0x00 delimiters."""
    body = bytes((mtype, seq & 0xFF)) + bytes(payload)
    body += struct.pack("<I", crc32(body))
    if len(body) > MAX_BODY:
        raise WireError("%s payload of %d bytes is too long" % (NAMES.get(mtype, mtype), len(payload)))
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_frame(encoded):
    """``(type, seq, payload)`` from the bytes between two delimiters; raises WireError."""
    body = cobs_decode(encoded)
    if len(body) < HEADER_LEN + CRC_LEN:
        raise WireError("frame of %d bytes is too short" % len(body))
    if len(body) > MAX_BODY:
        raise WireError("frame of %d bytes is too long" % len(body))
    (sent_crc,) = struct.unpack("<I", body[-CRC_LEN:])
    if crc32(body[:-CRC_LEN]) != sent_crc:
        raise WireError("CRC mismatch in a frame of %d bytes" % len(body))
    return body[0], body[1], body[HEADER_LEN:-CRC_LEN]


class FrameReader:
    """Splits a byte stream into frames, dropping whatever does not decode.

    ``feed(data)`` returns the good frames as ``(type, seq, payload)``; ``rejected`` counts the
    dropped ones and ``last_error`` says why the last one was dropped. Empty frames (two zero
    bytes in a row) are not errors: every frame starts with a zero to end any junk before it.
    However the bytes are split into ``feed`` calls, the frames, count and errors are the same:
    a run of more than MAX_ENCODED bytes between zeros is one rejection, whether it came in one
    read or many.
    """

    def __init__(self):
        self._buffer = b""
        self._overflow = False
        self.rejected = 0
        self.last_error = ""

    def feed(self, data):
        frames = []
        data = bytes(data)
        start = 0
        end = data.find(b"\x00", start)
        while end >= 0:
            self._finish(self._buffer + data[start:end], frames)
            self._buffer = b""
            start = end + 1
            end = data.find(b"\x00", start)
        self._keep(data[start:])
        return frames

    def _keep(self, tail):
        # Bound the buffer: a stream with no zero byte (a REPL banner, noise) must not grow it.
        if self._overflow or len(self._buffer) + len(tail) > MAX_ENCODED:
            self._overflow = True
            self._buffer = b""
        else:
            self._buffer += tail

    def _finish(self, encoded, frames):
        if self._overflow or len(encoded) > MAX_ENCODED:
            self._overflow = False
            self._reject("more than %d bytes without a delimiter" % MAX_ENCODED)
        elif encoded:
            try:
                frames.append(decode_frame(encoded))
            except WireError as error:
                self._reject(str(error))

    def _reject(self, why):
        self.rejected += 1
        self.last_error = why


def _expect_len(name, payload, length):
    if len(payload) != length:
        raise WireError("%s payload has %d bytes, expected %d" % (name, len(payload), length))


def _text(name, payload):
    try:
        return bytes(payload).decode("utf-8")
    except UnicodeError:
        raise WireError("%s text is not UTF-8" % name)


def _clip(text):
    """``text`` as UTF-8 of at most MAX_TEXT bytes, never cut inside a character."""
    data = text.encode()
    if len(data) <= MAX_TEXT:
        return data
    end = MAX_TEXT
    while data[end] & 0xC0 == 0x80:  # a continuation byte: the cut would split a character
        end -= 1
    return data[:end]


def pack_hello(size, caps, reset_cause, boot_id, firmware, protocol=PROTOCOL_VERSION):
    """The MCU describes itself. ``protocol`` stays the first byte in every version."""
    return struct.pack("<BBBBI", protocol, size, caps, reset_cause, boot_id) + _clip(firmware)


def unpack_hello(payload):
    if len(payload) < 8:
        raise WireError("hello payload has %d bytes, expected at least 8" % len(payload))
    protocol, size, caps, reset_cause, boot_id = struct.unpack("<BBBBI", payload[:8])
    return {"size": size, "caps": caps, "reset_cause": reset_cause, "boot_id": boot_id,
            "firmware": _text("hello", payload[8:]), "protocol": protocol}


def wrap_count(count):
    """``count`` as the signed 32-bit encoder count it wraps to: one step past 2**31 - 1 is
    -2**31. Both sides add steps with it, and the steps between two counts are
    ``wrap_count(new - old)``, right across the wrap.

    >>> wrap_count(2**31 - 1 + 1), wrap_count(-2**31 - 2**31 + 1)
    (-2147483648, 1)
    """
    return (count + COUNT_WRAP // 2) % COUNT_WRAP - COUNT_WRAP // 2


def pack_snapshot(classes, counts):
    """Every hole's class (board order, a1 = 0) and every block's cumulative encoder count,
    each a signed 32-bit value (see :func:`wrap_count`)."""
    return (bytes((len(classes), len(counts))) + bytes(classes)
            + struct.pack("<%di" % len(counts), *counts))


def unpack_snapshot(payload):
    if len(payload) < 2:
        raise WireError("snapshot payload has %d bytes, expected at least 2" % len(payload))
    holes, blocks = payload[0], payload[1]
    _expect_len("snapshot", payload, 2 + holes + 4 * blocks)
    counts = struct.unpack("<%di" % blocks, payload[2 + holes:])
    return {"classes": list(payload[2:2 + holes]), "counts": list(counts)}


def state_hash(classes, counts):
    """What a heartbeat carries: the CRC-32 of the snapshot payload for this state."""
    return crc32(pack_snapshot(classes, counts))


def pack_hole(hole, cls):
    return struct.pack("<BB", hole, cls)


def unpack_hole(payload):
    _expect_len("hole", payload, 2)
    return {"hole": payload[0], "cls": payload[1]}


def pack_encoder(block, steps):
    """``steps`` detents since the last encoder event of this block; positive is clockwise."""
    return struct.pack("<Bh", block, steps)


def unpack_encoder(payload):
    _expect_len("encoder", payload, 3)
    block, steps = struct.unpack("<Bh", payload)
    return {"block": block, "steps": steps}


def pack_heartbeat(state_hash):
    return struct.pack("<I", state_hash)


def unpack_heartbeat(payload):
    _expect_len("heartbeat", payload, 4)
    return {"state_hash": struct.unpack("<I", payload)[0]}


def pack_ack(ref_seq, status):
    return struct.pack("<BB", ref_seq, status)


def unpack_ack(payload):
    _expect_len("ack", payload, 2)
    return {"ref_seq": payload[0], "status": payload[1]}


def pack_log(text):
    return _clip(text)


def unpack_log(payload):
    return {"text": _text("log", payload)}


def pack_connect(protocol=PROTOCOL_VERSION):
    return struct.pack("<B", protocol)


def unpack_connect(payload):
    _expect_len("connect", payload, 1)
    return {"protocol": payload[0]}


def pack_empty():
    return b""


def unpack_empty(payload):
    _expect_len("this", payload, 0)
    return {}


def pack_calibrate(kind=CALIBRATE_EMPTY):
    return struct.pack("<B", kind)


def unpack_calibrate(payload):
    _expect_len("calibrate", payload, 1)
    return {"kind": payload[0]}


def pack_set_config(key, value):
    """One setting: a signed 32-bit ``value`` then the ASCII ``key`` (see CONFIG_KEYS)."""
    return struct.pack("<i", value) + key.encode()


def unpack_set_config(payload):
    if len(payload) < 5:
        raise WireError("set_config payload has %d bytes, expected at least 5" % len(payload))
    return {"key": _text("set_config", payload[4:]), "value": struct.unpack("<i", payload[:4])[0]}


PACKERS = {
    HELLO: pack_hello, SNAPSHOT: pack_snapshot, HOLE: pack_hole, ENCODER: pack_encoder,
    HEARTBEAT: pack_heartbeat, ACK: pack_ack, LOG: pack_log, CONNECT: pack_connect,
    REQUEST_SNAPSHOT: pack_empty, CALIBRATE: pack_calibrate, SET_CONFIG: pack_set_config,
    PING: pack_empty,
}
UNPACKERS = {
    HELLO: unpack_hello, SNAPSHOT: unpack_snapshot, HOLE: unpack_hole, ENCODER: unpack_encoder,
    HEARTBEAT: unpack_heartbeat, ACK: unpack_ack, LOG: unpack_log, CONNECT: unpack_connect,
    REQUEST_SNAPSHOT: unpack_empty, CALIBRATE: unpack_calibrate,
    SET_CONFIG: unpack_set_config, PING: unpack_empty,
}


def encode_message(mtype, seq, fields=None):
    """One frame from a message type and its fields as a dict (the unpacker's keys)."""
    return encode_frame(mtype, seq, PACKERS[mtype](**(fields or {})))


def decode_payload(mtype, payload):
    """The fields of a frame's payload as a dict; raises WireError for an unknown type."""
    if mtype not in UNPACKERS:
        raise WireError("unknown message type 0x%02x" % mtype)
    return UNPACKERS[mtype](payload)
