"""The MCU's end of the serial link: numbered frames out, requests in (see PROTOCOL.md).

``Link`` writes every message through ``write(bytes)`` with the MCU's own sequence number and
splits incoming bytes into requests with wire.FrameReader, ignoring frames of the MCU's own
types (a REPL echoing our output back). It also notices mpremote knocking: mpremote opens with
``\\r\\x03`` (Ctrl-C) to stop the running program, which the firmware cannot receive as an
interrupt because it turns keyboard interrupts off (a 0x03 byte inside a frame must not raise
one). Those two bytes right after a frame delimiter (or first thing after boot) can never start
a Pi frame, whose second byte is a request type >= 0x41, so ``wants_repl`` is set and main.py
hands the port back to the REPL before mpremote's next byte (Ctrl-A, raw REPL) arrives.

Example::

    link = Link(usb.write)
    link.send(wire.HOLE, wire.pack_hole(13, wire.NORTH))
    for mtype, seq, payload in link.receive(usb.read()):
        ...
"""

import wire

REPL_KNOCK = b"\r\x03"


class Link:
    """Sequence numbers, framing and request parsing over one byte stream."""

    def __init__(self, write):
        self._write = write
        self._reader = wire.FrameReader()
        self.seq = 0
        self.sent = 0
        self.wants_repl = False
        self._since_zero = b""

    def send(self, mtype, payload):
        """Frame and write one message with the next sequence number."""
        self._write(wire.encode_frame(mtype, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFF
        self.sent += 1

    def receive(self, data):
        """The good request frames in ``data`` as ``(type, seq, payload)``."""
        if not data:
            return ()
        self._watch_for_knock(data)
        return [f for f in self._reader.feed(data) if f[0] >= wire.CONNECT]

    def _watch_for_knock(self, data):
        zero = data.rfind(b"\x00")
        if zero >= 0:
            self._since_zero = bytes(data[zero + 1:])
        elif len(self._since_zero) < len(REPL_KNOCK):
            self._since_zero += bytes(data)
        else:
            return
        if self._since_zero[:len(REPL_KNOCK)] == REPL_KNOCK:
            self.wants_repl = True

    @property
    def rejected(self):
        """Incoming frames dropped as garbage so far."""
        return self._reader.rejected

    # One method per message the MCU sends.

    def hello(self, size, caps, reset_cause, boot_id, firmware):
        self.send(wire.HELLO, wire.pack_hello(size, caps, reset_cause, boot_id, firmware))

    def snapshot(self, classes, counts):
        self.send(wire.SNAPSHOT, wire.pack_snapshot(classes, counts))

    def hole(self, hole, cls):
        self.send(wire.HOLE, wire.pack_hole(hole, cls))

    def encoder(self, block, steps):
        self.send(wire.ENCODER, wire.pack_encoder(block, steps))

    def heartbeat(self, state_hash):
        self.send(wire.HEARTBEAT, wire.pack_heartbeat(state_hash))

    def ack(self, ref_seq, status):
        self.send(wire.ACK, wire.pack_ack(ref_seq, status))

    def log(self, text):
        self.send(wire.LOG, wire.pack_log(text))
