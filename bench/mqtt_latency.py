"""Benchmark: does MQTT publishing cost the board anything? Event-to-frame latency with the MQTT
bridge off, on a live local Mosquitto, on a slow one (behind a proxy that holds every chunk
--slow-ms each way), on a dead broker (nothing listening: every connection is refused) and on a
black-hole broker (accepts the connection, never answers).

In-process, as the daemon runs: the real core on its runtime thread, the virtual board as its
input driver, the bridge on an asyncio loop of its own thread (the daemon's main loop). Players
place and twist at a fast pace (one action every --pace-ms) for --moves moves, in new games as
games end, for each kind in turn, --rounds times (interleaved, so the load of the machine
falls on every kind alike); a frame's latency is the time from the put of the input event it answers to the
pixel output's show, or for a frame the core's timers ask for (judging a settled board,
animations) from the deadline that was due to the show: how late the board lights what it should.
Also the only MQTT work done on the core thread: the time of each call of the bridge's listener
(its inbox put). On a shared machine the p99 follows the load; the median of the rounds' p99s
is the steadier figure. Prints the median, p99, the ratios to MQTT off, and the
bridge's unsent count; asserts nothing (timings belong here, not in tests).

    .venv/bin/python bench/mqtt_latency.py [--moves 40] [--rounds 3] [--pace-ms 30]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from controller.core import Core
from controller.daemon.config import MqttConfig
from controller.daemon.notify import Notifier
from controller.daemon.runtime import Runtime
from controller.drivers.virtual import VirtualBoard
from controller.events import Command, Tick
from controller.profile import load_profile

MOVES = [("b5", 4, True), ("e2", 1, False), ("a1", 3, True), ("f6", 2, False), ("c3", 1, True),
         ("d4", 4, False), ("a6", 1, True), ("f1", 3, False)]


class Pixels:
    """Records when each frame is shown."""

    def __init__(self, timing: Timing) -> None:
        self.timing = timing

    def show(self, frame: Any) -> None:
        self.timing.shown(time.monotonic())

    def close(self) -> None:
        pass


class Timing:
    """When the event in hand on the core thread should have been answered, and the latencies."""

    def __init__(self) -> None:
        self.put_at: dict[int, float] = {}
        self.due: float | None = None  # the put time of the input in hand, or the deadline a Tick serves
        self.latencies: list[float] = []

    def handling(self, event: Any, deadline: float | None) -> None:
        self.due = deadline if isinstance(event, Tick) else self.put_at.pop(id(event), None)

    def shown(self, now: float) -> None:
        if self.due is not None:
            self.latencies.append(now - self.due)
            self.due = None


class Journal:
    def append(self, record: dict[str, Any]) -> None:
        pass

    def clear(self, records: Any = ()) -> None:
        pass


def runtime_for(timing: Timing) -> tuple[Runtime, VirtualBoard]:
    profile = load_profile("virtual-6x6")
    core = Core(profile, start_time=time.monotonic())
    handle = core.handle

    def timed(event: Any) -> Any:
        timing.handling(event, core.next_deadline())
        return handle(event)

    core.handle = timed  # type: ignore[method-assign]
    board = VirtualBoard.from_profile(profile)
    runtime = Runtime(core, inputs=board, pixels=Pixels(timing), journal=Journal(), notifier=Notifier({}))
    put = runtime.put

    def stamped(event: Any) -> None:
        timing.put_at[id(event)] = time.monotonic()
        put(event)

    runtime.put = stamped  # type: ignore[method-assign]
    return runtime, board


class Loop:
    """An asyncio loop on its own thread, standing in for the daemon's main loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def close(self) -> None:
        """End the loop as asyncio.run ends the daemon's: the tasks left on it cancelled and
        finished, then the loop closed. A connection attempt the bridge's stop gave up (the
        black-hole broker's) leaves an aiomqtt client with its socket open and its housekeeping
        task pending; the socket closes when the client is collected, at exit, and its close
        asks the loop to cancel that task: on a loop closed with it still pending, that was
        "Event loop is closed" (the loops were kept open for this, and closed at exit anyway)."""
        self.run(self._finish())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()

    async def _finish(self) -> None:
        left = asyncio.all_tasks() - {asyncio.current_task()}
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
        await self.loop.shutdown_asyncgens()
        await self.loop.shutdown_default_executor()  # the thread a client connects on


def play(runtime: Runtime, board: VirtualBoard, moves: int, pace_s: float) -> None:
    """Place and twist at the pace; a new game whenever the last one ended or filled up."""
    made = 0
    while made < moves:
        runtime.put(Command(runtime.clock(), "new_game", {"game": "classic"}))
        time.sleep(pace_s)
        for marble in board.marbles():
            board.lift(marble)
        time.sleep(pace_s * 4)
        for hole, block, clockwise in MOVES:
            if made >= moves:
                return
            board.place(hole)
            time.sleep(max(pace_s, 0.25))  # the core judges a placement after its settle time
            board.quarter(block, clockwise)
            time.sleep(max(pace_s, 0.25))
            made += 1


