"""Quadrature decoding of the block encoders, reported as signed detent steps.

Each rotating block turns a mechanical quadrature encoder (channels A and B). A hard interrupt
on both edges of both pins calls ``edge(index, a, b)``, which looks the 4-bit transition
(previous AB, new AB) up in a state table and adds -1, 0 or +1 quarter count. Why interrupts and
not PIO: a 9x9 board has nine encoders and the RP2040 only eight state machines, and one code
path for both board sizes is easier to trust. Why a table: contact bounce (A toggling back and
forth) cancels itself out exactly, and an impossible transition (both channels changed: an edge
was missed) is counted as an error and assumed to continue the last direction (two quarters).

No allocation in interrupt context: the handler only indexes preallocated lists and adds small
ints (which MicroPython keeps unboxed), and the closures the IRQs call are made once in
``attach``. The main loop calls ``take_steps`` to turn counts into whole detents, with a full
detent of hysteresis so a marble-jostled encoder resting on a detent edge does not chatter.

Positive counts mean clockwise seen from above when A leads B (wire the encoder that way; the
profile can also flip it on the Pi).

Example::

    enc = Encoders(4, counts_per_detent=4)
    for a, b in ((1, 0), (1, 1), (0, 1), (0, 0)):
        enc.edge(0, a, b)
    enc.take_steps(0)   # -> 1
"""

from compat import ticks_diff

# Quarter-count change for (previous AB << 2 | new AB); 2 marks an impossible (skipped) transition.
# Gray sequence clockwise: 00 -> 10 -> 11 -> 01 -> 00 (A leads B).
_MISSED = 2
_TABLE = (
    0, -1, 1, _MISSED,
    1, 0, _MISSED, -1,
    -1, _MISSED, 0, 1,
    _MISSED, 1, -1, 0,
)


class Encoders:
    """Quarter counts, detents and error counts of ``count`` encoders."""

    # A block counts as turning until its encoder was still this long on a detent: longer than a
    # turning block's count rests on a detent (a quarter of a detent's time: 9-18 ms at 35-70 ms
    # a detent), short, as the Pi hears a twist's marbles no sooner (firmware/README.md).
    quiet_ms = 30

    def __init__(self, count, counts_per_detent=4):
        if counts_per_detent < 1:
            raise ValueError("counts_per_detent must be >= 1, got %r" % (counts_per_detent,))
        self.counts_per_detent = counts_per_detent
        self.counts = [0] * count
        self.errors = [0] * count
        self._state = [0] * count
        self._last_dir = [1] * count
        self._detents = [0] * count
        self._seen_count = [0] * count
        self._moved_ms = [None] * count   # None: has not moved since boot

    def reset_state(self, index, a, b):
        """Set the pins' current levels without counting (at start-up)."""
        self._state[index] = (a << 1) | b

    def edge(self, index, a, b):
        """Interrupt handler body: the pins of encoder ``index`` now read ``a``, ``b``."""
        new = (a << 1) | b
        delta = _TABLE[(self._state[index] << 2) | new]
        self._state[index] = new
        if delta == _MISSED:
            self.errors[index] += 1
            delta = self._last_dir[index] + self._last_dir[index]
        elif delta:
            self._last_dir[index] = delta
        self.counts[index] += delta

    def take_steps(self, index):
        """Whole detents turned since the last call (signed); 0 while between detents."""
        count = self.counts[index]
        cpd = self.counts_per_detent
        steps = 0
        while count >= (self._detents[index] + 1) * cpd:
            self._detents[index] += 1
            steps += 1
        while count <= (self._detents[index] - 1) * cpd:
            self._detents[index] -= 1
            steps -= 1
        return steps

    def is_turning(self, index, now_ms):
        """True while the block moves: off a detent, or an edge within the last quiet_ms."""
        count = self.counts[index]
        if count != self._seen_count[index]:
            self._seen_count[index] = count
            self._moved_ms[index] = now_ms
            return True
        if count % self.counts_per_detent:
            return True
        moved = self._moved_ms[index]
        return moved is not None and ticks_diff(now_ms, moved) < self.quiet_ms

    def attach(self, index, pin_a, pin_b, irq_both_edges):
        """Wire encoder ``index`` to two input pins (objects with ``value()``).

        ``irq_both_edges(pin, handler)`` registers ``handler(pin)`` as a hard IRQ on both edges
        (see hal.py); the handler is built here, once, so the interrupt allocates nothing.
        """
        read_a = pin_a.value
        read_b = pin_b.value
        edge = self.edge

        def handler(_pin):
            edge(index, read_a(), read_b())

        self.reset_state(index, read_a(), read_b())
        irq_both_edges(pin_a, handler)
        irq_both_edges(pin_b, handler)
