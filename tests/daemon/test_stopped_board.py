"""A board whose referee does not answer is seen as stopped, in words (issue 19, item 5): the web
console's state and its refusal of commands, the MQTT status (Home Assistant: unavailable) and
the classroom's row; once the referee answers again, everything says live. Before, the page
said "live", commands answered queued and the classroom listed the board online.

A real daemon's parts served in-process (service.build and its serve loop: the web console, the
MQTT bridge, the health watch) with a real Mosquitto; the core is made to hang on one command."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import urllib.error
import urllib.request

import pytest

from controller.classroom.boards import Boards
from controller.core.core import Core
from controller.daemon import doctor, health, service
from controller.daemon.config import load_config

from .daemon_proc import free_port
from .fakes import FakeNotifier
from .mosquitto import Watcher
from .mqtt.test_daemons import broker  # noqa: F401 (a fixture)


@contextlib.contextmanager
def serving(daemon):
    """Serve ``daemon`` (web console, MQTT, health watch) on a loop of its own thread."""
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    outcome: list[int] = []
    thread = threading.Thread(target=lambda: outcome.append(loop.run_until_complete(
        service._serve_until(daemon, stop, None))), name="serve")
    thread.start()
    try:
        end = time.monotonic() + 20
        while not daemon.urls and time.monotonic() < end and thread.is_alive():  # the web console listens
            time.sleep(0.02)
        yield outcome
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(30)
        loop.close()


@pytest.fixture
def hanging(tmp_path, monkeypatch):
    """A daemon (web console on a free port, MQTT to ``broker`` when given) whose core stops
    answering at a ``hint`` command until ``release`` is set."""
    monkeypatch.setattr(health, "STUCK_S", 0.5)
    monkeypatch.setattr(health, "WATCH_S", 0.1)
    release = threading.Event()
    real = Core.handle

    def handle(core, event):
        if getattr(event, "name", None) == "hint":
            release.wait(30)
        return real(core, event)

    monkeypatch.setattr(Core, "handle", handle)

    def make(mqtt_port: int | None = None):
        port = free_port()
        config_path = tmp_path / "config.toml"
        config_path.write_text(f'profile = "virtual-6x6"\n[storage]\njournal = "{tmp_path / "journal.jsonl"}"\n'
                               f'[web]\nenabled = true\nport = {port}\n' + (
                                   f'[mqtt]\nenabled = true\nport = {mqtt_port}\nboard = "t1"\n' if mqtt_port else ""))
        return service.build(load_config(config_path), FakeNotifier(), config_path), port, release

    yield make
    release.set()


def api(port: int, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="GET" if body is None else "POST",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_a_referee_that_does_not_answer_is_stopped_on_the_page_on_mqtt_and_in_the_classroom(broker, hanging):  # noqa: F811
    daemon, port, release = hanging(broker.port)
    watcher = Watcher(broker.port, "pentago-board/#")
    classroom = Boards("pentago-board")

    def rows():  # the classroom console's rows, from what the broker holds now
        for topic in ("pentago-board/t1/status", "pentago-board/t1/state"):
            payload = watcher.last(topic)
            if payload is not None:
                classroom.take(topic, payload)
        return {row["board"]: row for row in classroom.rows()}

    try:
        with serving(daemon) as outcome:
            watcher.wait(lambda: rows().get("t1", {}).get("status") == "online", "the board online")
            assert api(port, "/api/state")[1]["health"]["status"] == "live"
            assert api(port, "/api/command", {"name": "hint"})[0] == 202  # the core hangs on it
            row = watcher.wait(lambda: rows()["t1"]["status"] == "stopped" and rows()["t1"], "the board stopped")
            assert not row["online"] and row["status_words"].startswith("stopped: the referee has not answered for")
            state = api(port, "/api/state")[1]
            assert state["health"]["status"] == "stopped" and state["health"]["words"].startswith("stopped: ")
            code, refused = api(port, "/api/command", {"name": "menu"})
            assert code == 503 and refused["error"].startswith("stopped: the referee has not answered")
            watcher.publish("pentago-board/t1/command", json.dumps({"name": "menu", "id": "m1"}))
            said = watcher.wait(lambda: [e for e in watcher.json_on("pentago-board/t1/event")
                                         if e["type"] == "refused" and e.get("id") == "m1"], "the command refused")
            assert said[0]["reason"].startswith("stopped: the referee has not answered")
            [said] = [c for c in doctor.run_checks(daemon.config) if c.name == "running board"]
            assert not said.ok and said.detail.startswith("stopped: the referee has not answered")
            release.set()
            watcher.wait(lambda: rows()["t1"]["status"] == "online", "the board online again")
            assert api(port, "/api/state")[1]["health"] == health.live().to_json()
            assert [c.ok for c in doctor.run_checks(daemon.config) if c.name == "running board"] == [True]
        assert outcome == [service.EXIT_OK]
    finally:
        watcher.close()
