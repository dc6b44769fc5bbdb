"""The Pi's side of the link protocol, without I/O: frames and clock readings in, events and
frames to send out (see firmware/PROTOCOL.md, "What each side does").

:class:`LinkSession` never touches a port or a thread, so every rule (handshake, gap, hash
mismatch, silence, reset) is a plain method call; :class:`~controller.drivers.serial_link.SerialLink`
wraps it with the port, the reader thread and the reconnect loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pentago_firmware import wire

from ...errors import LinkError
from ...events import InputEvent, LinkChange
from ...repeats import Repeats
from .hand import TURNS_PER_S, HandLimit
from .mirror import BoardMirror

log = logging.getLogger("controller.drivers.serial_link")

REFLASH = "reflash it with `pentago-board firmware flash`"
DEAD_AFTER_TIMEOUTS = 3  # silence this many heartbeat timeouts long means the link is down


@dataclass
class Step:
    """What the driver must do after a session call: emit, write, and maybe close the port."""

    events: list[InputEvent] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)
    drop: str = ""  # non-empty: close the port and reconnect, for this reason
    # The MCU cannot be served as it is (its hello): close the port, say what is wrong and what
    # to do, and try again with backoff: someone may reflash it or fix the profile meanwhile.
    refused: LinkError | None = None

    def add(self, other: Step) -> Step:
        self.events += other.events
        self.frames += other.frames
        self.drop = self.drop or other.drop
        self.refused = self.refused or other.refused
        return self


class LinkSession:
    """Protocol state for one MCU across reconnects: closed -> handshake -> syncing -> up.

    ``heartbeat_timeout_s`` of silence asks for a snapshot; three times that drops the link.

    Encoder counts are believed only when a hand can have turned them (:mod:`.hand`, with the
    profile's ``detents_per_quarter``) and only while no snapshot is awaited: an encoder event
    that arrives out of sequence, or while the board's state is in doubt, may be an old one
    replayed, so its steps wait for the snapshot, which carries them if they were real.
    """

    def __init__(self, size: int, colours: Mapping[str, str], heartbeat_timeout_s: float = 1.0,
                 detents_per_quarter: int = 6) -> None:
        self.mirror = BoardMirror(size, colours)
        self.hand = HandLimit(self.mirror.block_count, detents_per_quarter)
        self._impossible = Repeats(log)  # a count no hand can make, logged once while it recurs
        self.timeout_s = heartbeat_timeout_s
        self.state = "closed"
        self.hello: dict[str, Any] = {}
        self._announced: bool | None = None  # the last LinkChange emitted: up, down, or none yet
        self._down_reason = ""  # the reason the last LinkChange down gave
        self._expected_seq: int | None = None
        self._host_seq = 0
        self._requests: dict[int, str] = {}  # host seq -> request name, to name a failed ack
        self._last_rx = 0.0
        self._asked_at: float | None = None  # when the pending snapshot was asked for

    # Port life cycle -------------------------------------------------------------------------

    def opened(self, now: float) -> Step:
        """The port is open: start the handshake."""
        self.state, self._expected_seq, self._last_rx, self._asked_at = "handshake", None, now, now
        return Step(frames=[self.request(wire.CONNECT, {"protocol": wire.PROTOCOL_VERSION})])

    def closed(self, now: float, reason: str) -> Step:
        """The port is gone (unplug, read error, our own drop): tell the core once."""
        self.state, self._asked_at = "closed", None
        return self._announce(now, False, reason)

    def request(self, mtype: int, fields: Mapping[str, Any] | None = None) -> bytes:
        """The frame for a request to the MCU, numbered with the host's own sequence."""
        seq, self._host_seq = self._host_seq, (self._host_seq + 1) & 0xFF
        self._requests[seq] = wire.NAMES[mtype]  # at most 256 entries: seq wraps
        return bytes(wire.encode_message(mtype, seq, dict(fields or {})))

    # Incoming frames ---------------------------------------------------------------------------

    def receive(self, now: float, mtype: int, seq: int, payload: bytes) -> Step:
        """One good frame from the port."""
        if mtype >= wire.CONNECT:
            return Step()  # our own request echoed back (a REPL with echo on): not the MCU
        self._last_rx = now
        if mtype == wire.HELLO:
            return self._hello(now, seq, payload)
        if self.state == "handshake":
            return Step()  # traffic from before our connect was answered; the snapshot covers it
        step = self._check_seq(now, seq)
        if mtype not in wire.UNPACKERS:
            # Newer firmware may add messages without a new protocol version: skip, don't resync.
            log.info("ignoring message type 0x%02x from the MCU (seq %d): not known to this host", mtype, seq)
            return step
        try:
            fields = wire.decode_payload(mtype, payload)
        except wire.WireError as error:
            log.warning("bad message from the MCU (seq %d): %s; asking for a snapshot", seq, error)
            return step.add(self._ask_snapshot(now))
        return step.add(self._dispatch(now, mtype, fields))

    def _check_seq(self, now: float, seq: int) -> Step:
        expected, self._expected_seq = self._expected_seq, (seq + 1) & 0xFF
        if expected is None or seq == expected:
            return Step()
        log.warning("MCU frames lost: expected seq %d, got %d; asking for a snapshot", expected, seq)
        return self._ask_snapshot(now)

    def _dispatch(self, now: float, mtype: int, fields: dict[str, Any]) -> Step:
        handlers: dict[int, Callable[..., Step]] = {
            wire.SNAPSHOT: self._snapshot, wire.HOLE: self._hole, wire.ENCODER: self._encoder,
            wire.HEARTBEAT: self._heartbeat, wire.ACK: self._ack, wire.LOG: self._log,
        }
        return handlers[mtype](now, **fields)

    def _hello(self, now: float, seq: int, payload: bytes) -> Step:
        if payload[:1] != bytes([wire.PROTOCOL_VERSION]):
            theirs = payload[0] if payload else "unknown"
            return self._refuse(now, f"the board MCU speaks protocol {theirs}, this pentago-board "
                                     f"speaks {wire.PROTOCOL_VERSION}: {REFLASH}")
        try:
            hello = wire.unpack_hello(payload)
        except wire.WireError as error:
            return self._refuse(now, f"the board MCU sent a hello that does not decode ({error}): {REFLASH}")
        if hello["size"] != self.mirror.size:
            return self._refuse(
                now, f"the board MCU is set up for a {hello['size']}x{hello['size']} board but the hardware "
                f"profile says {self.mirror.size}x{self.mirror.size}: fix the profile's size or the MCU config")
        self._expected_seq = (seq + 1) & 0xFF
        return self._new_hello(now, hello)

    def _refuse(self, now: float, reason: str) -> Step:
        """A hello the host cannot serve: the link goes down saying why (again, when the reason
        is new: the page and the LEDs show the newest), and the driver retries with backoff."""
        self.state = "closed"
        step = Step(refused=LinkError(reason))
        if self._announced is not False or self._down_reason != reason:
            self._announced, self._down_reason = False, reason
            step.events.append(LinkChange(now, False, reason))
        return step

    def _new_hello(self, now: float, hello: dict[str, Any]) -> Step:
        rebooted = bool(self.hello) and hello["boot_id"] != self.hello["boot_id"]
        if self.state == "up" and not rebooted:
            return Step()  # the same MCU saying hello twice (e.g. boot hello then our connect's)
        step = self._rebooted(now, hello) if rebooted else Step()
        if self.state == "handshake" or rebooted:
            self._describe(hello)
        self.hello, self.state, self._asked_at = hello, "syncing", now  # its snapshot follows
        return step

    def _rebooted(self, now: float, hello: dict[str, Any]) -> Step:
        cause = wire.RESET_NAMES[hello["reset_cause"]] if hello["reset_cause"] < len(wire.RESET_NAMES) else "unknown"
        log.warning("the board MCU restarted (%s reset); resyncing", cause)
        self.mirror.new_boot()  # its counts began again at zero
        return self._announce(now, False, f"MCU reset ({cause})")

    def _describe(self, hello: dict[str, Any]) -> None:
        log.info("board MCU: firmware %s, protocol %d, %dx%d, caps 0x%02x",
                 hello["firmware"], hello["protocol"], hello["size"], hello["size"], hello["caps"])
        if self.mirror.has_colours and not hello["caps"] & wire.CAP_POLARITY:
            log.warning("the hardware profile names colours (polarity sensing) but the board MCU "
                        "senses presence only, so every marble reads \"marble\": fix the profile's "
                        "sensing or the MCU config")

    def _snapshot(self, now: float, classes: list[int], counts: list[int]) -> Step:
        problem = self.mirror.check_snapshot(classes, counts)
        if problem:
            log.warning("ignoring a snapshot from the MCU: %s", problem)
            return Step()
        self._asked_at = None
        step = Step(events=self.mirror.apply_snapshot(now, classes, counts, believe=lambda block, steps:
                                                      self._believed(now, block, steps)))
        if self.state == "syncing":
            self.state = "up"
            step.add(self._announce(now, True, "MCU connected"))
        return step

    def _hole(self, now: float, hole: int, cls: int) -> Step:
        if self.state != "up":
            return Step()
        problem = self.mirror.check_hole(hole, cls)
        if problem:
            log.warning("ignoring a message from the MCU: %s", problem)
            return Step()
        return Step(events=self.mirror.apply_hole(now, hole, cls))

    def _encoder(self, now: float, block: int, steps: int) -> Step:
        if self.state != "up":
            return Step()
        problem = self.mirror.check_block(block)
        if problem:
            log.warning("ignoring a message from the MCU: %s", problem)
            return Step()
        if self._asked_at is not None:
            return Step()  # in doubt (a gap, a mismatch): the snapshot asked for brings the count
        if not self._believed(now, block, steps):
            return self._ask_snapshot(now)
        return Step(events=self.mirror.apply_encoder(now, block, steps))

    def _believed(self, now: float, block: int, steps: int) -> bool:
        """True if a hand can have turned ``block`` by ``steps`` detents by ``now``; else the
        count is a fault, logged (once while it recurs) and passed on as no turn at all."""
        if self.hand.allows(block, steps, now):
            self._impossible.clear()
            return True
        self._impossible.say(f"the MCU counts more turning of a block than a hand can do (block {block}: "
                             f"{steps:+d} detents; a hand turns at most {TURNS_PER_S:g} times a second): "
                             "taken as no turn, asking for a snapshot")
        return False

    def _heartbeat(self, now: float, state_hash: int) -> Step:
        if self.state != "up" or self._asked_at is not None or state_hash == self.mirror.state_hash():
            return Step()
        log.warning("MCU state hash %08x differs from ours (%08x); asking for a snapshot",
                    state_hash, self.mirror.state_hash())
        return self._ask_snapshot(now)

    def _ack(self, now: float, ref_seq: int, status: int) -> Step:
        name = self._requests.pop(ref_seq, f"request {ref_seq}")
        if status != wire.OK:
            why = wire.STATUS_NAMES[status] if status < len(wire.STATUS_NAMES) else f"status {status}"
            log.warning("the board MCU refused %s (seq %d): %s", name, ref_seq, why)
        return Step()

    def _log(self, now: float, text: str) -> Step:
        log.info("board MCU says: %s", text)
        return Step()

    # Time ----------------------------------------------------------------------------------

    def tick(self, now: float) -> Step:
        """Time passed with or without frames: handle silence and unanswered requests."""
        silent_s = now - self._last_rx
        if self.state == "closed":
            return Step()
        if silent_s >= DEAD_AFTER_TIMEOUTS * self.timeout_s:
            return Step(drop=self._silence_reason(silent_s))
        if self.state == "handshake":
            return self._retry_connect(now)
        if self._asked_at is not None:
            return self._ask_snapshot(now) if now - self._asked_at >= self.timeout_s else Step()
        if silent_s >= self.timeout_s:
            log.warning("no heartbeat from the MCU for %.1f s; asking for a snapshot", silent_s)
            return self._ask_snapshot(now)
        return Step()

    def _silence_reason(self, silent_s: float) -> str:
        if self.state == "handshake":
            return (f"no hello from the board MCU within {silent_s:.1f} s: is it running the "
                    f"pentago firmware? If not, {REFLASH}")
        return f"no data from the board MCU for {silent_s:.1f} s"

    def _retry_connect(self, now: float) -> Step:
        if self._asked_at is not None and now - self._asked_at < self.timeout_s:
            return Step()
        self._asked_at = now
        return Step(frames=[self.request(wire.CONNECT, {"protocol": wire.PROTOCOL_VERSION})])

    def _ask_snapshot(self, now: float) -> Step:
        if self._asked_at is not None and now - self._asked_at < self.timeout_s:
            return Step()  # already asked; the snapshot will come
        self._asked_at = now
        return Step(frames=[self.request(wire.REQUEST_SNAPSHOT)])

    def _announce(self, now: float, up: bool, reason: str) -> Step:
        if self._announced == up:
            return Step()
        self._announced, self._down_reason = up, "" if up else reason
        return Step(events=[LinkChange(now, up, reason)])
