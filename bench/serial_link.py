"""Serial link: how fast the host decodes MCU frames, and how long a frame takes to become an event.

- codec: hole-event frames decoded per second by wire.FrameReader + decode_payload alone;
- throughput: hole events per second through the whole driver over a pty (frames written in bulk
  by a fake MCU, counted as events on the core's queue), and its ratio to the codec alone;
- latency: from one frame written to the pty to its event taken off the queue (median, p99).

A real board sends a few events per second; this shows the headroom. Prints figures only;
nothing is asserted. Usage: python bench/serial_link.py [--events N] [--samples N]
"""

from __future__ import annotations

import argparse
import queue
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for the fake MCU of the tests

from controller.drivers.serial_link import SerialLink  # noqa: E402
from controller.events import HoleReading  # noqa: E402
from pentago_firmware import wire  # noqa: E402
from tests.drivers.fake_mcu import FakeMcu  # noqa: E402

COLOURS = {"north": "white", "south": "black"}


def hole_frames(make: Callable[[int, int], bytes], count: int) -> list[bytes]:
    """Frames that each change a reading, so every one yields exactly one event: every hole
    north, then every hole empty again, and so on; whole rounds, so the board ends empty."""
    count += -count % 72
    return [make(i % 36, wire.NORTH if (i // 36) % 2 == 0 else wire.EMPTY) for i in range(count)]


def unnumbered_hole(hole: int, cls: int) -> bytes:
    return wire.encode_message(wire.HOLE, 0, {"hole": hole, "cls": cls})


def codec_rate(frames: list[bytes]) -> float:
    stream = b"".join(frames)
    start = time.perf_counter()
    decoded = [wire.decode_payload(t, p) for t, _s, p in wire.FrameReader().feed(stream)]
    elapsed = time.perf_counter() - start
    assert len(decoded) == len(frames)
    return len(frames) / elapsed


def connected(directory: Path) -> tuple[FakeMcu, SerialLink, queue.Queue]:
    mcu = FakeMcu(directory)
    mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot()])
    events: queue.Queue = queue.Queue()
    link = SerialLink(mcu.port, 6, COLOURS, heartbeat_timeout_s=60.0)
    link.start(events.put)
    if not link.wait_up(10.0):
        raise SystemExit("the link did not come up")
    while not events.empty():
        events.get()
    return mcu, link, events


def throughput(mcu: FakeMcu, events: queue.Queue, count: int) -> float:
    frames = hole_frames(mcu.hole, count)
    start = time.perf_counter()
    for i in range(0, len(frames), 200):  # a pty buffer holds a few kB: write in slices
        mcu.send(*frames[i:i + 200])
    for _ in frames:
        events.get(timeout=30)
    return len(frames) / (time.perf_counter() - start)


def latencies_ms(mcu: FakeMcu, events: queue.Queue, samples: int) -> list[float]:
    out = []
    for frame in hole_frames(mcu.hole, samples):
        start = time.perf_counter()
        mcu.send(frame)
        event = events.get(timeout=10)
        out.append((time.perf_counter() - start) * 1000)
        assert isinstance(event, HoleReading)
        time.sleep(0.002)  # one frame at a time, as a player makes them
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--samples", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        mcu, link, events = connected(Path(directory))
        try:
            codec = codec_rate(hole_frames(unnumbered_hole, args.events))
            rate = throughput(mcu, events, args.events)
            lat = latencies_ms(mcu, events, args.samples)
        finally:
            link.stop()
            mcu.close()
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    print(f"codec only:         {codec:10.0f} hole frames/s decoded")
    print(f"driver over a pty:  {rate:10.0f} hole events/s ({rate / codec:.2f} of the codec alone)")
    print(f"frame -> event:     median {statistics.median(lat):.3f} ms, p99 {p99:.3f} ms "
          f"({len(lat)} frames, one at a time)")


if __name__ == "__main__":
    main()
