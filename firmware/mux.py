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

    # CD74HC4067 switching ~0.5 us plus the sensor output's RC: nanoseconds to a microsecond.
    # The discarded first conversion after a switch already puts about 8 us between the switch
    # and the kept sample on a Pico (2 us conversion plus MicroPython's call), so no extra wait
    # by default; a board with a slow RC sets one (a wait costs ~5 us more than it asks).
    settle_us = 0

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
            for line, level in writes_between(self.address, address, self.lines):
                self._select[line](level)
            self.address = address
            self._adc = -1
            if self.settle_us:
                self._sleep_us(self.settle_us)

    def scan(self, plan, raw):
        """Run a scan ``plan`` (see scanner.py): per step ``(address, writes, reads)``, make the
        precomputed select-line ``writes`` (from ``writes_between``) that select ``address``,
        settle, then ``raw[hole] = read(adc)`` for each ``(adc, hole)`` of ``reads``.

        The whole plan runs in this one call, with everything in locals: MicroPython keeps a
        call's frame on the C stack only while it is small, so a call per address heap-allocated
        a frame each time (bench/firmware_pico.py measures it)."""
        select = self._select
        adcs = self._adcs
        sleep_us = self._sleep_us
        settle_us = self.settle_us
        last = self._adc
        for address, writes, reads in plan:
            if writes:
                for line, level in writes:
                    select[line](level)
                if settle_us:
                    sleep_us(settle_us)
                last = -1   # every ADC input now carries a new signal: discard again
            for adc, hole in reads:
                read = adcs[adc]
                if adc != last:
                    read()   # the sample capacitor's leftover from the previous signal
                    last = adc
                raw[hole] = read()
        self.address = plan[-1][0]
        self._adc = last
