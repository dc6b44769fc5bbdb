"""Fixtures for the emulated-Pico tests: skipped with one line saying what is missing (under
``.ci/run`` such a skip is a failure: the root conftest.py's ``PENTAGO_REAL_PARTS``). Also the Pi's side of a paced Pico:
its real serial link over the pty bridge (:func:`linked`) and a wait for its events."""

import contextlib
import queue
import time

import pytest

from pico import Pico, PtyBridge, missing

COLOURS = {"north": "white", "south": "black"}
WAIT_S = 60          # wall seconds for any one thing to arrive (a loaded machine is slow)


def need_pico():
    _need(missing())


def need_slowed():
    """need_pico, and what pico_daemon needs to run a program at the emulator's pace."""
    import pico_daemon
    need_pico()
    _need(pico_daemon.missing())


def _need(reason):
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="module")
def booted6():
    """One 6x6 board booted to its first hello (batch mode), shared by a module's tests."""
    need_pico()
    with Pico(6) as pico:
        pico.wait_for("hello", limit_ms=3000)
        yield pico


@contextlib.contextmanager
def linked(pico, path, **link_options):
    """The Pi's real SerialLink on ``pico`` (paced) through a pty bridge at ``path``, up:
    yields ``(link, bridge, events)``. The link's clock is the emulator's time as last heard
    from the device, so its silence timers judge emulated time (FACTS.md 8)."""
    from controller.drivers.serial_link import SerialLink

    with PtyBridge(pico, path) as bridge:
        events = queue.Queue()
        link = SerialLink(str(bridge.path), pico.size, COLOURS, clock=lambda: pico.last_ns / 1e9,
                          **link_options)
        link.start(events.put)
        try:
            assert link.wait_up(WAIT_S), "the link never came up"
            yield link, bridge, events
        finally:
            link.stop()


def until(events, wanted, seen=None):
    """The first event from the link's queue for which ``wanted(event)`` holds (AssertionError
    after WAIT_S); every event taken on the way is appended to ``seen`` when given."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        try:
            event = events.get(timeout=0.1)
        except queue.Empty:
            continue
        if seen is not None:
            seen.append(event)
        if wanted(event):
            return event
    raise AssertionError("never arrived")
