"""The clock, the same on MicroPython and CPython.

On the Pico ``time`` has ``ticks_ms``/``ticks_diff``/``ticks_add``/``sleep_ms``/``sleep_us``
(ticks wrap around); on the host they are built from ``time.monotonic_ns`` with the same wrap,
so the firmware logic runs unchanged under CPython. Every firmware module takes its clock from
here, never from ``time`` directly.

Example::

    start = ticks_ms()
    ...
    if ticks_diff(ticks_ms(), start) >= 30:
        ...
"""

import time

if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    ticks_add = time.ticks_add
    sleep_ms = time.sleep_ms
    sleep_us = time.sleep_us
else:
    # MicroPython's millisecond ticks wrap (at 2**30 on the rp2 port); the host's do too, so a
    # comparison that forgets ticks_diff fails in tests, not after twelve days on a board.
    _PERIOD = 1 << 30

    def ticks_ms():
        """Milliseconds on a wrapping counter, like MicroPython's."""
        return (time.monotonic_ns() // 1000000) % _PERIOD

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
