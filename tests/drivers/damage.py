"""Ways a frame is damaged between the MCU and the Pi, for the hostile-input tests and
bench/robustness/link_corruption.py. Each takes a frame's body (the COBS bytes between its two
zero delimiters) and a ``random.Random``, and returns bytes that are not that body: bit errors,
lost, extra or replaced bytes, a frame cut short or joined mid-way (an unplug), a zero inside
(the frame splits), a stale CRC, or a body padded past the size limit with a good CRC.

Example::

    body = wire.encode_message(wire.HOLE, 3, {"hole": 13, "cls": wire.SOUTH})[1:-1]
    stream = b"\\x00" + damage(body, random.Random(1))[1] + b"\\x00"
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable

from pentago_firmware import wire


def _different(byte: int, rng: random.Random) -> int:
    return (byte + rng.randrange(1, 256)) & 0xFF


def flip_bits(body: bytes, rng: random.Random) -> bytes:
    """One to three distinct bits flipped: line noise."""
    out = bytearray(body)
    for bit in rng.sample(range(8 * len(body)), min(8 * len(body), rng.randint(1, 3))):
        out[bit // 8] ^= 1 << bit % 8
    return bytes(out)


def substitute(body: bytes, rng: random.Random) -> bytes:
    """One byte replaced by any other value, zero included (then the frame splits)."""
    i = rng.randrange(len(body))
    return body[:i] + bytes([_different(body[i], rng)]) + body[i + 1:]


def burst(body: bytes, rng: random.Random) -> bytes:
    """A run of up to eight bytes overwritten with random ones (at least one changed)."""
    i = rng.randrange(len(body))
    run = bytearray(rng.randbytes(min(len(body) - i, rng.randint(2, 8))))
    run[0] = _different(body[i], rng)
    return body[:i] + bytes(run) + body[i + len(run):]


def delete(body: bytes, rng: random.Random) -> bytes:
    """One to three bytes lost (a buffer overrun)."""
    i = rng.randrange(len(body))
    return body[:i] + body[i + rng.randint(1, 3):]


def insert(body: bytes, rng: random.Random) -> bytes:
    """One to eight random bytes added strictly inside (at either end a zero would only be an
    extra delimiter)."""
    i = rng.randrange(1, len(body)) if len(body) > 1 else 1
    return body[:i] + rng.randbytes(rng.randint(1, 8)) + body[i:]


def truncate(body: bytes, rng: random.Random) -> bytes:
    """The first part only: the MCU was unplugged or reset mid-frame."""
    return body[:rng.randrange(len(body))]


def tail_only(body: bytes, rng: random.Random) -> bytes:
    """The last part only: the Pi started reading mid-frame."""
    return body[rng.randrange(1, len(body) + 1):] if len(body) > 1 else b""


def zero_inside(body: bytes, rng: random.Random) -> bytes:
    """A zero byte strictly inside: the frame splits in two pieces, neither whole."""
    i = rng.randrange(1, len(body)) if len(body) > 1 else 1
    return body[:i] + b"\x00" + body[i:]


def swap(body: bytes, rng: random.Random) -> bytes:
    """Two neighbouring bytes that differ swapped."""
    places = [i for i in range(len(body) - 1) if body[i] != body[i + 1]]
    if not places:
        return substitute(body, rng)
    i = rng.choice(places)
    return body[:i] + body[i + 1:i + 2] + body[i:i + 1] + body[i + 2:]


def stale_crc(body: bytes, rng: random.Random) -> bytes:
    """Type, seq, payload or CRC changed and COBS redone: well framed, wrong check."""
    return wire.cobs_encode(substitute(wire.cobs_decode(body), rng))


def oversize(body: bytes, rng: random.Random) -> bytes:
    """Padded past MAX_BODY with the CRC recomputed: only the size limit can refuse it."""
    content = wire.cobs_decode(body)[:-wire.CRC_LEN]
    content += bytes(rng.randrange(1, 256) for _ in range(wire.MAX_BODY - len(content) + rng.randint(1, 800)))
    return wire.cobs_encode(content + struct.pack("<I", wire.crc32(content)))


KINDS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    f.__name__: f for f in (flip_bits, substitute, burst, delete, insert, truncate, tail_only, zero_inside,
                            swap, stale_crc, oversize)
}


def damage(body: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One kind of damage, chosen at random: ``(kind, damaged bytes)``, never ``body`` itself."""
    kind = rng.choice(sorted(KINDS))
    damaged = KINDS[kind](body, rng)
    return kind, damaged if damaged != body else substitute(body, rng)


def corrupt_bytes(body: bytes, rng: random.Random, count: int) -> bytes:
    """``count`` single-byte corruptions (replaced, lost or added) at distinct places."""
    out = bytearray(body)
    for i in sorted(rng.sample(range(len(body)), min(count, len(body))), reverse=True):
        how = rng.randrange(3)
        if how == 0:
            out[i] = _different(out[i], rng)
        elif how == 1:
            del out[i]
        else:  # not a zero in front: that would only be an extra delimiter
            out.insert(i, rng.randrange(1 if i == 0 else 0, 256))
    return bytes(out) if bytes(out) != body else substitute(body, rng)
