"""The daemon's engine: one queue, one core thread, and the producers that feed it.

Drivers, the timer and the web console only ever put events on the queue; the core thread takes
them one at a time, hands each to the core and carries out the effects in a fixed order:
journal records first (durably), then the LED frame, then notices to the log. A frame is only
shown once what it shows is on disk, so a power cut never loses a move that was lit.

The timer lives in the same loop: the queue wait times out at the core's next deadline (its
settle and grace timers, and its next animation frame while a scene animates; an idle board has
none, so it costs nothing), which the effects of the last event carry, and at the next watchdog
ping. The watchdog is pinged by the core
thread between two events and by no other thread, so a hung core stops the pings and systemd
restarts the service.

The core thread never dies (DESIGN.md). An exception while handling an event or asking the core
for its state is logged with its traceback (once: the same fault again is
counted, see :mod:`controller.repeats`), the event is set aside, and the core is rebuilt from the journal the
way a start builds it (``rebuild``), the players told; a fault again at once sets the journal
aside and starts at the menu; a core that cannot be rebuilt ends the thread, and the daemon
exits for systemd to restart it (see :mod:`.health`).

Durable before shown. A journal write that fails (a full disk, the file-size limit, a read-only
directory) shows nothing of the event: the core is rebuilt from what the journal holds, so it
never runs ahead of it, the LEDs light every hole in the fault colour, the page and the notices
say "cannot save: the board is paused", and the loop takes no event until it tries again
(:data:`RETRY_S`, the wait doubling): it hands the rebuilt core the command it could not save,
else a tick, and the core, judging the board as the sensors read it, makes the move's record
again. Once a write goes through (or nothing is left to write) the board plays on by itself.
"""

from __future__ import annotations

import contextlib
import logging
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from queue import Queue
from typing import Any, Protocol

from ..drivers.base import Frame, InputDriver, PixelOutput
from ..events import ButtonPress, Command, EncoderSteps, Event, HoleReading, InputEvent, LinkChange, Tick
from ..flow import FRESH_KINDS
from ..flow.published import Event as PublishedEvent
from ..games import Catalogue
from ..repeats import Repeats
from ..errors import shown
from . import health
from .core_queue import STOP, CoreQueue, Empty
from .health import Health
from .logs import event as log
from .notify import Notifier

JOIN_TIMEOUT_S = 10.0
OVERRUN_S = 0.5  # how long past its thinking time the computer's search may take before a fallback move
COMPILE_TIMEOUT_S = 600.0  # a first compile on a Raspberry Pi takes a while; later starts load the cache
POLL_S = 0.02  # how often the wait for the computer's search looks at the clock
RETRY_S = (1.0, 5.0)  # the first and the longest wait before a board that cannot save tries again
REBUILDS_IN_A_ROW = 2  # faults in a row (no event handled between) the journal's game is rebuilt after


class CoreLike(Protocol):
    """What the runtime needs of :class:`controller.core.Core`."""

    def handle(self, event: Event) -> Any: ...
    def state(self) -> dict[str, Any]: ...
    def tell(self, notice: str) -> None: ...
    def set_level(self, level: int | None) -> None: ...  # the configured level, which names the computer
    def paused_frame(self) -> Frame: ...


class JournalLike(Protocol):
    def append(self, record: dict[str, Any]) -> None: ...

    def clear(self, records: Iterable[dict[str, Any]] = ()) -> None: ...


class TapeLike(Protocol):
    def record(self, event: InputEvent) -> None: ...


@dataclass(frozen=True)
class Reload:
    """A new brightness and computer level from a reloaded config (SIGHUP), applied by the
    core thread (the level plays from the next move the computer is asked for)."""

    brightness: float
    level: int | None = None  # None: keep the level


@dataclass
class Pause:
    """A board whose journal cannot be written: since when, why, the tries so far, when it
    tries again, and the command or button press to try again with."""

    since: float
    why: str
    tries: int = 1
    retry_at: float = 0.0
    held: object | None = None


Listener = Callable[[dict[str, Any], tuple[str, ...], tuple[PublishedEvent, ...]], None]  # state, notices, events
Rebuild = Callable[[Any, bool], CoreLike]  # (the core it replaces, fresh: set the journal aside)


