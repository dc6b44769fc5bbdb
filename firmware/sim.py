"""A simulated Build B board for tests and benchmarks: magnetic field, muxes, ADC, encoders.

Not flashed to the Pico. It stands where ``hal.MachineIO`` stands on the device: it is the
``io`` of app.App (select-line setters, ADC readers, encoder pins with IRQ registration, serial
read/write through ``inbox``/``outbox``), but behind it is a model instead of hardware:

* each hole rests at its own baseline near mid-scale, plus deterministic noise;
* a north-up marble lifts its hole by ``marble_counts`` and its four neighbours by a little
  (crosstalk); south-up lowers them;
* the ADC's sample capacitor: the first conversion after a switch still reads the previous
  signal (``stale_reads``), which is why mux.py discards one;
* a turning block's nine holes read garbage until the turn ends; the turn then rotates the
  marbles and drives the encoder through its quadrature edges, calling the registered IRQs.

Portable MicroPython, so the benchmark can run it inside the WebAssembly interpreter too.

Example::

    sim = SimBoard(boardconfig.parse(boardconfig.default(6)))
    sim.place(14, wire.NORTH)
    sim.begin_turn(1); sim.encoder_edges(1, 2); sim.end_turn(1, 1)   # block 1 a quarter cw
"""

from wire import NORTH, RESET_POWER_ON, SOUTH

_CW_EDGES = ((1, 0), (1, 1), (0, 1), (0, 0))


class SimPin:
    """An input pin the firmware reads with ``value()``; the sim sets ``level``."""

    def __init__(self):
        self.level = 0
        self.handler = None

    def value(self):
        return self.level


