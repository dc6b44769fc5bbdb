"""Per-hole rest baselines: measured with the board empty, kept on flash, tracked for drift.

The Pi asks for a calibration when the board is empty. ``begin(scans)`` starts collecting, each
``add(raw)`` feeds one full scan, and after ``scans`` of them the baseline of every hole is the
mean of its readings and its noise the spread (max - min). ``save``/``load`` keep both in a JSON
file on flash, so a reset does not need a new calibration.

Drift (temperature, ageing) is tracked only while a hole is settled empty: a slow exponential
average with a time constant of ``2 ** drift_shift`` updates, kept in fixed point so no float is
allocated. A marble never pulls its own baseline because occupied holes are not tracked. The
main loop updates every ``drift_every`` scans (drift is slow; the scan budget is not).

Example::

    cal = Calibration(36)
    cal.begin(32)
    while cal.collecting:
        cal.add(scanner.scan())
    cal.save("calibration.json")
"""

import json

FILE_VERSION = 1
REST_COUNTS = 32768  # a DRV5055 at zero field sits at mid-supply: half of read_u16's range


class Calibration:
    """Baselines and noise for ``hole_count`` holes, in read_u16 counts."""

    drift_every = 16   # scans between two drift updates (see app.py)

    def __init__(self, hole_count, drift_shift=6):
        # 2**6 updates x 16 scans = 1024 scans: a time constant of about 10 s at 100 scans/s.
        self.drift_shift = drift_shift
        self.hole_count = hole_count
        self.baseline = [REST_COUNTS] * hole_count
        self.noise = [0] * hole_count
        self.calibrated = False
        self._acc = [REST_COUNTS << self.drift_shift] * hole_count
        self._sum = [0] * hole_count
        self._low = [0] * hole_count
        self._high = [0] * hole_count
        self._left = 0
        self._taken = 0

    @property
    def collecting(self):
        """True while a calibration still waits for scans."""
        return self._left > 0

    def begin(self, scans):
        """Start a calibration over the next ``scans`` full scans (board empty)."""
        if scans < 1:
            raise ValueError("calibration needs at least 1 scan, got %r" % (scans,))
        for hole in range(self.hole_count):
            self._sum[hole] = 0
            self._low[hole] = 65535
            self._high[hole] = 0
        self._left = scans
        self._taken = 0

    def add(self, raw):
        """Feed one full scan; returns True when this scan completed the calibration."""
        if self._left <= 0:
            return False
        for hole in range(self.hole_count):
            value = raw[hole]
            self._sum[hole] += value
            self._low[hole] = min(self._low[hole], value)
            self._high[hole] = max(self._high[hole], value)
        self._taken += 1
        self._left -= 1
        if self._left == 0:
            self._finish()
            return True
        return False

    def _finish(self):
        for hole in range(self.hole_count):
            self.set_baseline(hole, self._sum[hole] // self._taken)
            self.noise[hole] = self._high[hole] - self._low[hole]
        self.calibrated = True

    def set_baseline(self, hole, counts):
        """Pin a hole's baseline (and its drift accumulator) to ``counts``."""
        self.baseline[hole] = counts
        self._acc[hole] = counts << self.drift_shift

    def track(self, hole, value):
        """Follow slow drift of a hole that is settled empty; call once per scan for it."""
        acc = self._acc[hole] + value - (self._acc[hole] >> self.drift_shift)
        self._acc[hole] = acc
        self.baseline[hole] = acc >> self.drift_shift

    def track_all(self, raw, classes, stable, unsettled):
        """``track`` every hole that reads empty, is settled empty and whose block is still.
        ``track``'s update is written out here, in locals: with a call per hole, 81 holes took
        the Pico 3.1 ms (a whole scan's worth, every 16 scans), inline 1.3 ms (bench/firmware_pico.py)."""
        acc = self._acc
        baseline = self.baseline
        shift = self.drift_shift
        for hole in range(self.hole_count):
            if classes[hole] == 0 and stable[hole] == 0 and not unsettled[hole]:
                value = acc[hole] + raw[hole] - (acc[hole] >> shift)
                acc[hole] = value
                baseline[hole] = value >> shift

    def to_json(self):
        """The file contents: version, hole count, baselines and noise."""
        return json.dumps({"version": FILE_VERSION, "holes": self.hole_count,
                           "baseline": self.baseline, "noise": self.noise})

    def from_json(self, text):
        """Load baselines saved by ``to_json``; ValueError names what does not fit."""
        data = json.loads(text)
        if data.get("version") != FILE_VERSION:
            raise ValueError("calibration file version %r, expected %d"
                             % (data.get("version"), FILE_VERSION))
        if data.get("holes") != self.hole_count or len(data.get("baseline", ())) != self.hole_count:
            raise ValueError("calibration file is for %r holes, this board has %d"
                             % (data.get("holes"), self.hole_count))
        for hole, counts in enumerate(data["baseline"]):
            self.set_baseline(hole, int(counts))
        self.noise = [int(n) for n in data.get("noise", self.noise)]
        self.calibrated = True

    def save(self, path):
        """Write the calibration to flash."""
        with open(path, "w") as f:
            f.write(self.to_json())

    def load(self, path):
        """Read the calibration from flash; False (defaults kept) when there is no file yet."""
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            return False
        self.from_json(text)
        return True
