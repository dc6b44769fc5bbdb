"""Analog multiplexer select lines in front of the ADC inputs.

Wiring (Build B): CD74HC4067 16-channel multiplexers; their four select lines S0-S3 are shared
and driven by ``select`` pins 0-3. On the 9x9 board a fifth select pin drives EN of the first
mux of each pair directly and EN of the second through an inverter, so each ADC input sees a
32-channel mux. The mux outputs go to the RP2040's ADC inputs (GP26-GP28).

Switching costs: after the select lines change, the mux output needs ``settle_us`` to settle
(RC of the Hall sensor's output and the mux on-resistance), and the ADC's sample capacitor still
holds charge from the previous channel, so the first conversion after any switch (external
select or the ADC's own input) is read and discarded.

Pins are passed in as callables: ``select`` setters ``set(level)``, ``adcs`` readers returning
read_u16 counts, and ``sleep_us``; nothing here touches ``machine``. This is the innermost loop
of the firmware, so it counts nothing itself: the benchmark counts ADC reads and pin writes in
the callables it hands in.

Example::

    mux = Mux([s0.value, s1.value, s2.value, s3.value], [adc0.read_u16], sleep_us)
    mux.select(5)
    counts = mux.read(0)
"""


def gray(index):
    """The index-th address of the Gray sequence: neighbours differ in one select line."""
    return index ^ (index >> 1)


def writes_between(old, new, lines):
    """The ``(line, level)`` writes that take the select lines from ``old`` to ``new``
    (all ``lines`` when ``old`` is unknown, -1)."""
    changed = (old ^ new) if old >= 0 else (1 << lines) - 1
    return tuple((bit, (new >> bit) & 1) for bit in range(lines) if (changed >> bit) & 1)


class Mux:
    """Select lines and ADC readers."""

    settle_us = 10  # CD74HC4067 switching ~0.5 us plus sensor output RC; 10 us is generous

    def __init__(self, select, adcs, sleep_us):
        self._select = select
        self._adcs = adcs
        self._sleep_us = sleep_us
        self.lines = len(select)
        self.channels = 1 << len(select)
        self.address = -1
        self._adc = -1

    def select(self, address):
        """Drive the select lines to ``address``, writing only the lines that change; nothing
        to do (and no settling) when it is selected already."""
        if address != self.address:
            self.apply(writes_between(self.address, address, self.lines), address)

    def apply(self, writes, address):
        """Make precomputed ``writes`` (see ``writes_between``) that select ``address``."""
        select = self._select
        for line, level in writes:
            select[line](level)
        self.address = address
        self._adc = -1  # every ADC input now carries a new signal: discard again
        self._sleep_us(self.settle_us)

    def read(self, adc):
        """A settled conversion of ADC input ``adc`` at the current address (read_u16 counts)."""
        read = self._adcs[adc]
        if adc != self._adc:
            read()   # the sample capacitor's leftover from the previous signal
            self._adc = adc
        return read()

    def read_into(self, reads, raw):
        """``raw[hole] = read(adc)`` for each ``(adc, hole)`` of ``reads`` at this address."""
        adcs = self._adcs
        last = self._adc
        for adc, hole in reads:
            read = adcs[adc]
            if adc != last:
                read()
                last = adc
            raw[hole] = read()
        self._adc = last
