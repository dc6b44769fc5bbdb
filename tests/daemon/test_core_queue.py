"""The core's queue under floods: readings coalesced per hole, people's commands bounded, and a
stop that never waits for what is queued (issue 19, item 12)."""

from __future__ import annotations

import threading

from controller.daemon.core_queue import MAX_COMMANDS, STOP, CoreQueue
from controller.events import ButtonPress, Command, EncoderSteps, HoleReading

from .test_runtime import make, wait_for
from .fakes import FakeCore


def drain(q: CoreQueue) -> list:
    taken = []
    while q.waiting():
        taken.append(q.get(0))
    return taken


def test_a_flickering_hole_reaches_the_core_as_its_last_reading():
    q = CoreQueue()
    sent = [HoleReading(n * 1e-4, n % 3, "marble" if n % 2 else "empty") for n in range(20000)]
    for reading in sent:
        q.put(reading)
    taken = drain(q)
    # each of the three holes ends on a reading after its last marble reading: at most two each
    assert len(taken) <= 6
    assert {r.hole: r for r in taken} == {r.hole: r for r in sent}  # every hole's newest reading
    finals = [r for i, r in enumerate(taken) if all(later.hole != r.hole for later in taken[i + 1:])]
    assert [r.t for r in finals] == sorted(r.t for r in finals)  # holes in the order of their last change


def test_a_marble_seen_before_the_hole_ends_empty_is_still_reported():
    q = CoreQueue()
    q.put(HoleReading(1.0, 7, "marble"))
    q.put(HoleReading(1.1, 7, "empty"))
    q.put(HoleReading(1.2, 7, "marble"))
    q.put(HoleReading(1.3, 7, "empty"))
    assert [(r.t, r.reading) for r in drain(q)] == [(1.2, "marble"), (1.3, "empty")]


def test_readings_are_not_coalesced_across_other_events():
    q = CoreQueue()
    q.put(HoleReading(1.0, 4, "marble"))
    q.put(EncoderSteps(1.1, 1, 1))
    q.put(HoleReading(1.2, 4, "empty"))
    q.put(ButtonPress(1.3, "ok"))
    q.put(HoleReading(1.4, 4, "marble"))
    assert [type(e).__name__ for e in drain(q)] == [
        "HoleReading", "EncoderSteps", "HoleReading", "ButtonPress", "HoleReading"]


def test_commands_from_people_are_bounded_and_the_refusal_says_why():
    q = CoreQueue()
    assert all(q.offer(Command(0.0, "menu")) for _ in range(MAX_COMMANDS))
    assert not q.offer(Command(0.0, "menu")) and q.refused == 1
    assert "busy" in q.busy_reason() and q.is_busy()
    q.get(0)
    assert q.offer(Command(0.0, "menu"))  # taking one makes room for one
    q.put(Command(0.0, "computer_move"))  # the computer's answers are never refused


def test_a_closed_queue_stops_at_once_whatever_waits():
    q = CoreQueue()
    for n in range(1000):
        q.put(ButtonPress(float(n), "ok"))
    q.close()
    assert q.get(0) is STOP and q.get() is STOP
    q.put(ButtonPress(0.0, "ok"))
    assert q.get(0) is STOP


def test_stop_finishes_the_event_in_hand_and_drops_what_is_queued_behind_it():
    started, release = threading.Event(), threading.Event()

    class SlowCore(FakeCore):
        def handle(self, event):
            if getattr(event, "name", None) == "slow":
                started.set()
                release.wait(5)
            return super().handle(event)

    runtime, parts, _ = make(core=SlowCore())
    runtime.start()
    runtime.put(Command(1.0, "slow"))
    assert started.wait(5)
    for n in range(3000):
        runtime.offer(Command(2.0, "new_game"))
        runtime.put(HoleReading(2.0 + n * 1e-4, n % 36, "marble" if n % 2 else "empty"))
    stopper = threading.Thread(target=runtime.stop)
    stopper.start()
    assert wait_for(lambda: runtime.queue.waiting() == 0)
    release.set()
    stopper.join(5)
    assert not stopper.is_alive()
    handled = [e for e in runtime.core.seen if getattr(e, "name", None) in ("slow", "new_game")]
    assert [e.name for e in handled] == ["slow"]  # the event in hand finished, and nothing after it
    assert parts["journal"].records[-1] == {"n": 1}