def black_hole() -> tuple[socket.socket, int]:
    """A listening socket that accepts connections (the kernel's backlog) and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock, sock.getsockname()[1]


class SlowProxy:
    """Forwards TCP to ``port`` on its own thread, holding every chunk ``delay_s`` each way."""

    def __init__(self, port: int, delay_s: float) -> None:
        self.upstream, self.delay_s = port, delay_s
        self.loop = Loop()
        self.server = self.loop.run(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer),
                             return_exceptions=True)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while chunk := await reader.read(65536):
            await asyncio.sleep(self.delay_s)
            writer.write(chunk)
            await writer.drain()
        writer.close()

    def close(self) -> None:
        self.server.close()
        self.loop.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def mosquitto(tmp: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    conf = tmp / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, port


def measure(port: int | None, moves: int, pace_s: float) -> tuple[list[float], int, list[float]]:
    """Latencies with the bridge publishing to ``port`` (None: MQTT off), the unsent count and
    the seconds of each call of the bridge's listener on the core thread."""
    from controller.daemon.mqtt.bridge import Bridge

    timing = Timing()
    runtime, board = runtime_for(timing)
    loop, bridge, listener_s = Loop(), None, []
    runtime.start()
    if port is not None:
        bridge = Bridge(MqttConfig(enabled=True, host="127.0.0.1", port=port, board="bench"), runtime, {})

        async def start() -> None:
            bridge.start()
            put = runtime.listeners.pop()

            def timed_put(state: Any, notices: Any, events: Any) -> None:
                began = time.perf_counter()
                put(state, notices, events)
                listener_s.append(time.perf_counter() - began)

            runtime.listeners.append(timed_put)

        loop.run(start())
    try:
        play(runtime, board, moves, pace_s)
        time.sleep(0.3)
    finally:
        if bridge is not None:
            loop.run(bridge.stop())
        runtime.stop()
        loop.close()
    return timing.latencies, bridge.unsent if bridge is not None else 0, listener_s


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    logging.getLogger("pentago_board").setLevel(logging.ERROR)  # "broker unreachable" is the point here
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves played per broker kind and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every kind")
    parser.add_argument("--pace-ms", type=float, default=30.0, help="time between a player's actions")
    parser.add_argument("--slow-ms", type=float, default=200.0, help="the slow broker's delay each way")
    args = parser.parse_args()
    pace_s = args.pace_ms / 1000
    with tempfile.TemporaryDirectory() as tmp:
        broker, live_port = mosquitto(Path(tmp))
        slow = SlowProxy(live_port, args.slow_ms / 1000)
        hole, hole_port = black_hole()
        dead_port = free_port()  # nothing listens there
        kinds = {"MQTT off": None, "live broker": live_port, "slow broker": slow.port, "dead broker": dead_port,
                 "black-hole broker": hole_port}
        latencies: dict[str, list[float]] = {kind: [] for kind in kinds}
        round_p99: dict[str, list[float]] = {kind: [] for kind in kinds}
        listener: dict[str, list[float]] = {kind: [] for kind in kinds}
        unsent = dict.fromkeys(kinds, 0)
        try:
            for _ in range(args.rounds):
                for kind, port in kinds.items():
                    found, dropped, calls = measure(port, args.moves, pace_s)
                    latencies[kind] += found
                    round_p99[kind].append(p99(found))
                    listener[kind] += calls
                    unsent[kind] += dropped
        finally:
            slow.close()
            broker.terminate()
            hole.close()
    base = statistics.median(latencies["MQTT off"]), statistics.median(round_p99["MQTT off"])
    print(f"event -> frame latency, {args.rounds} x {args.moves} moves per kind at {args.pace_ms:g} ms "
          "between actions")
    for kind in kinds:
        median, steady_p99 = statistics.median(latencies[kind]), statistics.median(round_p99[kind])
        calls = listener[kind]
        on_core = (f"  listener on the core thread: median {statistics.median(calls) * 1e6:5.1f} us, "
                   f"p99 {p99(calls) * 1e6:5.1f} us" if calls else "")
        print(f"{kind:18} n={len(latencies[kind]):4}  median {median * 1e3:5.2f} ms (x{median / base[0]:4.2f})  "
              f"p99 {p99(latencies[kind]) * 1e3:6.2f} ms  median of rounds' p99 {steady_p99 * 1e3:6.2f} ms "
              f"(x{steady_p99 / base[1]:4.2f})  unsent {unsent[kind]}{on_core}")


if __name__ == "__main__":
    main()
