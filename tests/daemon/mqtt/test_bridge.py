"""The MQTT bridge with no broker to talk to: the board plays on, events wait in a bounded
outbox and what is dropped is counted; and a config asking for MQTT without its client library
is refused at start-up with what to install."""

from __future__ import annotations

import asyncio
import sys

import pytest

from controller.daemon.config import Config, MqttConfig
from controller.errors import ConfigError
from controller.flow.published import Moved, Started

from ..daemon_proc import free_port


class Runtime:
    """What the bridge needs of the runtime: its newest state, its listeners, put and clock."""

    def __init__(self) -> None:
        self.snapshot = {"state": "choosing", "game": None, "moves": [], "outcome": None, "repair": [], "link": True}
        self.listeners: list = []
        self.health_listeners: list = []
        self.put_events: list = []

    def health(self):
        from controller.daemon.health import live

        return live()

    def put(self, event) -> None:
        self.put_events.append(event)

    def clock(self) -> float:
        return 0.0


def test_with_the_broker_down_events_wait_in_a_bounded_outbox_and_the_overflow_is_counted():
    from controller.daemon.mqtt import bridge as module

    async def run() -> tuple[int, int, bool]:
        runtime = Runtime()
        bridge = module.Bridge(MqttConfig(enabled=True, host="127.0.0.1", port=free_port(), board="b1"), runtime, {})
        bridge.start()
        state = {**runtime.snapshot, "state": "awaiting_placement", "game": "classic",
                 "record": {"headers": {"Variant": "classic"}, "moves": []}}
        moves: list[str] = []
        for n in range(module.OUTBOX_SIZE + 10):  # each state adds one move: one event each, and one game
            moves = [*moves, f"m{n}"]
            started = (Started("classic", [], {}),) if n == 0 else ()
            for listener in runtime.listeners:
                listener({**state, "moves": moves}, (), (*started, Moved(n + 1, moves[-1])))
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        waiting, unsent, connected = len(bridge._outbox), bridge.unsent, bridge.connected
        await bridge.stop()
        assert runtime.listeners == []  # a stopped bridge is no longer called from the core thread
        return waiting, unsent, connected

    waiting, unsent, connected = asyncio.run(run())
    assert not connected
    assert waiting == 256
    assert unsent == 11  # 266 moves and a game event, of which 256 fit


def test_mqtt_without_its_client_library_is_refused_at_start_up_saying_what_to_install(monkeypatch):
    from controller.daemon import service

    monkeypatch.setitem(sys.modules, "aiomqtt", None)  # as if the mqtt extra were not installed
    monkeypatch.delitem(sys.modules, "controller.daemon.mqtt.bridge", raising=False)
    config = Config(mqtt=MqttConfig(enabled=True, board="b1"))
    with pytest.raises(ConfigError, match=r"mqtt.enabled = true needs the MQTT client \(aiomqtt is missing\): "
                                          r"pip install 'pentago-board\[mqtt\]'"):
        service._mqtt(config, Runtime())


def test_a_session_failing_the_same_way_at_every_retry_is_logged_once_then_counted(monkeypatch, caplog):
    import logging

    from controller.daemon.mqtt import bridge as module

    monkeypatch.setattr(module, "RETRY_S", (0.001, 0.002))

    async def run() -> None:
        bridge = module.Bridge(MqttConfig(enabled=True, host="127.0.0.1", port=free_port(), board="b1"), Runtime(), {})
        attempts = []

        def failing_client():
            attempts.append(1)
            raise UnicodeError("encoding with 'idna' codec failed (UnicodeError: label empty or too long)")

        bridge._client = failing_client
        bridge.start()
        while len(attempts) < 20:
            await asyncio.sleep(0.005)
        await bridge.stop()
        assert bridge._failed.repeats >= 19

    with caplog.at_level(logging.ERROR, logger="pentago_board"):
        asyncio.run(run())
    failed = [r for r in caplog.records if r.getMessage().startswith("mqtt session failed")]
    assert len(failed) == 1 and "label empty or too long" in failed[0].getMessage()


def test_an_unreadable_ca_file_is_refused_naming_the_key(tmp_path):
    from controller.daemon.mqtt.bridge import tls_context

    with pytest.raises(ConfigError, match=r"mqtt.ca_file = '.*nowhere.pem': cannot use it"):
        tls_context(MqttConfig(enabled=True, tls=True, ca_file=str(tmp_path / "nowhere.pem")))
    assert tls_context(MqttConfig(enabled=True, tls=True)) is not None
    assert tls_context(MqttConfig(enabled=True)) is None


