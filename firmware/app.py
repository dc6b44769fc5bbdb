"""The firmware's main loop: scan, classify, debounce, count encoders, talk to the Pi.

``App(config, io)`` wires the pieces for one board; ``io`` is the hardware (hal.MachineIO on
the Pico, a simulated board on the host) and hands out callables only::

    io.select_setters()   mux select-line setters, S0 first
    io.adc_readers()      read_u16 callables, one per ADC input
    io.encoder_pins()     (pin_a, pin_b) per block; pins have value()
    io.irq_both_edges(pin, handler)
    io.read()             bytes waiting from the Pi (b"" when none; never blocks)
    io.write(data)        bytes to the Pi
    io.sleep_us(us), io.reset_cause(), io.boot_id()
    io.restart(why)       reset the chip at once (never returns on the Pico), noting ``why``
    io.restarted_because()  the ``why`` of the restart this boot came from, else None

Each ``step(now_ms)`` is one full scan plus encoder service, request handling and the heartbeat;
``run()`` paces steps every ``scan_ms`` and feeds the watchdog when one is given.

A full heap: MicroPython collects garbage before it gives up, so a MemoryError that reaches the
loop means nothing fits, not even a log line to say so. The loop then restarts the board at
once (``HEAP_FULL``): a fresh heap is a quarter of a second away, and the Pi, seeing an MCU
reset (a new boot id), resyncs from the snapshot with no move lost. Every hello of the boot
that follows is followed by a log line saying why it restarted.

Example::

    app = App(boardconfig.load("board.json"), hal.MachineIO(config))
    app.start()
    app.run(wdt)
"""

import wire
from calibration import Calibration
from calreport import format_bands, format_hole, problems
from classify import Classifier
from compat import sleep_ms, ticks_add, ticks_diff, ticks_ms
from debounce import Debouncer
from encoders import Encoders
from link import Link
from mux import Mux
from scanner import Scanner
from version import FIRMWARE_VERSION

CALIBRATION_FILE = "calibration.json"
HEAP_FULL = "the heap was full"   # a reason for io.restart: a constant, as nothing can be allocated
CAPS = wire.CAP_POLARITY | wire.CAP_ENCODERS
# set_config key -> (lowest, highest) accepted value; thresholds are checked by the classifier.
LIMITS = {"debounce_scans": (1, 50), "scan_ms": (1, 1000), "heartbeat_ms": (50, 10000),
          "north_threshold": (1, 65535), "south_threshold": (-65535, -1)}