class Runtime:
    """Runs ``core`` on its own thread, fed by ``inputs`` and by :meth:`put`.

    ``listeners`` are called on the core thread with the state after each change, the notices
    and the events it produced (:mod:`controller.flow.published`, each once, in order, after
    their journal records are on disk); they must only hand the data on (the web console queues it for its own loop).
    ``health_listeners`` get each change of :meth:`health`, on the event loop (see :mod:`.health`).
    ``rebuild`` makes a core from the journal (see :mod:`.resume`); without it a fault ends the
    core thread.
    """

    def __init__(self, core: CoreLike, *, inputs: InputDriver, pixels: PixelOutput,
                 journal: JournalLike, notifier: Notifier, tape: TapeLike | None = None,
                 clock: Callable[[], float] = time.monotonic, brightness: float = 1.0,
                 think_s: float | None = None, level: int = 2, engine: str = "python",
                 rebuild: Rebuild | None = None, games: Catalogue | None = None) -> None:
        self.core, self.inputs, self.pixels = core, inputs, pixels
        self.rebuild = rebuild
        self.games = games or Catalogue.shipped()  # the board's games and its picture library, where saved pictures go
        self._to_save: Queue[Any] = Queue()  # the core's saves, for the pictures thread, in order
        self._saver: threading.Thread | None = None
        self.journal, self.notifier, self.tape, self.clock = journal, notifier, tape, clock
        self.brightness = brightness
        self.think_s = think_s  # the computer's time per move; None: the AI's own for its level
        self.level = level  # the computer's level for games whose options name none (the config's)
        core.set_level(level)  # it names the computer's seats too
        self.wanted_engine = engine  # the classic computer's search as configured (controller.ai.ENGINES)
        self.engine = "python"  # what it searches with now: compiled once ready (_warm_up_search)
        self._warming = False
        self.queue = CoreQueue()  # coalesces readings, bounds people's commands, stops at once
        self.snapshot: dict[str, Any] = {}
        self.listeners: list[Listener] = []
        self.health_listeners: list[Callable[[Health], None]] = []
        self.failed = False  # the core could not be rebuilt, or the board stopped unable to save
        self.pause: Pause | None = None
        self._faults = Repeats(logging.getLogger("pentago_board"), logging.ERROR)  # a fault once, then counted
        self._listener_faults = Repeats(logging.getLogger("pentago_board"), logging.ERROR)
        self._faults_in_row = 0
        self._busy_since: float | None = None  # when the core thread took the item in hand
        self._stopping = threading.Event()
        self._frame: Frame | None = None
        self._next_ping = 0.0
        self._deadline: float | None = None  # the core's next moment, from its last effects
        self._thread = threading.Thread(target=self._loop, name="core", daemon=True)

    # -- the producers' side -------------------------------------------------------------------

    def put(self, event: Event | Reload) -> None:
        """Queue an event for the core (thread-safe; this is the drivers' ``emit``)."""
        self.queue.put(event)

    def offer(self, command: Command) -> bool:
        """Queue a person's command (web console, MQTT) unless the core already has
        :data:`~controller.daemon.core_queue.MAX_COMMANDS` waiting: then False, and the caller
        answers that the board is busy."""
        return self.queue.offer(command)

    def start(self) -> None:
        """Start the core thread, then the drivers. The caller sends READY=1 once everything
        else (the web console) is up too."""
        self.put(Tick(self.clock()))  # lets the core draw its first frame, resumed or fresh
        self._next_ping = self.clock() + (self.notifier.watchdog_s or 0.0)  # first ping after READY
        self._thread.start()
        self.inputs.start(self.put)

    def _warm_up_search(self) -> None:
        """Make the compiled search ready off the core thread, from the computer's first request
        on (a board nobody plays the computer on never loads it); Python searches until then.

        A JIT needs memory that is written, then executed, which a hardened service may forbid
        (systemd's MemoryDenyWriteExecute), and LLVM may abort the whole process rather than
        raise. So a child process compiles first (filling numba's disk cache); only if it
        succeeds does the daemon load the build and switch, and the log says either way."""
        from ..ai import engine_in_use  # the search tables cost start-up time

        if self._warming or engine_in_use(self.wanted_engine) != "compiled":
            return
        self._warming = True

        def warm() -> None:
            started = self.clock()
            probe = [sys.executable, "-c", "from controller.ai.compiled import warm_up; warm_up()"]
            try:
                done = subprocess.run(probe, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
                if done.returncode != 0:
                    raise RuntimeError((done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1])
                from ..ai.compiled import warm_up

                warm_up()
            except Exception as exc:  # no compiled search: the computer still plays, in Python
                log("compiled search unavailable, python searches", error=f"{type(exc).__name__}: {exc}")
                return
            self.engine = "compiled"
            log("compiled search ready", seconds=round(self.clock() - started, 1))

        threading.Thread(target=warm, name="compile", daemon=True).start()

    def health(self) -> Health:
        """Whether the core thread answers (any thread may ask; see :mod:`.health`)."""
        if self.core_gone():
            return health.stopped("the referee stopped")
        busy = self._busy_since
        if busy is not None and self.clock() - busy > health.STUCK_S:
            return health.stopped(f"the referee has not answered for {self.clock() - busy:.0f} s")
        pause = self.pause
        return health.paused(pause.why) if pause is not None else health.live()

    def core_gone(self) -> bool:
        """True once the core thread has ended without being stopped."""
        return self._thread.ident is not None and not self._thread.is_alive() and not self._stopping.is_set()

    def stop(self) -> None:
        """Finish the event in hand (and its journal write), then release the hardware. What
        is still queued is dropped: none of it was shown as done (see core_queue.py)."""
        self._stopping.set()  # ends a pause's wait
        self.notifier.stopping()
        self.queue.close()  # first: a flood queued behind the event in hand must not hold the stop
        self.inputs.stop()
        self._thread.join(JOIN_TIMEOUT_S)
        self.pixels.close()
        if self.pause is not None:
            self.failed = True
            log("stopped with a move it could not save (none was shown)", logging.ERROR, why=self.pause.why)
        log("stopped")

    # -- the core thread -----------------------------------------------------------------------

    def _loop(self) -> None:
        try:
            self._publish(())
        except Exception as exc:
            if not self._recover(None, exc):
                return
        while True:
            item: object = None
            try:
                item = self._sit_out(self.pause) if self.pause is not None else self._next_item()
                if item is STOP:
                    return
                if item is not None:
                    self._busy_since = self.clock()
                    self._handle(item)
                    self._faults_in_row = 0
            except Exception as exc:
                if not self._recover(item, exc):
                    return
            finally:
                self._busy_since = None
            self._ping_if_due()

    def _next_item(self) -> object:
        """The next queued item, or a Tick when a deadline passes first, or None to just ping."""
        wake = self._wake_time()
        try:
            return self.queue.get(timeout=None if wake is None else max(0.0, wake - self.clock()))
        except Empty:
            now = self.clock()
            return Tick(now) if self._deadline is not None and self._deadline <= now else None

    def _wake_time(self) -> float | None:
        times = [self._deadline, self._next_ping if self.notifier.watchdog_s else None]
        present = [t for t in times if t is not None]
        return min(present) if present else None

    def _ping_if_due(self) -> None:
        """Feed the watchdog when due: from the core thread, between two items, only."""
        if threading.current_thread() is not self._thread:
            return
        if self.notifier.watchdog_s and self.clock() >= self._next_ping:
            self.notifier.watchdog()
            self._next_ping = self.clock() + self.notifier.watchdog_s

    def _handle(self, item: object) -> None:
        if isinstance(item, Reload):
            self._reload(item)
            return
        self._record(item)
        self._apply(item, self.core.handle(item))  # type: ignore[arg-type]

    def _record(self, item: object) -> None:
        """Put a physical input on the tape. Recording never stands between a sensor and the
        referee: a tape that fails (a full disk) is switched off, said once in the log and to
        the players, and the board plays on."""
        if self.tape is None or not isinstance(item, HoleReading | EncoderSteps | ButtonPress | LinkChange):
            return
        try:
            self.tape.record(item)
        except Exception as exc:
            tape, self.tape = self.tape, None
            with contextlib.suppress(Exception):  # what is left in its buffer cannot be written either
                getattr(tape, "close", lambda: None)()
            why = f"{type(exc).__name__}: {exc}"
            log("tape recording stopped; the board plays on", logging.ERROR, error=why)
            self.core.tell(f"the tape stopped recording ({why}); the game is not affected")

    def _apply(self, item: object, effects: Any) -> None:
        self._deadline = effects.deadline  # the core's next moment, told with what it did
        if not self._write(item, effects.records):
            return  # never show what is not on disk
        if self.pause is not None:
            self._saved_again()
        if effects.frame is not None:
            self._show(effects.frame)
        if effects.think is not None:
            self._think(effects.think)
        if effects.save is not None:
            self._save(effects.save)
        for notice in effects.notices:
            log("notice", text=notice)
        if effects.frame is not None or effects.records or effects.notices or effects.events or not isinstance(item, Tick):
            self._publish(tuple(effects.notices), tuple(effects.events))

    def _think(self, request: Any) -> None:
        """Search for the computer's move (or a hint) off the core thread; the answer comes back
        as the command the request names.
        A stale answer (the players took back or the game ended) is ignored by the core.

        Never stuck: the thinking time runs on the runtime's clock (the core's), the search's
        deadline reads that clock, and if the search raises, or has not answered
        :data:`OVERRUN_S` after its time, the computer plays the best move the search had
        found so far, else level 1's move, and the log says why."""
        from ..ai import THINK_SECONDS  # the search tables cost start-up time

        self._warm_up_search()
        level = request.level if request.level is not None else self.level
        seconds = self.think_s if self.think_s is not None else THINK_SECONDS.get(level, THINK_SECONDS[2])
        stop = self.clock() + seconds
        threading.Thread(target=self._answer, args=(request, level, stop, seconds), name="computer",
                         daemon=True).start()

    def _answer(self, request: Any, level: int, stop: float, seconds: float) -> None:
        """Run the search on its own thread and wait for it on the runtime's clock (see _think)."""
        from ..ai import choose_move, fallback_move, to_move

        game, done, given_up = request.game, threading.Event(), threading.Event()
        found: list[Any] = []  # the search's best result after each completed iteration
        outcome: dict[str, Any] = {}

        def search() -> None:
            try:
                outcome["move"] = choose_move(game, level=level, progress=found.append, engine=self.engine,
                                              deadline=lambda: given_up.is_set() or self.clock() >= stop,
                                              opponent=request.opponent)
            except Exception as exc:  # a search bug must not leave the computer's turn stuck
                outcome["error"] = exc
            finally:
                done.set()

        threading.Thread(target=search, name="computer-search", daemon=True).start()
        while not done.wait(POLL_S):
            if self.clock() >= stop + OVERRUN_S:
                given_up.set()  # a search still polling its deadline stops now
                break
        move = outcome.get("move")
        if move is None:
            error = outcome.get("error")
            why = (f"the search failed ({type(error).__name__}: {error})" if error is not None
                   else f"the search overran its {seconds:g} s by more than {OVERRUN_S:g} s")
            try:
                move, kind = (to_move(game, *found[-1].move), "its best move so far") if found else (
                    fallback_move(game, opponent=request.opponent), "a level-1 move")
            except Exception:  # nothing to play: the players can still take back or abort
                logging.getLogger("pentago_board").exception("computer opponent failed", extra={"fields": {"why": why}})
                return
            log("computer opponent fell back", logging.WARNING, why=why, plays=kind, move=game.move_name(move))
        self.put(Command(self.clock(), request.answer, {"key": request.key, "move": game.move_name(move)}))

    def _save(self, request: Any) -> None:
        """Have the picture store keep the core's picture off the core thread (a disk can be
        slow or refuse), one save after another in the order asked; the store's notice comes
        back to the core as the command the request names."""
        if self._saver is None:
            self._saver = threading.Thread(target=self._saving, name="pictures", daemon=True)
            self._saver.start()
        self._to_save.put(request)

    def _saving(self) -> None:
        while True:
            request = self._to_save.get()
            try:
                notice, saved = self.games.pictures.keep(request.picture)
            except Exception as exc:  # a store bug must not leave the players without an answer
                logging.getLogger("pentago_board").exception("picture store failed")
                notice, saved = f"save picture: the picture store failed ({type(exc).__name__}: {exc})", False
            self.put(Command(self.clock(), request.answer, {"notice": notice, "saved": saved}))

    def _write(self, item: object, records: tuple[dict[str, Any], ...]) -> bool:
        """Write ``records`` durably; False (the board paused) when the journal cannot take
        them. A record the journal refuses (not JSON) is a fault, raised."""
        try:
            for record in records:
                if record.get("kind") in FRESH_KINDS:
                    self.journal.clear((record,))  # nothing before it matters for a resume
                else:
                    self.journal.append(record)
        except OSError as exc:  # a full disk, the file-size limit, a read-only directory
            self._cannot_save(item, exc)
            return False
        return True

    # -- durable before shown: a board that cannot save --------------------------------------

    def _cannot_save(self, item: object, exc: OSError) -> None:
        """Nothing of ``item`` is shown; the core goes back to what the journal holds, the board
        says it is paused and the loop waits before it tries again (see the module)."""
        now, why = self.clock(), exc.strerror or str(exc)
        first = self.pause is None
        pause = self.pause = self.pause or Pause(now, why)
        if first:
            log("journal write failed; the board is paused until it can save", logging.ERROR, error=exc)
            self.notifier.notify(f"STATUS=cannot save ({why}): the board is paused")
        else:
            pause.tries, pause.why = pause.tries + 1, why
        pause.retry_at = now + min(RETRY_S[0] * 2 ** (pause.tries - 1), RETRY_S[1])
        if isinstance(item, Command | ButtonPress):
            pause.held = item  # not made again by looking at the board: try it again as it was
        self.core = self._rebuilt(fresh=False)
        self._show(self.core.paused_frame())
        self._say((health.paused(why).words,) if first else ())

    def _sit_out(self, pause: Pause) -> object:
        """Wait for the pause's next try, feeding the watchdog (the core thread answers: it has
        only nothing it may do); then the item to try with: the command the board could not
        save, else a tick (the rebuilt core judges the board again). STOP when stopping."""
        while (left := pause.retry_at - self.clock()) > 0:
            until_ping = self._next_ping - self.clock() if self.notifier.watchdog_s else left
            if self._stopping.wait(max(0.0, min(left, until_ping))):
                return STOP
            self._ping_if_due()
        held, pause.held = pause.held, None
        return held if held is not None else Tick(self.clock())

    def _saved_again(self) -> None:
        pause, self.pause = self.pause, None
        assert pause is not None
        log("the journal takes writes again; the board plays on", paused_s=round(self.clock() - pause.since, 1),
            tries=pause.tries)
        self.notifier.notify("STATUS=board live")
        self._say(("saved again: the board plays on",))

    # -- the core thread never dies: a fault rebuilds the core --------------------------------

    def _recover(self, item: object, exc: Exception) -> bool:
        """After ``exc`` while handling ``item`` (None: asking the core for its state): the item is set aside and the core rebuilt from the journal, from scratch
        (the journal set aside) if the journal's game fails again at once. False when the core
        cannot be rebuilt: the core thread ends (see the module)."""
        self._log_fault(item, exc)
        self._faults_in_row += 1
        steps = (False, True) if self._faults_in_row <= REBUILDS_IN_A_ROW else \
            (True,) if self._faults_in_row == REBUILDS_IN_A_ROW + 1 else ()
        for fresh in steps if self.rebuild is not None else ():
            try:
                self.core = self._rebuilt(fresh)
                self.core.tell(f"something went wrong with {_what(item)}: it was set aside and the board "
                               f"{'started again at the menu' if fresh else 'rebuilt from its journal'} "
                               "(the log has the details)")
                self._apply(Tick(self.clock()), self.core.handle(Tick(self.clock())))
                return True
            except Exception as again:
                self._log_fault(None, again)
        self.failed = True
        log("the core cannot be rebuilt; the daemon exits for systemd to restart it", logging.CRITICAL)
        return False

    def _rebuilt(self, fresh: bool) -> CoreLike:
        if self.rebuild is None:
            raise RuntimeError("this runtime has no journal to rebuild its core from")
        return self.rebuild(self.core, fresh)

    def _log_fault(self, item: object, exc: Exception, said: str = "core failed; the event is set aside",
                   faults: Repeats | None = None) -> None:
        """The traceback once for a fault (its kind and where it was raised); while the same
        fault comes again it is counted, and the count logged once another comes."""
        where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        place = f" at {where[0].filename}:{where[0].lineno}" if where else ""
        (faults or self._faults).say(f"{said} ({type(exc).__name__}{place})", exc_info=exc, event=shown(item))

    def _say(self, notices: tuple[str, ...]) -> None:
        """The runtime's own news, to the log and to the page (with the state as it stands)."""
        for notice in notices:
            log("notice", text=notice)
        self._publish(notices)

    def _show(self, frame: Frame) -> None:
        self._frame = frame
        scale = self.brightness
        try:
            self.pixels.show([(round(r * scale), round(g * scale), round(b * scale)) for r, g, b in frame])
        except Exception:  # a glitching LED strip must not stop the referee
            logging.getLogger("pentago_board").exception("pixel output failed")

    def _reload(self, reload: Reload) -> None:
        self.brightness = reload.brightness
        if reload.level is not None:
            self.level = reload.level
            self.core.set_level(self.level)
        if self._frame is not None:
            self._show(self._frame)
        log("config reloaded", brightness=reload.brightness, computer_level=self.level)

    def _publish(self, notices: tuple[str, ...], events: tuple[PublishedEvent, ...] = ()) -> None:
        self.snapshot = self.core.state()
        for listener in self.listeners:
            try:
                listener(self.snapshot, notices, events)
            except Exception as exc:  # e.g. the web loop closing at shut-down: the core goes on
                self._log_fault(listener, exc, "state listener failed; the core goes on", self._listener_faults)


def _what(item: object) -> str:
    """An item the core failed on, in words for the players."""
    if isinstance(item, Command):
        return f"the command {shown(item.name)}"
    if isinstance(item, ButtonPress):
        return f"the {shown(item.button)} button"
    return {HoleReading: "a sensor reading", EncoderSteps: "a block's turn", LinkChange: "the sensor link",
            Tick: "the timer"}.get(type(item), "the board's state")

