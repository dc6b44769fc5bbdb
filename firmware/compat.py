"""Clock and small helpers that differ between MicroPython and CPython.

On the Pico ``time`` has ``ticks_ms``/``ticks_us``/``ticks_diff``/``sleep_us`` (wrapping
counters); on the host they are built from ``time.monotonic_ns`` so the same firmware logic runs
under CPython. Every firmware module takes its clock from here, never from ``time`` directly.

Example::

    start = ticks_ms()
    ...
    if ticks_diff(ticks_ms(), start) >= 30:
        ...
"""

import time

try:
    from micropython import const  # noqa: F401  (re-exported)
except ImportError:  # CPython

    def const(value):
        """Identity: on MicroPython ``const`` folds the value into the bytecode."""
        return value


if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
    sleep_ms = time.sleep_ms
    sleep_us = time.sleep_us
    IS_MICROPYTHON = True
else:
    # The host clock does not wrap; MicroPython's does (every ~12 days for ms), which is why all
    # comparisons go through ticks_diff on both.
    _PERIOD = 1 << 30

    def ticks_ms():
        """Milliseconds on a wrapping counter, like MicroPython's."""
        return (time.monotonic_ns() // 1000000) % _PERIOD

    def ticks_us():
        """Microseconds on a wrapping counter, like MicroPython's."""
        return (time.monotonic_ns() // 1000) % _PERIOD

    def ticks_diff(later, earlier):
        """Signed difference of two tick values, correct across one wrap."""
        half = _PERIOD // 2
        return ((later - earlier + half) % _PERIOD) - half

    def ticks_add(ticks, delta):
        """A tick value ``delta`` after ``ticks``, wrapped."""
        return (ticks + delta) % _PERIOD

    def sleep_ms(ms):
        time.sleep(ms / 1000)

    def sleep_us(us):
        time.sleep(us / 1000000)

    IS_MICROPYTHON = False
