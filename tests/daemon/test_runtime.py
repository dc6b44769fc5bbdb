"""The runtime: one core thread, journal before frame, timers, watchdog from the loop, reload."""

from __future__ import annotations

import time

from controller.daemon.runtime import Reload, Runtime
from controller.events import ButtonPress, Command

from .fakes import FakeCore, FakeInputs, FakeJournal, FakeNotifier, FakePixels, HangingCore


def make(core=None, notifier=None, **kw):
    order: list[str] = []
    parts = dict(core=core or FakeCore(), inputs=FakeInputs(), pixels=FakePixels(log=order),
                 journal=FakeJournal(log=order), notifier=notifier or FakeNotifier())
    parts.update(kw)
    runtime = Runtime(parts.pop("core"), **parts)
    return runtime, parts, order


def wait_for(predicate, timeout_s=5.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_events_from_drivers_reach_the_core_on_its_own_thread():
    runtime, parts, _ = make()
    runtime.start()
    parts["inputs"].emit(ButtonPress(1.0, "ok"))
    assert wait_for(lambda: len(parts["journal"].records) == 1)
    runtime.stop()
    assert runtime.core.threads == {"core"}
    assert parts["inputs"].stopped and parts["pixels"].closed


def test_records_are_journalled_before_the_frame_is_shown():
    runtime, parts, order = make()
    runtime.start()
    for i in range(3):
        runtime.put(ButtonPress(float(i), "ok"))
    assert wait_for(lambda: len(order) == 6)
    runtime.stop()
    assert order == ["journal", "show"] * 3


def fresh_cores():
    """A rebuild for fake cores: a new FakeCore each time, remembered with how it was asked."""
    made: list[tuple[bool, FakeCore]] = []

    def rebuild(old, fresh):
        made.append((fresh, FakeCore()))
        return made[-1][1]

    return rebuild, made


def test_a_failed_journal_write_shows_only_the_pause_and_keeps_running():
    rebuild, made = fresh_cores()
    runtime, parts, _ = make(journal=FakeJournal(broken=True), rebuild=rebuild)
    runtime.start()
    runtime.put(ButtonPress(1.0, "ok"))
    runtime.put(Command(2.0, "menu"))
    assert wait_for(lambda: runtime.pause is not None and made)
    assert runtime.health().status == "paused"
    runtime.stop()
    assert parts["pixels"].frames == [[(255, 40, 110)] * 2] and runtime.failed  # the pause's frame alone


def test_a_core_exception_is_logged_the_core_rebuilt_and_the_next_event_handled():
    rebuild, made = fresh_cores()
    runtime, parts, _ = make(core=FakeCore(fail_on="menu"), rebuild=rebuild)
    runtime.start()
    runtime.put(Command(1.0, "menu"))
    runtime.put(ButtonPress(2.0, "ok"))
    assert wait_for(lambda: len(parts["journal"].records) == 1)
    runtime.stop()
    [(fresh, core)] = made
    assert not fresh and runtime.core is core and parts["journal"].records == [{"n": 1}]
    assert core.told == ["something went wrong with the command 'menu': it was set aside and the board "
                         "rebuilt from its journal (the log has the details)"]


def test_the_timer_ticks_at_the_core_deadline():
    core = FakeCore(deadline=time.monotonic() + 0.2)
    runtime, _, _ = make(core=core)
    notices = []
    runtime.listeners.append(lambda state, n, events: notices.extend(n))
    runtime.start()
    assert wait_for(lambda: "deadline" in notices)
    runtime.stop()



def test_the_deadline_comes_with_the_effects_and_is_never_polled():
    """Issue 24, section 3: the loop asked the core for its deadline twice per turn; the
    effects of each event carry it, so the core computes it once per event it handles."""
    core = FakeCore(deadline=time.monotonic() + 0.1)
    asked = []
    core.next_deadline = lambda original=core.next_deadline: asked.append(1) or original()
    runtime, _, _ = make(core=core, notifier=FakeNotifier(watchdog_s=0.01))  # many loop turns
    notices = []
    runtime.listeners.append(lambda state, n, events: notices.extend(n))
    runtime.start()
    runtime.put(ButtonPress(time.monotonic(), "ok"))
    assert wait_for(lambda: "deadline" in notices)
    time.sleep(0.1)
    runtime.stop()
    assert len(asked) == len(core.seen) == 3  # the start-up tick, the press, the deadline's tick

def test_an_idle_core_is_not_ticked():
    runtime, _, _ = make()
    runtime.start()
    time.sleep(0.3)
    runtime.stop()
    assert len(runtime.core.seen) == 1  # only the start-up tick


def test_animation_deadlines_tick_until_the_core_has_none():
    core = FakeCore()
    frames_left, last_t = [5], [0.0]

    def deadline():  # like the real core: the next frame is due one period after the last event
        return last_t[0] + 0.02 if frames_left[0] else None

    def tick_done(event, original=core.handle):
        last_t[0] = event.t
        if type(event).__name__ == "Tick" and frames_left[0]:
            frames_left[0] -= 1
        return original(event)

    core.next_deadline, core.handle = deadline, tick_done
    runtime, _, _ = make(core=core)
    runtime.start()
    assert wait_for(lambda: frames_left[0] == 0)
    time.sleep(0.2)
    runtime.stop()
    assert len(core.seen) == 5  # one tick per frame the core asked for (the first at start-up), then idle


def test_watchdog_pings_come_from_the_loop_and_stop_when_the_core_hangs():
    notifier = FakeNotifier(watchdog_s=0.05)
    core = HangingCore()
    runtime, _, _ = make(core=core, notifier=notifier)
    runtime.start()
    assert wait_for(lambda: notifier.sent.count("WATCHDOG=1") >= 3)
    runtime.put(Command(1.0, "hang"))
    time.sleep(0.1)
    during = notifier.sent.count("WATCHDOG=1")
    time.sleep(0.3)
    assert notifier.sent.count("WATCHDOG=1") == during  # hung: no pings
    core.release.set()
    assert wait_for(lambda: notifier.sent.count("WATCHDOG=1") > during)
    runtime.stop()
    assert notifier.sent[-1] == "STOPPING=1"


def test_reload_rescales_the_last_frame():
    runtime, parts, _ = make()
    runtime.start()
    runtime.put(ButtonPress(1.0, "ok"))
    runtime.put(Reload(brightness=0.5))
    assert wait_for(lambda: len(parts["pixels"].frames) == 2)
    runtime.stop()
    assert parts["pixels"].frames == [[(200, 100, 50)] * 2, [(100, 50, 25)] * 2]


def test_listeners_get_the_state_after_each_change():
    runtime, _, _ = make()
    states = []
    runtime.listeners.append(lambda state, notices, events: states.append((state, notices)))
    runtime.start()
    runtime.put(ButtonPress(1.0, "ok"))
    assert wait_for(lambda: len(states) == 2)
    runtime.stop()
    assert states[1] == ({"events": 2}, ("event 1",))
    assert runtime.snapshot == {"events": 2}


def test_an_unwritable_record_or_a_failing_listener_does_not_stop_the_core():
    class PickyJournal(FakeJournal):
        refused = 0

        def append(self, record):
            if not self.refused:
                self.refused += 1
                raise ValueError("record is not JSON")
            super().append(record)

    rebuild, made = fresh_cores()
    runtime, parts, _ = make(journal=PickyJournal(), rebuild=rebuild)
    runtime.listeners.append(lambda state, notices, events: 1 / 0)
    runtime.start()
    runtime.put(ButtonPress(1.0, "ok"))  # its record is refused: a fault, the core rebuilt
    runtime.put(ButtonPress(2.0, "ok"))
    assert wait_for(lambda: parts["journal"].records == [{"n": 1}])
    runtime.stop()
    assert len(made) == 1 and not runtime.failed and len(parts["pixels"].frames) == 1


def test_a_new_game_restarts_the_journal_with_its_start_record(tmp_path):
    from controller.core import Core
    from controller.journal import Journal
    from controller.profile import load_profile

    journal = Journal(tmp_path / "journal.jsonl")
    runtime, parts, _ = make(core=Core(load_profile("virtual-6x6")), journal=journal)
    runtime.start()
    runtime.put(Command(1.0, "new_game", {"game": "classic"}))
    runtime.put(Command(2.0, "new_game", {"game": "classic", "match": True}))
    assert wait_for(lambda: runtime.core.state()["match"] is not None)
    runtime.stop()
    records = Journal(tmp_path / "journal.jsonl").read()
    assert [(r["kind"], r["match"]) for r in records] == [("start", True)]


def test_the_computer_opponent_answers_through_the_queue():
    from controller.core import Core
    from controller.drivers.virtual import VirtualBoard
    from controller.profile import load_profile

    profile = load_profile("virtual-6x6")
    board = VirtualBoard.from_profile(profile, clock=time.monotonic)
    runtime, parts, _ = make(core=Core(profile, start_time=time.monotonic()), inputs=board, think_s=0.2)
    notices: list[str] = []
    runtime.listeners.append(lambda state, new, events: notices.extend(new))
    runtime.start()
    runtime.put(Command(time.monotonic(), "new_game", {"game": "classic", "computer": True}))
    board.place("c3")
    assert wait_for(lambda: runtime.core.state()["state"] == "awaiting_twist")
    board.quarter(3, True)
    assert wait_for(lambda: any(n.startswith("Computer (normal) plays") for n in notices))
    runtime.stop()
    assert runtime.core.state()["moves"] == ["c3 3R"] and runtime.core.state()["to_move"] == 2


def test_a_failing_tape_is_switched_off_and_never_blinds_the_referee(tmp_path, caplog):
    """A tape on a full disk (here /dev/full, a real ENOSPC) once made the core drop every
    reading (issue 19, item 9): recording stops, once in the log and once to the players."""
    from controller.tape import TapeHeader, TapeRecorder

    tape = TapeRecorder(tmp_path / "tape.jsonl", TapeHeader(6, "presence", 4))
    tape._file = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - the disk fills up
    runtime, parts, _ = make(tape=tape)
    runtime.start()
    for t in (1.0, 2.0, 3.0):
        runtime.put(ButtonPress(t, "ok"))
    assert wait_for(lambda: len(parts["journal"].records) == 3)
    runtime.stop()
    assert [e.t for e in runtime.core.seen[1:]] == [1.0, 2.0, 3.0]  # every press refereed
    assert runtime.tape is None
    [told] = runtime.core.told
    assert told == "the tape stopped recording (OSError: [Errno 28] No space left on device); the game is not affected"
    stopped = [r for r in caplog.records if "tape recording stopped" in r.getMessage()]
    assert len(stopped) == 1 and not [r for r in caplog.records if "core failed" in r.getMessage()]
