"""The Pico's hardware, handed to the firmware as callables (the `machine` shim's real side).

Only this module and main.py import ``machine``; everything else gets pins as callables, which
is what lets the host run the same logic against sim.py. Wiring (Build B, see boardconfig.py):
mux select lines on GPIO outputs, mux outputs on ADC inputs GP26-GP28, each block encoder's A
and B on inputs with pull-ups (common pin to ground), USB CDC serial to the Pi.

Imported on the host it raises ImportError (no ``machine``), which is how tests know to use the
simulated board instead.

Example::

    io = MachineIO(config)
    app = App(config, io)
"""

import os
import select
import sys

import machine
import micropython

import wire
from compat import sleep_us

# machine.reset_cause() values -> the hello's reset cause.
_CAUSES = {
    getattr(machine, "PWRON_RESET", -1): wire.RESET_POWER_ON,
    getattr(machine, "WDT_RESET", -2): wire.RESET_WATCHDOG,
    getattr(machine, "SOFT_RESET", -3): wire.RESET_SOFT,
    getattr(machine, "HARD_RESET", -4): wire.RESET_HARD,
}
READ_MAX = 64  # bytes taken from USB per step: a request is at most ~20 bytes
# Why the firmware restarted itself, kept over the reset in the watchdog's SCRATCH0 register
# (a watchdog reset keeps it, a power-on clears it; pico-sdk's own reboot uses SCRATCH4-7) as
# RESTART_CODE + the reason's index. Small integers only: restarting must not allocate.
WATCHDOG_SCRATCH0 = 0x4005800C
RESTART_CODE = 0x2E570000
RESTARTS = ("the heap was full",)


class UsbSerial:
    """The USB CDC port as MicroPython exposes it: stdin/stdout, raw bytes, polled."""

    def __init__(self):
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def ready(self):
        return bool(self._poll.poll(0))


class MachineIO:
    """GPIO, ADC, IRQs and USB serial of an RP2040 for ``config`` (a BoardConfig).

    ``usb`` is an object with ``stdin``/``stdout`` byte streams and ``ready()``; the default is
    the Pico's own USB port (tests pass a fake).
    """

    def __init__(self, config, usb=None):
        self.config = config
        self.usb = usb or UsbSerial()
        # The mux settles through this once per address: the clock's own function, not a
        # method wrapping it (a Python call costs the Pico ~10 us).
        self.sleep_us = sleep_us
        # Frames may contain 0x03: it must arrive as data, not as KeyboardInterrupt.
        micropython.kbd_intr(-1)

    def select_setters(self):
        return [machine.Pin(p, machine.Pin.OUT, value=0).value for p in self.config.select_pins]

    def adc_readers(self):
        return [machine.ADC(machine.Pin(p)).read_u16 for p in self.config.adc_pins]

    def encoder_pins(self):
        pull = machine.Pin.PULL_UP
        return [(machine.Pin(a, machine.Pin.IN, pull), machine.Pin(b, machine.Pin.IN, pull))
                for a, b in self.config.encoders]

    def irq_both_edges(self, pin, handler):
        # hard=True runs the handler in interrupt context: it must not allocate (encoders.py).
        pin.irq(handler, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING, hard=True)

    def read(self):
        # One byte at a time: link.py must see mpremote's knock before the byte after it.
        data = b""
        while len(data) < READ_MAX and self.usb.ready():
            data += self.usb.stdin.read(1)
            if data[-1:] == b"\x03":
                break
        return data

    def write(self, data):
        self.usb.stdout.write(data)

    def reset_cause(self):
        return _CAUSES.get(machine.reset_cause(), wire.RESET_UNKNOWN)

    def boot_id(self):
        """A random 32-bit number: call once per boot (app.App keeps it)."""
        # os.urandom is the RP2040's ring-oscillator RNG; ports without it seed random at boot.
        if hasattr(os, "urandom"):
            return int.from_bytes(os.urandom(4), "little")
        import random
        return random.getrandbits(32)

    def restart(self, why):
        """Reset the chip now, leaving ``why`` (one of RESTARTS) for the next boot."""
        machine.mem32[WATCHDOG_SCRATCH0] = RESTART_CODE + RESTARTS.index(why)
        machine.reset()

    def restarted_because(self):
        """The ``why`` of the restart this boot came from (read once), else None."""
        index = machine.mem32[WATCHDOG_SCRATCH0] - RESTART_CODE
        machine.mem32[WATCHDOG_SCRATCH0] = 0
        return RESTARTS[index] if 0 <= index < len(RESTARTS) else None

    def release_repl(self):
        """Give the port back to the REPL (mpremote knocked)."""
        micropython.kbd_intr(3)
