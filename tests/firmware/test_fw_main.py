"""Portable test table: main.py on the ``machine`` stand-in: board.json from flash, hello on
USB, the watchdog only in production mode, and the loop handing the port back to the REPL when
mpremote knocks. Runs in a scratch folder (the Pico's flash stands in for it)."""

import json
import os

import boardconfig
import machine
import micropython
import wire

if not hasattr(micropython, "kbd_intr"):
    micropython.kbd_intr = lambda char: None   # CPython: see test_fw_hal.py

import main  # noqa: E402


class Stream:
    def __init__(self, data=b""):
        self.data = data
        self.written = b""

    def read(self, n):
        out, self.data = self.data[:n], self.data[n:]
        return out

    def write(self, data):
        self.written += data


class KnockingUsb:
    """Quiet for a few polls, then mpremote's Ctrl-C."""

    def __init__(self, quiet_polls=5):
        self.stdin = Stream()
        self.stdout = Stream()
        self.polls = quiet_polls

    def ready(self):
        self.polls -= 1
        if self.polls == 0:
            self.stdin.data = b"\r\x03"
        return bool(self.stdin.data)


FOLDERS = []


def scratch_flash():
    try:
        import tempfile
        folder = tempfile.mkdtemp()
    except ImportError:            # MicroPython: a fresh folder in the in-memory filesystem
        folder = "/flash%d" % len(FOLDERS)
        os.mkdir(folder)
    FOLDERS.append(folder)
    with open(folder + "/board.json", "w") as f:
        f.write(json.dumps(boardconfig.default(6)))
    return folder


def run_main(production):
    home = os.getcwd()
    os.chdir(scratch_flash())
    try:
        if production:
            open("production", "w").close()
        usb = KnockingUsb()
        before = len(machine.WDT.made)
        main.main(usb)
        return usb, machine.WDT.made[before:]
    finally:
        os.chdir(home)


def frames(data):
    return [(wire.NAMES[t], wire.decode_payload(t, p)) for t, _, p in wire.FrameReader().feed(data)]


def test_development_mode_says_hello_and_stops_at_the_knock_without_a_watchdog():
    usb, watchdogs = run_main(production=False)
    sent = frames(usb.stdout.written)
    assert [name for name, _ in sent[:2]] == ["hello", "snapshot"]
    assert sent[0][1]["size"] == 6 and sent[0][1]["reset_cause"] == wire.RESET_POWER_ON
    assert watchdogs == []
    assert usb.stdin.data == b""     # the knock was consumed and nothing after it


def test_production_mode_arms_and_feeds_the_watchdog():
    usb, watchdogs = run_main(production=True)
    assert len(watchdogs) == 1
    assert watchdogs[0].timeout == main.WATCHDOG_MS and watchdogs[0].feeds >= 1
