"""Robustness: unplug and replug the serial link again and again; how long until the Pi is back in step.

The real host driver (:class:`controller.drivers.serial_link.SerialLink`, default backoff and
timeouts) talks over a real pty to the fake MCU of the tests (``tests/drivers/fake_mcu.py``),
which keeps a live 6x6 board behind it and answers ``connect`` and ``request_snapshot`` from it.
Each cycle:

- while up: a few marbles placed or lifted and blocks turned, sent as events, then a heartbeat;
  the cycle waits until the host has reported them all;
- unplug mid-frame: the next change is made and half of its frame written, then the pty master
  closes (the host's read fails as on a USB unplug);
- while unplugged (up to ``--unplugged-s``): more marbles and turns, and half the time an MCU
  reset (a bus-powered Pico reboots on replug: new boot id, counts and seq from zero);
- replug: a new pty behind the same path; the MCU's first bytes are junk (the rest of the half
  frame, a REPL banner, a traceback or random bytes) before its hello and snapshot;
- every tenth cycle also resets the MCU while up (a watchdog reset: junk, hello, snapshot).

Back in step means: the host said the link is up, its last reading of every hole is the board's,
and the encoder steps it reported add up to the turns it could know of (turns made while the MCU
was unplugged and then reset are a new baseline, by design). Figures: resync time from the
replug (median, p99, max), how long the host took to notice the unplug, the resync after a reset
while up, and cycles that never got back in step within ``TIMEOUT_S`` (must be 0).

    .venv/bin/python bench/robustness/link_unplug.py [--cycles N] [--seed S] [--unplugged-s S]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # for the fake MCU of the tests

from controller.drivers.link.backoff import Backoff  # noqa: E402
from controller.drivers.link.mirror import reading_names  # noqa: E402
from controller.drivers.serial_link import SerialLink  # noqa: E402
from controller.events import EncoderSteps, HoleReading, InputEvent, LinkChange  # noqa: E402
from pentago_firmware import wire  # noqa: E402
from tests.drivers.fake_mcu import FakeMcu  # noqa: E402

COLOURS = {"north": "white", "south": "black"}
READINGS = reading_names(COLOURS)
SIZE, HOLES, BLOCKS = 6, 36, 4
TIMEOUT_S = 15.0  # longer than the whole default backoff ladder up to its 5 s cap
JUNK = (
    b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\nType \"help()\" for more information.\r\n>>> ",
    b'Traceback (most recent call last):\r\n  File "main.py", line 42, in <module>\r\nOSError: [Errno 5] EIO\r\n',
)


class LiveBoard:
    """The board behind the fake MCU, and the encoder steps the host is owed so far.

    Change it and build its frames only while holding ``mcu.lock``, so the fake's answers to
    the host always describe the board the frames written so far lead to.
    """

    turn_share = 0.3  # of changes that turn a block rather than place or lift a marble
    poles = (wire.NORTH, wire.SOUTH)  # what a placed marble reads

    def __init__(self, mcu: FakeMcu) -> None:
        self.mcu = mcu
        self.classes = [wire.EMPTY] * HOLES
        self.counts = [0] * BLOCKS
        self.owed = [0] * BLOCKS  # steps the host should have reported, per block
        self.junk = b""  # written once before the next hello
        mcu.answer(wire.CONNECT, lambda seq, fields: self.hello(wire.RESET_POWER_ON))
        mcu.answer(wire.REQUEST_SNAPSHOT, lambda seq, fields: [self.snapshot()])

    def snapshot(self) -> bytes:
        return self.mcu.snapshot(self.classes, self.counts)

    def hello(self, cause: int) -> list[bytes]:
        junk, self.junk = self.junk, b""
        return [junk, self.mcu.hello(reset_cause=cause), self.snapshot()]

    def change(self, rng: random.Random) -> bytes:
        """Place, lift or turn at random; the event frame that reports it."""
        if rng.random() < self.turn_share:
            block, steps = rng.randint(1, BLOCKS), rng.choice((-2, -1, 1, 2))
            self.counts[block - 1] = wire.wrap_count(self.counts[block - 1] + steps)
            self.owed[block - 1] += steps
            return self.mcu.encoder(block, steps)
        hole = rng.randrange(HOLES)
        self.classes[hole] = wire.EMPTY if self.classes[hole] else rng.choice(self.poles)
        return self.mcu.hole(hole, self.classes[hole])

    def heartbeat(self) -> bytes:
        return self.mcu.heartbeat(self.classes, self.counts)

    def reboot(self, boot_id: int) -> None:
        """The MCU restarted: counts from zero; turns since the host last looked are lost."""
        self.mcu.reboot(boot_id)
        self.counts = [0] * BLOCKS


class HostView:
    """What the host reported, from its events; ``wait`` until a condition on it holds."""

    def __init__(self) -> None:
        self.readings: dict[int, str] = {}
        self.steps = [0] * BLOCKS
        self.up = False
        self.downs = self.ups = 0
        self._changed = threading.Condition()

    def emit(self, event: InputEvent) -> None:
        with self._changed:
            if isinstance(event, HoleReading):
                self.readings[event.hole] = event.reading
            elif isinstance(event, EncoderSteps):
                self.steps[event.block - 1] += event.steps
            elif isinstance(event, LinkChange):
                self.up = event.up
                self.downs += not event.up
                self.ups += event.up
            self._changed.notify_all()

    def wait(self, ready: Callable[[], bool], since: float | None = None) -> float | None:
        """Seconds from ``since`` (a monotonic time, by default now) until ``ready()`` held
        (checked after each event and every few ms), or None if it did not within TIMEOUT_S."""
        since = time.monotonic() if since is None else since
        deadline = time.monotonic() + TIMEOUT_S
        with self._changed:
            while not ready():
                if time.monotonic() > deadline:
                    return None
                self._changed.wait(0.005)  # also polled: not every condition comes with an event
        return time.monotonic() - since

    def in_step(self, board: LiveBoard) -> bool:
        return (self.up and self.steps == board.owed
                and all(self.readings.get(h) == READINGS[c] for h, c in enumerate(board.classes)))


class Rig:
    """A started link to a fake MCU with a live board; ``close()`` when done. Each of
    ``watchers`` sees every event the host emits, before ``view`` does."""

    def __init__(self, directory: Path, backoff: Backoff, heartbeat_timeout_s: float = 1.0) -> None:
        self.mcu = FakeMcu(directory, boot_id=1)
        self.board = LiveBoard(self.mcu)
        self.view = HostView()
        self.watchers: list[Callable[[InputEvent], Any]] = []
        self.link = SerialLink(self.mcu.port, SIZE, COLOURS, reconnect=backoff,
                               heartbeat_timeout_s=heartbeat_timeout_s)
        self.link.start(self._emit)
        if self.view.wait(lambda: self.view.in_step(self.board)) is None:
            raise RuntimeError("the link never came up")

    def _emit(self, event: InputEvent) -> None:
        for watch in self.watchers:
            watch(event)
        self.view.emit(event)

    def close(self) -> None:
        self.link.stop()
        self.mcu.close()


def live_changes(rig: Rig, rng: random.Random) -> float | None:
    with rig.mcu.lock:
        rig.mcu.send(*[rig.board.change(rng) for _ in range(rng.randint(0, 3))], rig.board.heartbeat())
    return rig.view.wait(lambda: rig.view.in_step(rig.board))


def junk_before_hello(rng: random.Random, half_frame: bytes) -> bytes:
    """What a replugged MCU may write before its hello: never a whole frame."""
    pick = rng.randrange(4)
    if pick == 0:
        return half_frame[rng.randrange(1, len(half_frame)):]  # the rest of a frame cut short
    if pick == 3:
        return rng.randbytes(rng.randint(1, 64))
    return JUNK[pick - 1]


def unplug(rig: Rig, rng: random.Random) -> tuple[bytes, float | None]:
    """Cut the link mid-frame; the frame and how long the host took to notice."""
    with rig.mcu.lock:
        frame = rig.board.change(rng)
        rig.mcu.send(frame[:rng.randrange(1, len(frame) - 1)])
    downs = rig.view.downs
    rig.mcu.unplug()
    return frame, rig.view.wait(lambda: rig.view.downs > downs, rig.mcu.unplugged_at)


def while_unplugged(rig: Rig, rng: random.Random, unplugged_s: float, owed_before: list[int] | None) -> None:
    """Change the board; with ``owed_before``, reset the MCU too: the turns since then are in
    no snapshot the host can compare with, so they are owed no more."""
    for _ in range(rng.randint(0, 4)):
        rig.board.change(rng)
    if owed_before is not None:
        rig.board.owed = owed_before
        rig.board.reboot(rng.getrandbits(32))
    time.sleep(rng.uniform(0.0, unplugged_s))


def reset_while_up(rig: Rig, rng: random.Random) -> float | None:
    ups, since = rig.view.ups, time.monotonic()
    with rig.mcu.lock:
        rig.board.reboot(rng.getrandbits(32))
        rig.mcu.send(*[b"\x00" + rng.choice(JUNK)] + rig.board.hello(wire.RESET_WATCHDOG))
    return rig.view.wait(lambda: rig.view.ups > ups and rig.view.in_step(rig.board), since)


def cycle(rig: Rig, rng: random.Random, unplugged_s: float, figures: dict[str, list], reset_up: bool) -> None:
    """One unplug and replug, then maybe a reset while up; appends to ``figures`` (None marks a
    wait that timed out)."""
    figures["live"].append(live_changes(rig, rng))
    owed = list(rig.board.owed)
    frame, noticed = unplug(rig, rng)
    figures["down"].append(noticed)
    reset = rng.random() < 0.5
    figures["resets"].append(reset)
    while_unplugged(rig, rng, unplugged_s, owed if reset else None)
    with rig.mcu.lock:
        rig.board.junk = junk_before_hello(rng, frame)
    rig.mcu.plug()
    figures["resync"].append(rig.view.wait(lambda: rig.view.in_step(rig.board), rig.mcu.plugged_at))
    if reset_up:
        figures["reset_up"].append(reset_while_up(rig, rng))


def summary(times: list[float | None]) -> dict[str, float | None]:
    done = sorted(t for t in times if t is not None)
    if not done:
        return {"median_s": None, "p99_s": None, "max_s": None}
    return {"median_s": statistics.median(done), "p99_s": done[min(len(done) - 1, int(len(done) * 0.99))],
            "max_s": done[-1]}


def run(n: int, seed: int, unplugged_s: float = 0.5, backoff: Backoff | None = None) -> dict[str, Any]:
    """``n`` unplug/replug cycles from ``seed``; the figures as a dict (times in seconds)."""
    rng = random.Random(seed)
    figures: dict[str, list] = {"live": [], "down": [], "resets": [], "resync": [], "reset_up": []}
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as directory:
        rig = Rig(Path(directory), backoff or Backoff())
        try:
            for number in range(1, n + 1):
                cycle(rig, rng, unplugged_s, figures, reset_up=number % 10 == 0)
        finally:
            rig.close()
    waits = [t for key in ("live", "down", "resync", "reset_up") for t in figures[key]]
    changes = n + len(figures["reset_up"])  # each unplug and each reset: one down, one up
    return {
        "cycles": n, "seed": seed, "unplugged_max_s": unplugged_s,
        "resets_while_unplugged": sum(figures["resets"]), "resets_while_up": len(figures["reset_up"]),
        "resync": summary(figures["resync"]), "down_noticed": summary(figures["down"]),
        "resync_after_reset_while_up": summary(figures["reset_up"]),
        "never_in_step": waits.count(None),  # must be 0
        "unexpected_link_changes": abs(rig.view.downs - changes) + abs(rig.view.ups - 1 - changes),  # must be 0
        "unexpected_requests": len(rig.mcu.unexpected),  # must be 0
        "bad_frames_dropped": rig.link.rejected_frames,
        "seconds": time.monotonic() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unplugged-s", type=float, default=0.5, help="longest time unplugged")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # every cycle logs a link-down warning
    result = run(args.cycles, args.seed, args.unplugged_s)
    for key, value in result.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v * 1000:.1f} ms" if v is not None else f"{k} -" for k, v in value.items())
        print(f"{key:28} {value}")


if __name__ == "__main__":
    main()
