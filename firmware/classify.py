"""Polarity classification of one linear Hall reading: empty, north, south or unsure.

A marble's magnet points north-up or south-up and moves the sensor's output up or down from its
rest baseline. The reading's distance from the baseline (``delta``, in read_u16 ADC counts)
falls into bands::

    delta >= north_threshold                  -> NORTH
    |delta| <= empty_max_counts               -> EMPTY
    delta <= south_threshold  (negative)      -> SOUTH
    anything in between                       -> UNSURE (reported as such, never guessed)

Hysteresis: a hole keeps its current class while the reading stays within
``hysteresis_counts`` past that class's band edge, so noise on an edge does not flicker.
Class codes are the wire's (wire.EMPTY, NORTH, SOUTH, UNSURE), so nothing is translated.

Example::

    c = Classifier(north_threshold=5000, south_threshold=-5000)
    c.classify(6000, EMPTY)   # -> NORTH
    c.classify(4700, NORTH)   # -> NORTH (inside the hysteresis)
    c.classify(4700, EMPTY)   # -> UNSURE
"""

from wire import EMPTY, NORTH, SOUTH, UNSURE


class Classifier:
    """Band edges in ADC counts (read_u16 scale) relative to each hole's baseline."""

    def __init__(self, north_threshold=5000, south_threshold=-5000, empty_max_counts=1500,
                 hysteresis_counts=500):
        self.empty_max_counts = empty_max_counts
        self.hysteresis_counts = hysteresis_counts
        self.north_threshold = 0
        self.south_threshold = 0
        self.set_thresholds(north_threshold, south_threshold)

    def set_thresholds(self, north, south):
        """Change the marble bands; ValueError (naming the values) if they would overlap."""
        gap = self.empty_max_counts + 2 * self.hysteresis_counts
        if north <= gap or south >= -gap:
            raise ValueError("thresholds north=%r south=%r must lie beyond +-%d counts (empty "
                             "band %d plus twice the hysteresis %d)" % (
                                 north, south, gap, self.empty_max_counts, self.hysteresis_counts))
        self.north_threshold = north
        self.south_threshold = south

    def classify(self, delta, current):
        """The class of a reading ``delta`` counts from the baseline, given the current class."""
        slack = self.hysteresis_counts
        # Widen the band of the class the hole is in now: that is the whole hysteresis.
        if -self.empty_max_counts - slack <= delta <= self.empty_max_counts + slack:
            if current == EMPTY or -self.empty_max_counts <= delta <= self.empty_max_counts:
                return EMPTY
        if delta >= self.north_threshold or (current == NORTH and delta >= self.north_threshold - slack):
            return NORTH
        if delta <= self.south_threshold or (current == SOUTH and delta <= self.south_threshold + slack):
            return SOUTH
        return UNSURE

    def classify_all(self, raw, baseline, classes, changed):
        """Classify every hole of a scan in place: ``classes[h]`` is the current class and
        becomes the new one; holes whose class changed are appended to ``changed``. One call per
        scan; the common cases (a hole staying empty, a marble staying put) are decided inline
        with locals only, the rest by ``classify``."""
        high = self.empty_max_counts + self.hysteresis_counts
        low = -high
        north_keep = self.north_threshold - self.hysteresis_counts
        south_keep = self.south_threshold + self.hysteresis_counts
        empty, north, south = EMPTY, NORTH, SOUTH
        for hole in range(len(classes)):
            delta = raw[hole] - baseline[hole]
            current = classes[hole]
            if current == empty:
                if low <= delta <= high:
                    continue
            elif current == north:
                if delta >= north_keep:
                    continue
            elif current == south and delta <= south_keep:
                continue
            cls = self.classify(delta, current)
            if cls != current:
                classes[hole] = cls
                changed.append(hole)

    def margins(self, noise_counts):
        """Headroom of a hole whose empty readings spread ``noise_counts`` peak to peak:
        (counts between the noise and the empty band's edge, counts from that edge to the
        nearer marble band)."""
        half = (noise_counts + 1) // 2
        nearer = min(self.north_threshold, -self.south_threshold)
        return self.empty_max_counts - half, nearer - self.empty_max_counts
