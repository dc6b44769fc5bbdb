"""Frames as readable text, and a transport that records every frame of a session to a file.

One line per frame: who sent it, the message name, its sequence number and its fields as JSON.
Bad frames are recorded too, with why they were dropped. The recording is what a bug report
attaches and what the golden tests compare against; :class:`ReplayTransport` plays one back.

>>> line = format_frame("mcu", wire.HOLE, 3, {"hole": 13, "cls": 2})
>>> line
'mcu> hole seq=3 {"hole": 13, "cls": 2}'
>>> parse_frame(line) == ("mcu", wire.HOLE, 3, {"hole": 13, "cls": 2})
True
"""

from __future__ import annotations

import json
import struct
import threading
import time
from typing import IO, Any, Protocol

from pentago_firmware import wire

from ...errors import LinkError

SENDERS = ("pi", "mcu")


class Transport(Protocol):
    """The part of a pyserial port the link uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


def format_frame(sender: str, mtype: int, seq: int, fields: dict[str, Any]) -> str:
    """One frame as a transcript line."""
    return f"{sender}> {wire.NAMES[mtype]} seq={seq} {json.dumps(fields)}"


def parse_frame(line: str) -> tuple[str, int, int, dict[str, Any]]:
    """``(sender, type, seq, fields)`` from a :func:`format_frame` line; raises LinkError."""
    try:
        head, name, seq, fields = line.split(" ", 3)
        sender, mtype = head.removesuffix(">"), wire.TYPES[name]
        if sender not in SENDERS or not seq.startswith("seq=") or not 0 <= int(seq[4:]) <= 255:
            raise ValueError("bad sender or seq")
        values = json.loads(fields)
        if not isinstance(values, dict):
            raise ValueError("fields are not a JSON object")
        return sender, mtype, int(seq[4:]), values
    except (ValueError, KeyError) as error:
        raise LinkError(f"not a transcript line ({error}): {line!r}") from None


def frame_of(line: str) -> bytes:
    """The bytes of the frame a :func:`format_frame` line describes; raises LinkError.

    >>> frame_of('mcu> hole seq=3 {"hole": 13, "cls": 2}').hex()
    '000903030d02cad1176a00'
    """
    _sender, mtype, seq, fields = parse_frame(line)
    try:
        return bytes(wire.encode_message(mtype, seq, fields))
    except (TypeError, ValueError, AttributeError, OverflowError, struct.error) as error:
        raise LinkError(f"transcript line does not make a {wire.NAMES[mtype]} frame ({error}): {line!r}") from None


class FrameLog:
    """Decodes one direction's bytes into transcript lines written to ``out``."""

    def __init__(self, sender: str, out: IO[str], lock: threading.Lock) -> None:
        self.sender, self.out, self.lock = sender, out, lock
        self.reader = wire.FrameReader()

    def record(self, data: bytes) -> None:
        pieces = bytes(data).split(b"\x00")
        lines: list[str] = []
        # One delimiter at a time, so a dropped frame's line lands where it was in the stream.
        for i, piece in enumerate(pieces):
            rejected = self.reader.rejected
            frames = self.reader.feed(piece + b"\x00" if i < len(pieces) - 1 else piece)
            lines += [self._line(mtype, seq, payload) for mtype, seq, payload in frames]
            if self.reader.rejected != rejected:
                lines.append(f"{self.sender}! dropped a bad frame: {self.reader.last_error}")
        with self.lock:
            self.out.writelines(line + "\n" for line in lines)
            self.out.flush()

    def _line(self, mtype: int, seq: int, payload: bytes) -> str:
        try:
            return format_frame(self.sender, mtype, seq, wire.decode_payload(mtype, payload))
        except wire.WireError as error:
            return f"{self.sender}! {error}"


class RecordingTransport:
    """A port that writes a transcript of every frame to ``out`` as it passes.

    Example::

        link = SerialLink(port, 6, colours, opener=recording_opener("session.txt"))
    """

    def __init__(self, inner: Transport, out: IO[str], *, close_out: bool = False) -> None:
        self.inner, self.out, self.close_out = inner, out, close_out
        lock = threading.Lock()
        self._sent, self._received = FrameLog("pi", out, lock), FrameLog("mcu", out, lock)

    @property
    def in_waiting(self) -> int:
        return self.inner.in_waiting

    def read(self, size: int = 1) -> bytes:
        data = self.inner.read(size)
        self._received.record(data)
        return data

    def write(self, data: bytes) -> int | None:
        self._sent.record(data)
        return self.inner.write(data)

    def close(self) -> None:
        self.inner.close()
        if self.close_out:
            self.out.close()


class ReplayTransport:
    """A port that plays the MCU's side of a transcript and records what the host writes.

    Klipper-style regression: replay a recorded session (or a user's bug report) through the
    real driver, then compare the host's new lines with the recorded ones. A dropped-frame line
    is replayed as a junk byte, so the host sees a bad frame where the recording had one.
    """

    def __init__(self, lines: list[str], out: IO[str], *, idle_s: float = 0.01) -> None:
        self._data = b"".join(self._bytes(line) for line in lines)
        self._sent = FrameLog("pi", out, threading.Lock())
        self.idle_s = idle_s

    @staticmethod
    def _bytes(line: str) -> bytes:
        if line.startswith("mcu!"):
            return b"?"
        return frame_of(line) if line.startswith("mcu>") else b""

    @property
    def in_waiting(self) -> int:
        return len(self._data)

    def read(self, size: int = 1) -> bytes:
        if not self._data:
            time.sleep(self.idle_s)  # what a serial read with a timeout does when nothing comes
        data, self._data = self._data[:size], self._data[size:]
        return data

    def write(self, data: bytes) -> int:
        self._sent.record(data)
        return len(data)

    def close(self) -> None:
        """Nothing to release: the transcript is in memory."""


def recording_opener(path: str, opener: Any = None) -> Any:
    """An ``opener`` for SerialLink that records each connection to ``path`` (appending)."""

    def open_recording(url: str, **kwargs: Any) -> RecordingTransport:
        import serial  # only when recording a real port; tests pass their own opener

        port = (opener or serial.serial_for_url)(url, **kwargs)
        return RecordingTransport(port, open(path, "a", encoding="utf-8"), close_out=True)

    return open_recording
