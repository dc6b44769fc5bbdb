"""Build B's input driver: the board MCU (an RP2040 running firmware/) on USB serial.

Speaks firmware/PROTOCOL.md through :mod:`controller.drivers.link.session`; this module adds the
port, the reader thread and the reconnect loop. Imports pyserial at its top, so only the factory
imports it, and only for a profile with ``driver = "mcu"``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import serial

from pentago_firmware import wire

from ..errors import LinkError
from ..repeats import Repeats
from ..events import LinkChange
from .base import Emit
from .link.backoff import Backoff
from .link.session import LinkSession, Step
from .link.transcript import Transport

log = logging.getLogger(__name__)

Opener = Callable[..., Transport]
PORT_ERRORS = (serial.SerialException, OSError)


class SerialLink:
    """Holes, encoders and link state from the board MCU over USB serial.

    Wiring: the Pico's USB port to any USB port of the Pi; udev names it (systemd/ installs a rule
    for ``/dev/pentago-mcu``). The Pico's GPIOs, multiplexers and encoders are wired as in
    hardware/, and its config on flash maps them to board holes and blocks.

    ``port`` is a device path or any pyserial URL (tests use a pty path). ``colours`` maps
    ``"north"``/``"south"`` to colour names (the profile's ``colours``; empty for presence
    sensing). ``clock`` stamps events and times silence; ``heartbeat_timeout_s`` of silence asks
    for a snapshot and three times that reopens the port. After a failure the port is reopened
    after ``reconnect.delay_s(n)`` seconds, slept with ``sleep`` (by default interruptible by
    :meth:`stop`). A hello the host cannot serve (another protocol, another board size, one that
    does not decode) is refused the same way: the link goes down saying what is wrong and what to
    do, :attr:`error` holds it until the link comes up, and the port is reopened with backoff,
    since someone may reflash the MCU or fix the profile; a reason that comes back at every
    retry is logged once. ``detents_per_quarter`` (the profile's) bounds the encoder counts a hand can make (see
    :mod:`~controller.drivers.link.hand`). ``opener`` builds the port (``serial.serial_for_url`` by default;
    :func:`~controller.drivers.link.transcript.recording_opener` records a transcript).

    Example::

        link = SerialLink("/dev/pentago-mcu", 6, {"north": "white", "south": "black"})
        link.start(queue.put)
        link.wait_up(5.0)        # raises LinkError e.g. when the firmware needs a reflash
        link.set_config("debounce_scans", 4)
        link.stop()
    """

    def __init__(self, port: str, size: int, colours: Mapping[str, str], *, baud: int = 115200,
                 clock: Callable[[], float] = time.monotonic, heartbeat_timeout_s: float = 1.0,
                 reconnect: Backoff = Backoff(), opener: Opener | None = None,
                 sleep: Callable[[float], Any] | None = None, poll_s: float = 0.02,
                 detents_per_quarter: int = 6) -> None:
        self.port, self.baud, self.poll_s = port, baud, poll_s
        self.clock, self.reconnect = clock, reconnect
        self.error: LinkError | None = None  # the MCU's hello refused, until the link comes up
        self.rejected_frames = 0  # bad frames dropped so far, for `doctor` and the bench
        self._session = LinkSession(size, colours, heartbeat_timeout_s, detents_per_quarter)
        self._opener: Opener = opener or serial.serial_for_url
        self._stopping = threading.Event()
        self._sleep = sleep or self._stopping.wait
        self._up = threading.Event()
        self._lock = threading.Lock()  # guards the session and writes to the port
        self._transport: Transport | None = None
        self._thread: threading.Thread | None = None
        self._emit: Emit = lambda event: None
        self._down = Repeats(log)  # a reason the link is down, logged once however often it recurs

    # InputDriver ---------------------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        """Open the port and report in a background thread; returns at once."""
        if self._thread is not None:
            raise LinkError(f"serial link on {self.port} already started")
        self._emit = emit
        self._thread = threading.Thread(target=self._run, name=f"serial-link {self.port}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Close the port and end the thread; emits nothing more. Safe to call twice."""
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10.0)

    def wait_up(self, timeout_s: float) -> bool:
        """Wait until the link is up; False on timeout, LinkError when the MCU's hello is refused
        (it cannot come up until someone reflashes the MCU or fixes the profile)."""
        deadline = time.monotonic() + timeout_s
        while not self._up.wait(0.02):
            if self.error is not None:
                raise self.error
            if time.monotonic() >= deadline:
                return False
        return True

    @property
    def hello(self) -> dict[str, Any]:
        """The MCU's last hello (firmware, protocol, size, caps, reset_cause, boot_id); {} before."""
        with self._lock:
            return dict(self._session.hello)

    # Requests --------------------------------------------------------------------------------

    def request_snapshot(self) -> None:
        """Ask the MCU for its full state (its changes then arrive as events)."""
        self._request(wire.REQUEST_SNAPSHOT)

    def ping(self) -> None:
        """Ask the MCU for an ack (a failure is logged)."""
        self._request(wire.PING)

    def calibrate(self) -> None:
        """Tell the MCU the board is empty: it records every sensor's baseline."""
        self._request(wire.CALIBRATE, {"kind": wire.CALIBRATE_EMPTY})

    def set_config(self, key: str, value: int) -> None:
        """Change an MCU setting at once (``wire.CONFIG_KEYS``); a refusal is logged."""
        if not -2**31 <= value < 2**31:
            raise LinkError(f"MCU setting {key} = {value} does not fit a 32-bit integer")
        self._request(wire.SET_CONFIG, {"key": key, "value": value})

    def _request(self, mtype: int, fields: dict[str, Any] | None = None) -> None:
        with self._lock:
            if self._transport is None:
                log.warning("board MCU not connected: %s not sent", wire.NAMES[mtype])
                return
            try:
                self._transport.write(self._session.request(mtype, fields))
            except PORT_ERRORS as error:  # the reader thread sees the loss and reconnects
                log.warning("could not send %s to the board MCU: %s", wire.NAMES[mtype], error)

    # The reader thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        failures = 0
        while not self._stopping.is_set():
            transport = self._open()
            if transport is not None and self._serve(transport):
                failures = 0
            if self._stopping.is_set():
                return
            self._sleep(self.reconnect.delay_s(failures))
            failures += 1

    def _open(self) -> Transport | None:
        try:
            return self._opener(self.port, baudrate=self.baud, timeout=self.poll_s, write_timeout=1.0)
        except PORT_ERRORS as error:
            reason = f"cannot open {self.port}: {error}"
            self._down.say(f"board MCU link down: {reason}; retrying")
            self._handle(self._session.closed(self.clock(), reason))
            return None

    def _serve(self, transport: Transport) -> bool:
        """Read until the port fails, the session drops it or stop(); True if it came up."""
        with self._lock:
            self._transport = transport
            step = self._session.opened(self.clock())
        came_up, reason, reader = False, "link stopped", wire.FrameReader()
        try:
            while not self._stopping.is_set():
                came_up |= self._handle(step)
                if step.refused or step.drop:
                    reason = str(step.refused) if step.refused else step.drop
                    break
                step = self._receive(transport, reader)
        except PORT_ERRORS as error:
            reason = f"lost {self.port}: {error}"
        except Exception as error:  # a bug must not end the thread: log it, reopen, resync
            log.exception("serial link on %s failed", self.port)
            reason = f"internal error: {error!r}"
        finally:
            self._close(transport, reason)
        return came_up

    def _receive(self, transport: Transport, reader: wire.FrameReader) -> Step:
        data = transport.read(max(1, transport.in_waiting))
        rejected = reader.rejected
        with self._lock:
            step = Step()
            for mtype, seq, payload in reader.feed(data):
                step.add(self._session.receive(self.clock(), mtype, seq, payload))
            step.add(self._session.tick(self.clock()))
        if reader.rejected != rejected:
            # Info, not warning: REPL text or a replug's half frame is expected now and then.
            self.rejected_frames += reader.rejected - rejected
            log.info("dropped %d bad frame(s) from the board MCU: %s", reader.rejected - rejected, reader.last_error)
        return step

    def _close(self, transport: Transport, reason: str) -> None:
        with self._lock:
            self._transport = None
            step = self._session.closed(self.clock(), reason)
        try:
            transport.close()
        except PORT_ERRORS:
            pass  # already gone: closing is only tidying up
        if self._stopping.is_set():
            return
        self._down.say(f"board MCU link down: {reason}; reconnecting")
        self._handle(step)

    def _handle(self, step: Step) -> bool:
        """Write the step's frames and emit its events; True if the link came up."""
        if step.frames:
            with self._lock:
                if self._transport is not None:
                    self._transport.write(b"".join(step.frames))
        if step.refused is not None:
            self.error = step.refused  # what wait_up() raises (doctor, calibrate) until it comes up
        came_up = False
        for event in step.events:
            self._emit(event)
            if isinstance(event, LinkChange):  # after emitting, so wait_up() sees every event
                if event.up:
                    self.error = None
                    self._down.clear()  # says how often the trouble came back, if it did
                (self._up.set if event.up else self._up.clear)()
                came_up |= event.up
        return came_up
