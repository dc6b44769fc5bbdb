"""A real Mosquitto broker for the tests, on a free localhost port, and a subscriber that keeps
every message it saw (Debian's ``mosquitto`` package; .ci/run installs it)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from .daemon_proc import free_port

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)


def needs_mosquitto() -> None:
    if MOSQUITTO is None:
        pytest.fail("mosquitto is not installed (Debian package mosquitto; .ci/run installs it)")


class Broker:
    """``mosquitto`` on 127.0.0.1:<free port>, without persistence: a restart forgets every
    retained message, so whatever is there afterwards was published again."""

    def __init__(self, tmp_path: Path) -> None:
        needs_mosquitto()
        self.port = free_port()
        self.conf = tmp_path / "mosquitto.conf"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        self.log_path = tmp_path / "mosquitto.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Broker:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=log, stderr=log)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"mosquitto did not listen on {self.port}: {self.log_path.read_text()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Watcher:
    """A paho-mqtt subscriber to ``topics`` that keeps every message (and resubscribes after a
    broker restart)."""

    def __init__(self, port: int, *topics: str) -> None:
        from paho.mqtt import client as mqtt

        self.messages: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.reconnect_delay_set(0.1, 0.5)
        self.client.on_connect = lambda c, *_: [c.subscribe(topic, qos=1) for topic in topics]
        self.client.on_message = self._keep
        self.client.connect("127.0.0.1", port, keepalive=5)
        self.client.loop_start()

    def _keep(self, client: Any, userdata: Any, message: Any) -> None:
        with self._lock:
            self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))

    def on(self, topic: str) -> list[bytes]:
        with self._lock:
            return [payload for t, payload, _ in self.messages if t == topic]

    def last(self, topic: str) -> bytes | None:
        found = self.on(topic)
        return found[-1] if found else None

    def json_on(self, topic: str) -> list[dict[str, Any]]:
        return [json.loads(payload) for payload in self.on(topic)]

    def wait(self, predicate: Any, what: str, timeout_s: float = 15.0) -> Any:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            found = predicate()
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"never saw {what}; the last topics: {[t for t, _, _ in self.messages[-12:]]}")

    def publish(self, topic: str, payload: bytes | str, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