def block_index(size, hole):
    """0-based block (reading order, top-left first) of a hole (row 0 at the bottom)."""
    side = size // 3
    return (side - 1 - (hole // size) // 3) * side + (hole % size) // 3


class App:
    """One board's firmware state; see the module docstring for ``io``."""

    scan_ms = 10            # 100 full scans a second
    heartbeat_ms = 250
    calibration_scans = 32
    log_every_ms = 1000     # at most one error or overrun line a second

    def __init__(self, config, io, calibration_file=CALIBRATION_FILE):
        self.config = config
        self.io = io
        self.size = config.size
        self.mux = Mux(io.select_setters(), io.adc_readers(), io.sleep_us)
        self.scanner = Scanner(config, self.mux)
        self.calibration = Calibration(config.hole_count)
        self.calibration_file = calibration_file
        self.classifier = Classifier()
        self.debouncer = Debouncer(config.hole_count, wire.EMPTY)
        self.encoders = Encoders(len(config.encoders), config.counts_per_detent)
        self.link = Link(io.write)
        self.boot_id = io.boot_id()   # once: a new id in a hello tells the Pi the MCU restarted
        self.restarted_because = io.restarted_because()
        self.current = [wire.EMPTY] * config.hole_count
        self.detents = [0] * len(config.encoders)
        self.turning = [False] * len(config.encoders)
        self.block_of = [block_index(self.size, h) for h in range(config.hole_count)]
        self.unsettled = [False] * config.hole_count   # per hole: its block is turning
        self._touched = []
        self._changed = []
        self._counts_seen = [0] * len(config.encoders)
        self.running = False
        self._beat_ms = 0
        self._logged_ms = None   # no line yet: the first one always goes out
        self._calibrate_seq = -1
        self._before = None
        for index, (pin_a, pin_b) in enumerate(io.encoder_pins()):
            self.encoders.attach(index, pin_a, pin_b, io.irq_both_edges)

    def start(self, now=None):
        """Load the calibration from flash and say hello with a snapshot; ``now`` (ms) is the
        clock the first heartbeat counts from (ticks_ms() by default)."""
        try:
            self.calibration.load(self.calibration_file)
        except ValueError as e:
            self.link.log("calibration file ignored: %s" % e)
        self._settle_initial()
        self.hello()
        self._beat_ms = ticks_ms() if now is None else now

    def _settle_initial(self):
        # The first snapshot must be the board as it is, not all-empty waiting for debounce.
        raw = self.scanner.scan()
        for hole in range(self.config.hole_count):
            cls = self.classifier.classify(raw[hole] - self.calibration.baseline[hole], wire.EMPTY)
            self.current[hole] = cls
            self.debouncer.force(hole, cls)

    def hello(self):
        self.link.hello(self.size, CAPS, self.io.reset_cause(), self.boot_id, FIRMWARE_VERSION)
        self.snapshot()
        if self.restarted_because:   # on every hello: the Pi may not have had the port open at boot
            self.link.log("restarted: %s" % self.restarted_because)

    def snapshot(self):
        self.link.snapshot(self.debouncer.stable, self.detents)

    def state_hash(self):
        return wire.state_hash(self.debouncer.stable, self.detents)

    # The scan step ---------------------------------------------------------------------------

    def step(self, now):
        """One full scan and everything that follows from it, at tick ``now`` (ms)."""
        self._service_encoders(now)
        raw = self.scanner.scan()
        self._classify(raw, now)
        if self.calibration.collecting and self.calibration.add(raw):
            self._calibrated()
        for request in self.link.receive(self.io.read()):
            self.handle(*request)
        if ticks_diff(now, self._beat_ms) >= self.heartbeat_ms:
            self._beat_ms = now
            self.link.heartbeat(self.state_hash())

    def _service_encoders(self, now):
        moved = False
        counts = self.encoders.counts
        for index in range(len(self.detents)):
            if counts[index] == self._counts_seen[index] and not self.turning[index]:
                continue   # still, and known to be still: the usual case
            self._counts_seen[index] = counts[index]
            steps = self.encoders.take_steps(index)
            if steps:
                self.detents[index] = wire.wrap_count(self.detents[index] + steps)
                self.link.encoder(index + 1, steps)
            turning = self.encoders.is_turning(index, now)
            if turning != self.turning[index]:
                self.turning[index] = turning
                moved = True
        if moved:   # rare: only when a block starts or stops turning
            for hole in range(self.config.hole_count):
                self.unsettled[hole] = self.turning[self.block_of[hole]]

    def _classify(self, raw, now):
        # One call per stage per scan: a per-hole function call costs more than the work itself
        # in MicroPython (see bench/firmware_scan.py).
        cal = self.calibration
        touched = self._touched
        changed = self._changed
        self.classifier.classify_all(raw, cal.baseline, self.current, touched)
        self.debouncer.update_all(self.current, now, self.unsettled, touched, changed)
        for hole in changed:
            self.link.hole(hole, self.debouncer.stable[hole])
        del touched[:]
        del changed[:]
        if self.scanner.scans % cal.drift_every == 0:
            cal.track_all(raw, self.current, self.debouncer.stable, self.unsettled)

    # Requests from the Pi ----------------------------------------------------------------------

    def handle(self, mtype, seq, payload):
        """Answer one request frame (PROTOCOL.md, "The MCU"); link.py has dropped frames of
        the MCU's own types already."""
        if mtype not in wire.UNPACKERS:
            return self.link.ack(seq, wire.UNKNOWN_MESSAGE)
        try:
            fields = wire.decode_payload(mtype, payload)
        except wire.WireError:
            return self.link.ack(seq, wire.BAD_PAYLOAD)
        if mtype == wire.CONNECT:
            self.hello()
        elif mtype == wire.REQUEST_SNAPSHOT:
            self.snapshot()
        elif mtype == wire.PING:
            self.link.ack(seq, wire.OK)
        elif mtype == wire.SET_CONFIG:
            self.link.ack(seq, self.set_config(fields["key"], fields["value"]))
        elif mtype == wire.CALIBRATE:
            self._begin_calibration(seq, fields["kind"])

    def set_config(self, key, value):
        """Apply one setting; returns the ack status."""
        if key not in LIMITS:
            return wire.UNKNOWN_KEY
        low, high = LIMITS[key]
        if not low <= value <= high:
            return wire.BAD_VALUE
        try:
            if key == "north_threshold":
                self.classifier.set_thresholds(value, self.classifier.south_threshold)
            elif key == "south_threshold":
                self.classifier.set_thresholds(self.classifier.north_threshold, value)
            elif key == "debounce_scans":
                self.debouncer.hold_scans = value
            else:
                setattr(self, key, value)
        except ValueError as e:
            self.link.log("set_config %s=%d refused: %s" % (key, value, e))
            return wire.BAD_VALUE
        return wire.OK

    def _begin_calibration(self, seq, kind):
        if kind != wire.CALIBRATE_EMPTY:
            return self.link.ack(seq, wire.BAD_VALUE)
        if self.calibration.collecting:   # superseded: its asker must not wait for ever
            self.link.ack(self._calibrate_seq, wire.FAILED)
        else:
            self._before = list(self.calibration.baseline)
        self._calibrate_seq = seq
        self.calibration.begin(self.calibration_scans)

    def _calibrated(self):
        cal = self.calibration
        c = self.classifier
        self.link.log(format_bands(c.empty_max_counts, c.north_threshold, c.south_threshold,
                                   c.hysteresis_counts))
        bad = 0
        for hole in range(self.config.hole_count):
            self.link.log(format_hole(hole, cal.baseline[hole], cal.noise[hole]))
            bad += bool(problems(cal.baseline[hole], cal.noise[hole], c.empty_max_counts))
        if bad:   # keep the calibration that worked before
            for hole, counts in enumerate(self._before):
                cal.set_baseline(hole, counts)
            return self.link.ack(self._calibrate_seq, wire.FAILED)
        try:
            cal.save(self.calibration_file)
        except OSError as e:
            self.link.log("calibration not saved: %s" % e)
            return self.link.ack(self._calibrate_seq, wire.FAILED)
        self.link.ack(self._calibrate_seq, wire.OK)

    # Pacing ----------------------------------------------------------------------------------

    def run(self, wdt=None):
        """Step every ``scan_ms`` until stopped or mpremote knocks; errors become log lines, a
        full heap restarts the board (see the module's docstring)."""
        self.running = True
        due = ticks_ms()
        while self.running and not self.link.wants_repl:
            try:
                due = self._step_on_time(due)
            except MemoryError:
                self.io.restart(HEAP_FULL)
            if wdt is not None:
                wdt.feed()

    def _step_on_time(self, due):
        """One step, then wait for the next one ``scan_ms`` after ``due``; the new due tick."""
        now = ticks_ms()
        try:
            self.step(now)
        except Exception as e:  # noqa: BLE001 - the board must keep reporting
            if isinstance(e, MemoryError):
                raise e   # to run(): the line below would not fit either (a bare raise is not native code)
            self._log_limited(now, "error: %r" % (e,))
        due = ticks_add(due, self.scan_ms)
        wait = ticks_diff(due, ticks_ms())
        if wait > 0:
            sleep_ms(wait)
        elif wait < -self.scan_ms:
            self._log_limited(now, "scan overrun: %d ms" % (self.scan_ms - wait))
            due = ticks_ms()
        return due

    def _log_limited(self, now, text):
        if self._logged_ms is None or ticks_diff(now, self._logged_ms) >= self.log_every_ms:
            self._logged_ms = now
            self.link.log(text)
