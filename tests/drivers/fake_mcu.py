"""A scripted board MCU on a pty pair, for testing the host side of the serial link.

The link opens ``mcu.port`` (a symlink to the pty's slave end, as udev gives /dev/pentago-mcu);
the fake holds the master end. A test scripts the conversation::

    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot()])
    link.start(events.append)
    mcu.assert_done()

``unplug()`` closes the master (the link sees a real read error) and ``plug()`` makes a new pty
behind the same path, as replugging a Pico does. ``answer(type, reply)`` sets a standing answer
for a request the script does not expect (the robustness benches keep a live board behind it).
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pentago_firmware import wire

WAIT_S = 10.0  # generous: a loaded CI machine may stall a thread for seconds


def wait_for(predicate, timeout_s: float = WAIT_S, what: str = "condition") -> None:
    """Poll ``predicate`` until true; fail with ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.005)


class FakeMcu:
    """The MCU end of the link: answers expected requests with scripted replies.

    ``expect(sent, replies)`` queues one expected host message (a type, or ``(type, fields)``)
    and the bytes written back when it arrives; ``answer(type, reply)`` answers every other
    message of that type with ``reply(seq, fields)``. Anything else the host sends is recorded
    in ``unexpected``; ``assert_done()`` fails on it or on an expectation never met. Hold
    ``lock`` to build and send frames that must not interleave with the fake's own answers.
    """

    def __init__(self, directory: Path, size: int = 6, boot_id: int = 0x1234ABCD) -> None:
        self.port = str(directory / "pentago-mcu")
        self.size, self.boot_id, self.seq = size, boot_id, 0
        self.received: list[tuple[int, int, dict[str, Any]]] = []
        self.unexpected: list[str] = []
        self._script: deque[tuple[Any, list[bytes]]] = deque()
        self._standing: dict[int, Callable[[int, dict[str, Any]], list[bytes]]] = {}
        self.lock = threading.RLock()
        self._master = self._slave = -1
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.plug()

    # The pty ---------------------------------------------------------------------------------

    def plug(self) -> None:
        """A new pty behind ``port``; the fake keeps the slave open, like a present device."""
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)  # send() waits with a deadline, never for ever
        tmp = self.port + ".new"
        os.symlink(os.ttyname(self._slave), tmp)
        os.replace(tmp, self.port)
        self.plugged_at = time.monotonic()  # the port is there from now on
        self._stop.clear()
        self._reader = wire.FrameReader()
        self._thread = threading.Thread(target=self._serve, name="fake-mcu", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Close the master end: the host's next read fails as on a USB unplug."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(WAIT_S)
        os.close(self._master)
        self.unplugged_at = time.monotonic()  # the host's reads fail from now on
        os.close(self._slave)
        os.unlink(self.port)
        self._master = self._slave = -1

    def close(self) -> None:
        if self._master >= 0:
            self.unplug()

    def send(self, *chunks: bytes) -> None:
        """Write bytes (frames, garbage) to the host now, all of them (a pty takes ~4 kB a go);
        TimeoutError if the host reads nothing for WAIT_S (it stopped, or hangs)."""
        data = memoryview(b"".join(chunks))
        with self.lock:
            while data:
                if not select.select([], [self._master], [], WAIT_S)[1]:
                    raise TimeoutError(f"the host read nothing for {WAIT_S} s")
                try:
                    data = data[os.write(self._master, data):]
                except BlockingIOError:
                    continue

    # Scripting ---------------------------------------------------------------------------------

    def expect(self, sent: int | tuple[int, dict[str, Any]], replies: list[bytes] | tuple[bytes, ...] = ()) -> None:
        with self.lock:
            self._script.append((sent, list(replies)))

    def answer(self, mtype: int, reply: Callable[[int, dict[str, Any]], list[bytes]]) -> None:
        """Answer every ``mtype`` the script does not expect with the frames ``reply(seq, fields)``."""
        with self.lock:
            self._standing[mtype] = reply

    def assert_done(self, timeout_s: float = WAIT_S) -> None:
        """Every expected message arrived, and nothing else did."""
        wait_for(lambda: not self._script or self.unexpected, timeout_s,
                 f"the host to send {[self._describe(s) for s, _ in self._script]}")
        assert not self.unexpected, f"the host sent unexpected messages: {self.unexpected}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.02)
            if ready:
                try:
                    data = os.read(self._master, 4096)
                except (BlockingIOError, OSError):  # nothing after all; EIO: the host closed its end
                    continue
                for mtype, seq, payload in self._reader.feed(data):
                    self._answer(mtype, seq, wire.decode_payload(mtype, payload))

    def _answer(self, mtype: int, seq: int, fields: dict[str, Any]) -> None:
        with self.lock:
            self.received.append((mtype, seq, fields))
            if self._script and self._matches(self._script[0][0], mtype, fields):
                self.send(*self._script.popleft()[1])
            elif mtype in self._standing:
                self.send(*self._standing[mtype](seq, fields))
            else:
                self.unexpected.append(f"{wire.NAMES[mtype]} {fields}")

    @staticmethod
    def _matches(sent: Any, mtype: int, fields: dict[str, Any]) -> bool:
        return sent == mtype or sent == (mtype, fields)

    @staticmethod
    def _describe(sent: Any) -> str:
        return wire.NAMES[sent] if isinstance(sent, int) else f"{wire.NAMES[sent[0]]} {sent[1]}"

    # Frames the MCU sends, numbered with its own sequence ---------------------------------------

    def frame(self, mtype: int, fields: dict[str, Any] | None = None) -> bytes:
        frame = wire.encode_message(mtype, self.seq, fields or {})
        self.seq = (self.seq + 1) & 0xFF
        return frame

    def hello(self, protocol: int = wire.PROTOCOL_VERSION, size: int | None = None,
              reset_cause: int = wire.RESET_POWER_ON) -> bytes:
        return self.frame(wire.HELLO, {
            "protocol": protocol, "size": size or self.size, "caps": wire.CAP_POLARITY | wire.CAP_ENCODERS,
            "reset_cause": reset_cause, "boot_id": self.boot_id, "firmware": "0.1.0-fake"})

    def snapshot(self, classes: list[int] | None = None, counts: list[int] | None = None) -> bytes:
        classes = classes or [wire.EMPTY] * (self.size * self.size)
        counts = counts or [0] * ((self.size // 3) ** 2)
        return self.frame(wire.SNAPSHOT, {"classes": classes, "counts": counts})

    def hole(self, hole: int, cls: int) -> bytes:
        return self.frame(wire.HOLE, {"hole": hole, "cls": cls})

    def encoder(self, block: int, steps: int) -> bytes:
        return self.frame(wire.ENCODER, {"block": block, "steps": steps})

    def heartbeat(self, classes: list[int], counts: list[int]) -> bytes:
        return self.frame(wire.HEARTBEAT, {"state_hash": wire.state_hash(classes, counts)})

    def reboot(self, boot_id: int) -> None:
        """Forget the sequence, as a restarted MCU does; frames built next start from seq 0."""
        self.boot_id, self.seq = boot_id, 0
