"""A small stand-in for MicroPython's ``machine`` module, for running hal.py off the Pico.

Pins remember their mode, pull, level and IRQ; ADC inputs read whatever the test put in
``ADC.levels``; the watchdog counts feeds; ``reset_cause`` returns ``CAUSE``; ``mem32`` is a
word store that reads 0 where nothing was written; ``reset`` counts its calls in ``RESETS``
(a real one never returns). Portable, so the
same hal tests run under CPython and under the MicroPython WebAssembly port (which has no
``machine`` of its own).
"""

PWRON_RESET = 1
WDT_RESET = 3
SOFT_RESET = 5
HARD_RESET = 6   # values as on the rp2 port where it has them; only their identity matters
CAUSE = PWRON_RESET


RESETS = [0]


def reset_cause():
    return CAUSE


def reset():
    RESETS[0] += 1


class _Words:
    def __init__(self):
        self.words = {}

    def __getitem__(self, address):
        return self.words.get(address, 0)

    def __setitem__(self, address, value):
        self.words[address] = value


mem32 = _Words()


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    made = {}

    def __init__(self, ident, mode=-1, pull=-1, value=None):
        self.ident = ident
        self.mode = mode
        self.pull = pull
        self.level = 0 if value is None else value
        self.handler = None
        self.trigger = 0
        self.hard = False
        Pin.made[ident] = self

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler, self.trigger, self.hard = handler, trigger, hard


class ADC:
    levels = {}

    def __init__(self, pin):
        self.pin = pin

    def read_u16(self):
        return ADC.levels.get(self.pin.ident, 0)


class WDT:
    made = []

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.made.append(self)

    def feed(self):
        self.feeds += 1
