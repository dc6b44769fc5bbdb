"""The core thread never dies (issue 19, items 3 and 5): a fault while handling one event, asking
the core's state (the runtime's publish) or its deadline, or in a listener, is logged once with
its traceback, the event set aside, the core rebuilt from its journal as a start builds it and
the players told; a journal whose game keeps failing is set aside and the board starts at the
menu; a core that cannot be rebuilt ends the thread and the daemon exits; the watchdog is fed by
the core thread alone, and a core that does not answer is "stopped" in words.

A real daemon's parts (service.build: the virtual board, the journal, the rebuild), with faults
put into the real core's flow."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import pytest

from controller.core import snapshot
from controller.daemon import health, service
from controller.daemon.config import Config
from controller.events import Command
from controller.flow.place_twist import PlaceTwistFlow
from controller.journal import Journal

from .fakes import FakeCore, FakeNotifier, HangingCore
from .test_runtime import make, wait_for

START = {"t": 1.0, "kind": "start", "game": "classic", "players": 2, "computer": False, "match": False, "starter": 1}


@pytest.fixture
def daemon(tmp_path):
    """Build a daemon on a tmp journal (optionally holding ``records``) and start its core."""
    made = []

    def run(records=(), notifier=None):
        journal = tmp_path / "journal.jsonl"
        if records:
            Journal(journal).clear(records)
        d = service.build(Config(profile="virtual-6x6", journal=journal), notifier or FakeNotifier())
        notices: list[str] = []
        d.runtime.listeners.append(lambda state, new, events: notices.extend(new))
        d.runtime.start()
        made.append(d)
        return d.runtime, d.board, notices

    yield run
    for d in made:
        d.runtime.stop()
        d.runtime.journal.close()


def faults(logs):
    return [r for r in logs.records if r.getMessage().startswith("core failed")]


def fail_once(monkeypatch, cls, name, error=RuntimeError("a bug")):
    real, failed = getattr(cls, name), []

    def once(self, *args, **kw):
        if not failed:
            failed.append(True)
            raise error
        return real(self, *args, **kw)

    monkeypatch.setattr(cls, name, once)
    return failed


def test_a_fault_judging_a_move_is_set_aside_the_core_rebuilt_and_the_board_plays_on(daemon, monkeypatch, logs):
    runtime, board, notices = daemon()
    runtime.put(Command(time.monotonic(), "new_game", {"game": "classic"}))
    assert wait_for(lambda: runtime.snapshot.get("state") == "awaiting_placement")
    first = runtime.core
    failed = fail_once(monkeypatch, PlaceTwistFlow, "accept")
    board.place("c3")
    # the judging tick failed; the rebuilt core (journal: the start) sees c3 and accepts it
    assert wait_for(lambda: runtime.snapshot.get("state") == "awaiting_twist")
    assert failed and runtime.core is not first and runtime.health().status == "live"
    [fault] = faults(logs)
    assert fault.exc_info is not None and fault.fields["event"].startswith("Tick(")  # once, with its traceback
    assert ("something went wrong with the timer: it was set aside and the board rebuilt from its journal "
            "(the log has the details)") in notices
    assert [r["kind"] for r in Journal(runtime.journal.path).read()] == ["start", "place"]


def test_a_fault_in_the_state_the_runtime_publishes_rebuilds_the_core(daemon, monkeypatch, logs):
    runtime, board, notices = daemon()
    real = snapshot.state
    calls = []

    def state_failing_at_the_new_game(core):
        if core.flow.game is not None and not calls:
            calls.append(core)
            raise IndexError("list index out of range")
        return real(core)

    monkeypatch.setattr(snapshot, "state", state_failing_at_the_new_game)
    runtime.put(Command(time.monotonic(), "new_game", {"game": "classic"}))
    assert wait_for(lambda: runtime.snapshot.get("state") == "awaiting_placement")  # resumed: the start is durable
    assert calls and len(faults(logs)) == 1 and runtime._thread.is_alive()


def test_a_fault_in_the_deadline_rebuilds_the_core(daemon, monkeypatch, logs):
    """The deadline is worked out with each event's effects: a fault in it is a fault handling
    that event (set aside, the core rebuilt from the journal, which sees the board as it is)."""
    from controller.core.core import Core

    runtime, board, _ = daemon()
    runtime.put(Command(time.monotonic(), "new_game", {"game": "classic"}))
    assert wait_for(lambda: runtime.snapshot.get("state") == "awaiting_placement")
    failed = fail_once(monkeypatch, Core, "next_deadline")
    board.place("c3")
    assert wait_for(lambda: runtime.snapshot.get("state") == "awaiting_twist")
    assert failed and len(faults(logs)) == 1 and runtime._thread.is_alive()


def test_a_journal_whose_game_always_fails_is_set_aside_and_the_board_starts_at_the_menu(daemon, monkeypatch, logs):
    """Item 3's journal (a resumed game whose state raised at every start), at a start and
    when the same fault comes back after every rebuild."""
    real = snapshot.state

    def broken_game(core):
        if core.flow.game is not None:
            raise IndexError("list index out of range")
        return real(core)

    monkeypatch.setattr(snapshot, "state", broken_game)
    runtime, board, notices = daemon([START, {"t": 2.0, "kind": "place", "hole": "a1"}])
    assert wait_for(lambda: runtime.snapshot.get("state") == "choosing")
    assert runtime.core.resume.problem.startswith("its game cannot be run (IndexError")
    [aside] = Journal(runtime.journal.path).set_aside_files()
    assert Journal(aside).read()[0] == START and Journal(runtime.journal.path).read() == []
    assert wait_for(lambda: any(n.startswith("journal: its game cannot be run") for n in notices))
    # now a game starts, and fails at its first publish: the rebuild meets the same, at the menu
    runtime.put(Command(time.monotonic(), "new_game", {"game": "classic"}))
    assert wait_for(lambda: len(Journal(runtime.journal.path).set_aside_files()) == 2)
    assert wait_for(lambda: sum(n.startswith("journal: its game cannot be run") for n in notices) == 2)
    assert runtime.snapshot.get("state") == "choosing"
    assert runtime._thread.is_alive() and runtime.health().status == "live"


def test_a_game_failing_at_every_event_is_set_aside_after_a_rebuild_and_the_board_starts_at_the_menu(
        daemon, monkeypatch, logs):
    from controller.core.core import Core

    real = Core.handle

    def handle(core, event):
        if core.flow.game is not None:
            raise KeyError("expected")
        return real(core, event)

    monkeypatch.setattr(Core, "handle", handle)
    runtime, board, notices = daemon([START])  # resumes (its state answers), then fails at the first tick
    assert wait_for(lambda: any("started again at the menu" in n for n in notices))
    assert runtime.snapshot["state"] == "choosing" and runtime._thread.is_alive()
    [aside] = Journal(runtime.journal.path).set_aside_files()
    assert Journal(aside).read() == [START] and Journal(runtime.journal.path).read() == []
    [fault] = faults(logs)  # the tick, then the rebuild's own tick: the same fault, logged once
    assert fault.exc_info is not None and "KeyError" in fault.getMessage()


def test_a_core_that_cannot_be_rebuilt_ends_the_thread_and_the_daemon_exits(daemon, monkeypatch, logs):
    notifier = FakeNotifier(watchdog_s=0.02)
    runtime, board, _ = daemon(notifier=notifier)
    assert wait_for(lambda: notifier.sent.count("WATCHDOG=1") >= 2)
    monkeypatch.setattr(snapshot, "state", lambda core: 1 / 0)  # the menu's too: nothing can be built
    runtime.put(Command(time.monotonic(), "new_game", {"game": "classic"}))
    assert wait_for(runtime.core_gone)
    assert runtime.failed and runtime.health() == health.stopped("the referee stopped")
    pings = notifier.sent.count("WATCHDOG=1")
    time.sleep(0.2)
    assert notifier.sent.count("WATCHDOG=1") == pings  # a core thread that is gone feeds nothing
    assert any(r.levelno == logging.CRITICAL for r in logs.records)
    seen: list[health.Health] = []
    runtime.health_listeners.append(seen.append)
    ended = asyncio.Event()

    async def watch():
        await asyncio.wait_for(health.watch(runtime, ended), 5)

    asyncio.run(watch())
    assert ended.is_set() and seen == [runtime.health()]


def test_only_the_core_thread_feeds_the_watchdog():
    notifier = FakeNotifier(watchdog_s=0.01)
    runtime, _, _ = make(core=FakeCore(), notifier=notifier)
    runtime._next_ping = 0.0
    elsewhere = threading.Thread(target=runtime._ping_if_due)
    elsewhere.start()
    elsewhere.join()
    runtime._ping_if_due()  # the test's thread is not the core's either
    assert notifier.sent == []
    runtime.start()
    assert wait_for(lambda: "WATCHDOG=1" in notifier.sent)
    runtime.stop()


def test_a_core_busy_past_the_limit_is_stopped_in_words_until_it_answers(monkeypatch):
    monkeypatch.setattr(health, "STUCK_S", 0.1)
    core = HangingCore()
    runtime, _, _ = make(core=core)
    runtime.start()
    assert runtime.health() == health.live()
    runtime.put(Command(1.0, "hang"))
    assert wait_for(lambda: runtime.health().status == "stopped")
    assert runtime.health().words.startswith("stopped: the referee has not answered for ")
    core.release.set()
    assert wait_for(lambda: runtime.health() == health.live())
    runtime.stop()


def test_a_failing_listener_is_logged_once_and_the_core_goes_on(logs):
    runtime, parts, _ = make()
    runtime.listeners.append(lambda state, notices, events: 1 / 0)
    runtime.start()
    for t in (1.0, 2.0, 3.0):
        runtime.put(Command(t, "menu"))
    assert wait_for(lambda: len(parts["journal"].records) == 3)
    runtime.stop()
    failed = [r for r in logs.records if r.getMessage().startswith("state listener failed")]
    assert len(failed) == 1 and failed[0].exc_info  # at the first publish and each command: logged once
    assert faults(logs) == [] and runtime._listener_faults.repeats == 3