def test_a_stop_while_a_silent_broker_keeps_the_connection_hanging_ends_the_attempt_at_once():
    import logging
    import socket

    from controller.daemon.mqtt.bridge import Bridge

    said: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("pentago_board")
    logger.addHandler(handler)
    with socket.socket() as silent:  # accepts connections (its backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)

        async def run() -> bool:
            bridge = Bridge(MqttConfig(enabled=True, host="127.0.0.1", port=silent.getsockname()[1], board="b1"),
                            Runtime(), {})
            bridge.start()
            await asyncio.sleep(0.2)  # the client waits for the broker's answer
            await bridge.stop()
            return bridge._task.done()

        try:
            assert asyncio.run(run())
        finally:
            logger.removeHandler(handler)
    assert "mqtt: the broker did not take the goodbye in time" not in said


# The benches' loop (bench/mqtt_latency.py, which bench/mqtt_classroom.py borrows) run as they
# run it: a thread of its own, the bridge stopped while a silent broker holds its connection.
BENCH_LOOP = """
import time
from bench.mqtt_latency import Loop, black_hole
from controller.daemon.config import MqttConfig
from controller.daemon.mqtt.bridge import Bridge
from tests.daemon.mqtt.test_bridge import Runtime

silent, port = black_hole()
loop = Loop()
bridge = Bridge(MqttConfig(enabled=True, host="127.0.0.1", port=port, board="b1"), Runtime(), {})
async def start():
    bridge.start()
loop.run(start())
time.sleep(0.3)  # the client waits for the broker's answer
loop.run(bridge.stop())
loop.close()
silent.close()
"""


def test_the_benches_loop_ends_quietly_after_a_stop_that_gave_up_a_connection():
    """aiomqtt leaves a connection attempt the stop cancelled with its housekeeping task and its
    socket; the loop ends as asyncio.run ends the daemon's, so nothing is said at exit (it
    printed "Event loop is closed" when the socket closed after the loop)."""
    import subprocess

    from ..daemon_proc import ROOT

    done = subprocess.run([sys.executable, "-c", BENCH_LOOP], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def test_a_game_resumed_before_the_core_published_its_first_state_is_no_event():
    """The runtime's snapshot is {} until the core thread's first publish: the first real state
    (a resumed game, moves and all) is where the events start, not a game and moves of its own."""
    from controller.daemon.mqtt.bridge import Bridge

    async def run() -> list[str]:
        runtime = Runtime()
        runtime.snapshot = {}
        bridge = Bridge(MqttConfig(enabled=True, host="127.0.0.1", port=free_port(), board="b1"), runtime, {})
        bridge.start()
        resumed = {"state": "awaiting_placement", "game": "classic", "moves": ["b5 4R", "e2 1L"], "outcome": None,
                   "repair": [], "link": True, "record": {"headers": {"Variant": "classic"}, "moves": []}}
        for listener in runtime.listeners:
            listener(resumed, (), ())
        await asyncio.sleep(0.05)
        waiting = list(bridge._outbox)
        await bridge.stop()
        return waiting

    assert asyncio.run(run()) == []


def test_events_in_flight_when_the_connection_drops_go_back_in_front_within_the_bound():
    import aiomqtt

    from controller.daemon.mqtt import bridge as module

    async def run() -> tuple[list[int], int]:
        bridge = module.Bridge(MqttConfig(enabled=True, board="b1"), Runtime(), {})
        for n in range(module.OUTBOX_SIZE):
            bridge._queue_event({"type": "notice", "text": str(n)})

        class Dropping:
            """A client whose connection drops while a batch is in flight, as new events arrive."""

            async def publish(self, *args, **kwargs) -> None:
                if not hasattr(self, "dropped"):
                    self.dropped = True
                    for n in range(module.IN_FLIGHT):
                        bridge._queue_event({"type": "notice", "text": f"new {n}"})
                raise aiomqtt.MqttError("the connection dropped")

        with pytest.raises(aiomqtt.MqttError):
            await bridge._flush(Dropping())
        import json

        return [json.loads(e)["seq"] for e in bridge._outbox], bridge.unsent

    seqs, unsent = asyncio.run(run())
    total = module.OUTBOX_SIZE + module.IN_FLIGHT
    assert len(seqs) == module.OUTBOX_SIZE and seqs == sorted(seqs)  # in order, the oldest dropped
    assert seqs[-1] == total and unsent == total - module.OUTBOX_SIZE
