"""One full scan: every hole's Hall reading through the muxes, in the cheapest order.

The scan plan is built once from the board config: mux addresses in Gray order (one select line
changes per step) and, at each address, every ADC input that carries a hole there. Scans run the
plan forwards and backwards in turn, so no scan starts with a jump across many select lines.
36 and 81 holes come from the same code; only board.json differs.

Example::

    scanner = Scanner(config, mux)
    raw = scanner.scan()     # list of read_u16 counts, indexed by hole; reused every scan
"""

from mux import gray


class Scanner:
    """Reads all holes of ``config`` through ``mux`` into one preallocated list."""

    def __init__(self, config, mux):
        self.hole_count = config.hole_count
        self.raw = [0] * config.hole_count
        self._mux = mux
        self._plan = self._build_plan(config)
        self.scans = 0

    @staticmethod
    def _build_plan(config):
        plan = []
        for step in range(1 << len(config.select_pins)):
            address = gray(step)
            reads = tuple((adc, holes[address]) for adc, holes in enumerate(config.channels)
                          if holes[address] is not None)
            if reads:
                plan.append((address, reads))
        return plan

    def scan(self):
        """Read every hole once; returns ``raw`` (overwritten by the next scan)."""
        mux = self._mux
        raw = self.raw
        for address, reads in self._plan:
            mux.select(address)
            for adc, hole in reads:
                raw[hole] = mux.read(adc)
        self._plan.reverse()   # in place: the next scan starts where this one ended
        self.scans += 1
        return raw
