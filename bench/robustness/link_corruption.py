"""Robustness: corrupted bytes and damaged frames into the serial link; not one may be believed.

The real host driver (:class:`controller.drivers.serial_link.SerialLink`) is up over a real pty
with the fake MCU of the tests and its live board (``bench/robustness/link_unplug.py``), and the
MCU's stream is attacked in two phases:

- bytes: ``10 * n`` corrupted bytes, as bursts of line noise (any bytes, zeros included) and as
  frames with one to six bytes replaced, lost or added;
- frames: ``n`` frames damaged in one of the ways of ``tests/drivers/damage.py`` (bit errors,
  bursts, lost or extra bytes, cut short at either end, a zero inside, a stale CRC, a body
  padded past the 250-byte limit with a good CRC, ...).

Every damaged frame was made from a message the board never sends here (a south marble, a turn,
a snapshot full of south marbles, a hello from a rebooted MCU, a log line), while good frames
(marbles placed and lifted, heartbeats) keep flowing between them. Figures: ``accepted``, the
frames the protocol session was handed that were never sent whole (must be 0); ``believed``,
events only a damaged frame could have caused (must be 0); good frames lost (must be
0: damage never costs a neighbour); the link's own count of dropped frames; link drops; whether
the host ended in step with the board; and the time taken.

    .venv/bin/python bench/robustness/link_corruption.py [--frames N] [--bytes N] [--seed S]
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # for the fake MCU and the damage of the tests

from bench.robustness.link_unplug import Rig  # noqa: E402
from controller.drivers.link.backoff import Backoff  # noqa: E402
from controller.events import EncoderSteps, HoleReading, InputEvent, LinkChange  # noqa: E402
from pentago_firmware import wire  # noqa: E402
from tests.drivers.damage import corrupt_bytes, damage  # noqa: E402

BATCH_BYTES = 4096  # written in one go, under the fake's lock
GOOD_SHARE = 0.3  # chance of a good frame after each damaged one


def believed(event: InputEvent) -> str:
    """What only a damaged frame could have made the host report here, or ""."""
    if isinstance(event, HoleReading) and event.reading == "black":
        return "south marble"
    if isinstance(event, EncoderSteps):
        return "turn"
    return "link down" if isinstance(event, LinkChange) and not event.up else ""


class Attack:
    """Builds the attacked stream and keeps the books: good frames sent, frames received."""

    def __init__(self, rig: Rig, rng: random.Random) -> None:
        self.rig, self.rng, self.mcu = rig, rng, rig.mcu
        self.good: Counter = Counter()  # (type, seq, payload) of every whole frame the MCU sent
        self.good_before_end: Counter = Counter()
        self.received: list[tuple[int, int, bytes]] = []
        self.believed: Counter = Counter()
        rig.watchers.append(lambda event: self.believed.update([believed(event)] if believed(event) else []))
        self.kinds: Counter = Counter()
        self.batch: list[bytes] = []
        self.written = 0
        make = self.mcu.frame
        self.mcu.frame = lambda mtype, fields=None: self._good(make(mtype, fields))
        session = rig.link._session  # the bench audits what reaches the protocol session
        receive = session.receive
        session.receive = lambda now, mtype, seq, payload: (
            self.received.append((mtype, seq, bytes(payload))) or receive(now, mtype, seq, payload))

    def _good(self, frame: bytes) -> bytes:
        self.good[wire.FrameReader().feed(frame)[0]] += 1
        return frame

    def poison(self) -> bytes:
        """A frame body for a message this board never sends, numbered like the MCU's own."""
        rng, seq = self.rng, self.mcu.seq
        self.mcu.seq = (seq + 1) & 0xFF
        mtype, fields = rng.choice((
            (wire.HOLE, {"hole": rng.randrange(36), "cls": wire.SOUTH}),
            (wire.ENCODER, {"block": rng.randint(1, 4), "steps": rng.choice((-3, -1, 1, 2))}),
            (wire.SNAPSHOT, {"classes": [wire.SOUTH] * 36, "counts": [7, -7, 1, 2**31 - 1]}),
            (wire.HELLO, {"protocol": 1, "size": 6, "caps": 3, "reset_cause": 2, "boot_id": rng.getrandbits(32),
                          "firmware": "0.1.0"}),
            (wire.LOG, {"text": "a damaged frame believed"}),
        ))
        return wire.encode_message(mtype, seq, fields)[1:-1]

    def add(self, chunk: bytes) -> None:
        self.batch.append(chunk)
        if sum(map(len, self.batch)) >= BATCH_BYTES:
            self.flush()

    def maybe_good(self) -> None:
        if self.rng.random() < GOOD_SHARE:
            self.add(self.rig.board.change(self.rng) if self.rng.random() < 0.8 else self.rig.board.heartbeat())

    def flush(self) -> None:
        data, self.batch = b"".join(self.batch), []
        self.written += len(data)
        self.mcu.send(data)

    def bytes_phase(self, target: int) -> int:
        corrupted = 0
        while corrupted < target:
            with self.mcu.lock:
                if self.rng.random() < 0.3:
                    noise = self.rng.randbytes(self.rng.randint(1, 64))
                    self.add(noise)
                    corrupted += len(noise)
                else:
                    count = self.rng.randint(1, 6)
                    self.add(b"\x00" + corrupt_bytes(self.poison(), self.rng, count) + b"\x00")
                    corrupted += count
                self.maybe_good()
        return corrupted

    def frames_phase(self, count: int) -> int:
        for _ in range(count):
            with self.mcu.lock:
                kind, damaged = damage(self.poison(), self.rng)
                self.kinds[kind] += 1
                self.add(b"\x00" + damaged + b"\x00")
                self.maybe_good()
        return count

    def checkpoint(self) -> bool:
        """Send a good change and a heartbeat; True once the host has read everything written
        so far and is in step with the board (False after TIMEOUT_S)."""
        with self.mcu.lock:
            self.add(self.rig.board.change(self.rng))
            self.add(self.rig.board.heartbeat())
            self.flush()
            self.good_before_end = Counter(self.good)  # later snapshot answers may go unread
            last = sum(self.good.values())
        view, board = self.rig.view, self.rig.board
        return view.wait(lambda: len(self.received) >= last and view.in_step(board)) is not None

    def accepted(self) -> int:
        """Frames the session was handed that the MCU never sent whole."""
        with self.mcu.lock:  # the fake's own answers (snapshots) count good frames from its thread
            good = Counter(self.good)
        return sum((Counter(self.received) - good).values())

    def lost(self) -> int:
        """Good frames written before the end that the session never got."""
        return sum((self.good_before_end - Counter(self.received)).values())


