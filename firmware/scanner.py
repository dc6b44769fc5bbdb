"""One full scan: every hole's Hall reading through the muxes, in the cheapest order.

The scan plan is built once from the board config: mux addresses in Gray order (one select line
changes per step) and, at each address, every ADC input that carries a hole there, with the
select-line writes each step needs precomputed. Scans run the plan forwards and backwards in
turn, so no scan starts with a jump across many select lines (the turn costs no write at all).
36 and 81 holes come from the same code; only board.json differs.

Example::

    scanner = Scanner(config, mux)
    raw = scanner.scan()     # list of read_u16 counts, indexed by hole; reused every scan
"""

from mux import gray, writes_between


class Scanner:
    """Reads all holes of ``config`` through ``mux`` into one preallocated list."""

    def __init__(self, config, mux):
        self.hole_count = config.hole_count
        self.raw = [0] * config.hole_count
        self._mux = mux
        steps = self._steps(config)
        self._plans = (self._plan(steps, len(config.select_pins)),
                       self._plan(steps[::-1], len(config.select_pins)))
        self.scans = 0

    @staticmethod
    def _steps(config):
        steps = []
        for step in range(1 << len(config.select_pins)):
            address = gray(step)
            reads = tuple((adc, holes[address]) for adc, holes in enumerate(config.channels)
                          if holes[address] is not None)
            if reads:
                steps.append((address, reads))
        return steps

    @staticmethod
    def _plan(steps, lines):
        # (address, writes from the previous step, reads); the first step's writes come from
        # the other direction's last step, which is the same address: none.
        plan = [(steps[0][0], (), steps[0][1])]
        for (before, _), (address, reads) in zip(steps, steps[1:]):
            plan.append((address, writes_between(before, address, lines), reads))
        return plan

    def scan(self):
        """Read every hole once; returns ``raw`` (overwritten by the next scan)."""
        plan = self._plans[self.scans & 1]
        self._mux.select(plan[0][0])   # a no-op except on the very first scan
        self._mux.scan(plan, self.raw)
        self.scans += 1
        return self.raw