class SimBoard:
    """The field under every hole of ``config`` and the encoder of every block."""

    marble_counts = 7000     # a marble's magnet at 5 mm over a DRV5055A1 at 3.3 V
    crosstalk_counts = 250   # the same magnet as seen by a neighbouring hole's sensor
    noise_counts = 300       # peak deviation of the deterministic noise
    counts_per_detent = 4

    def __init__(self, config, seed=12345):
        self.config = config
        self.size = config.size
        self._seed = seed
        self.rest = [32768 + self._noise(900) for _ in range(config.hole_count)]
        self.marbles = {}
        self.turning = set()
        self.address = 0
        self.signal = 0
        self.adc_reads = 0
        self.pins = [(SimPin(), SimPin()) for _ in config.encoders]
        self.inbox = b""     # bytes from the Pi, waiting for the firmware's read()
        self.outbox = []     # what the firmware wrote, one entry per write
        self.restarts = []   # the reasons the firmware asked to restart the chip for

    def _noise(self, peak):
        # A linear congruential generator: same sequence on CPython and MicroPython.
        self._seed = (self._seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self._seed >> 8) % (2 * peak + 1) - peak

    # The firmware side: what hal.py would hand out on the device.

    def select_setters(self):
        return [self._setter(bit) for bit in range(len(self.config.select_pins))]

    def _setter(self, bit):
        def set_level(level):
            if level:
                self.address |= 1 << bit
            else:
                self.address &= ~(1 << bit)
        return set_level

    def adc_readers(self):
        return [self._reader(adc) for adc in range(len(self.config.adc_pins))]

    def _reader(self, adc):
        channels = self.config.channels[adc]

        def read_u16():
            self.adc_reads += 1
            hole = channels[self.address]
            value = self.field(hole) if hole is not None else 0
            stale, self.signal = self.signal, value
            return stale   # the sample capacitor still holds the last conversion's signal
        return read_u16

    def irq_both_edges(self, pin, handler):
        pin.handler = handler

    def encoder_pins(self):
        return self.pins

    def sleep_us(self, _us):
        pass   # the model settles instantly; mux.py's settle time is for real RC

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.outbox.append(bytes(data))

    def reset_cause(self):
        return RESET_POWER_ON

    def restart(self, why):
        # The chip would reset here; the model notes why, and the loop goes on.
        self.restarts.append(why)

    def restarted_because(self):
        return None

    def boot_id(self):
        # A fresh number per call, like hal.py's (os.urandom): callers must draw it once a boot.
        return self._noise(1 << 30) & 0xFFFFFFFF

    # The physical side: what players do.

    def field(self, hole):
        """The sensor output of ``hole`` now, in read_u16 counts."""
        if self.turning and self._block_of(hole) in self.turning:
            return 32768 + self._noise(20000)
        value = self.rest[hole] + self._noise(self.noise_counts)
        for other, pole in self.marbles.items():   # never mutated in place: see place()
            sign = 1 if pole == NORTH else -1
            if other == hole:
                value += sign * self.marble_counts
            elif self._adjacent(hole, other):
                value += sign * self.crosstalk_counts
        return max(0, min(65535, value))

    def place(self, hole, pole):
        """Put a marble with ``pole`` (wire.NORTH or wire.SOUTH) up into ``hole``."""
        if pole not in (NORTH, SOUTH):
            raise ValueError("a marble is NORTH or SOUTH up, got %r" % (pole,))
        # Gestures replace the dict and set instead of changing them, so a firmware loop running
        # in another thread (the host end-to-end test) always iterates a consistent copy.
        marbles = dict(self.marbles)
        marbles[hole] = pole
        self.marbles = marbles

    def lift(self, hole):
        marbles = dict(self.marbles)
        del marbles[hole]
        self.marbles = marbles

    def begin_turn(self, block):
        """The block starts turning: its holes read garbage."""
        self.turning = self.turning | {block}

    def encoder_edges(self, block, detents, bounce=False):
        """Drive block ``block``'s encoder ``detents`` (signed, positive clockwise)."""
        pin_a, pin_b = self.pins[block - 1]
        edges = _CW_EDGES if detents > 0 else tuple((b, a) for a, b in _CW_EDGES)
        for _ in range(abs(detents) * self.counts_per_detent // 4):
            for a, b in edges:
                if bounce:   # the contact makes, breaks again, then makes for good
                    was = (pin_a.level, pin_b.level)
                    self._set(pin_a, pin_b, a, b)
                    self._set(pin_a, pin_b, was[0], was[1])
                self._set(pin_a, pin_b, a, b)

    def _set(self, pin_a, pin_b, a, b):
        for pin, level in ((pin_a, a), (pin_b, b)):
            if pin.level != level:
                pin.level = level
                if pin.handler:
                    pin.handler(pin)

    def end_turn(self, block, quarters):
        """The block stops after ``quarters`` quarter turns (positive clockwise)."""
        for _ in range(quarters % 4):
            self._rotate(block)
        self.turning = self.turning - {block}

    def _rotate(self, block):
        # One quarter clockwise seen from above, rows counted upwards from the bottom.
        side = self.size // 3
        col0 = ((block - 1) % side) * 3
        row0 = self.size - 3 - ((block - 1) // side) * 3
        marbles = dict(self.marbles)
        moved = {}
        for hole in self._block_holes(block):
            if hole in marbles:
                dx = hole % self.size - col0 - 1
                dy = hole // self.size - row0 - 1
                moved[(row0 + 1 - dx) * self.size + col0 + 1 + dy] = marbles.pop(hole)
        marbles.update(moved)
        self.marbles = marbles

    def _block_holes(self, block):
        side = self.size // 3
        col0 = ((block - 1) % side) * 3
        row0 = self.size - 3 - ((block - 1) // side) * 3
        return [(row0 + r) * self.size + col0 + c for r in range(3) for c in range(3)]

    def _block_of(self, hole):
        side = self.size // 3
        row, col = hole // self.size, hole % self.size
        return (side - 1 - row // 3) * side + col // 3 + 1

    def _adjacent(self, a, b):
        ra, ca, rb, cb = a // self.size, a % self.size, b // self.size, b % self.size
        return abs(ra - rb) + abs(ca - cb) == 1