def phase(attack: Attack, name: str, action: Callable[[], int]) -> dict[str, Any]:
    """Run one attack, wait until the host has read it all; its figures."""
    start, accepted = time.monotonic(), attack.accepted()
    figures = {name: action(), "in_step_after": attack.checkpoint()}
    return {**figures, "accepted": attack.accepted() - accepted, "seconds": round(time.monotonic() - start, 3)}


def run(n: int, seed: int, corrupted_bytes: int | None = None) -> dict[str, Any]:
    """``n`` damaged frames and ``corrupted_bytes`` (default ``10 * n``) corrupted bytes."""
    rng = random.Random(seed)
    result: dict[str, Any] = {"seed": seed}
    with tempfile.TemporaryDirectory() as directory:
        rig = Rig(Path(directory), Backoff())
        rig.board.poles, rig.board.turn_share = (wire.NORTH,), 0.0  # south and turns are poison
        attack, stalled = Attack(rig, rng), ""
        target = 10 * n if corrupted_bytes is None else corrupted_bytes
        try:
            result["bytes"] = phase(attack, "corrupted_bytes", lambda: attack.bytes_phase(target))
            result["frames"] = phase(attack, "damaged_frames", lambda: attack.frames_phase(n))
        except TimeoutError as error:  # the host stopped reading: say why rather than hang
            stalled = f"{error}; link error: {rig.link.error}"
        finally:
            rig.close()
    return {
        **result, "damage_kinds": dict(sorted(attack.kinds.items())),
        "good_frames": sum(attack.good.values()), "bytes_written": attack.written,
        "accepted": attack.accepted(), "believed": sum(attack.believed.values()),  # both must be 0
        "good_frames_lost": attack.lost(),  # must be 0
        "dropped_by_link": rig.link.rejected_frames, "link_drops": attack.believed["link down"],
        "host_stalled": stalled,  # must be ""
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000, help="damaged frames")
    parser.add_argument("--bytes", type=int, default=None, help="corrupted bytes (default 10 x frames)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    for key, value in run(args.frames, args.seed, args.bytes).items():
        print(f"{key:18} {value}")


if __name__ == "__main__":
    main()
