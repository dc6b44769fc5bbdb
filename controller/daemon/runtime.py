"""The daemon's engine: one queue, one core thread, and the producers that feed it.

Drivers, the timer and the web console only ever put events on the queue; the core thread takes
them one at a time, hands each to the core and carries out the effects in a fixed order:
journal records first (durably), then the LED frame, then notices to the log. A frame is only
shown once what it shows is on disk, so a power cut never loses a move that was lit.

The timer lives in the same loop: the queue wait times out at the core's next deadline (its
settle and grace timers, and its next animation frame while a scene animates; an idle board has
none, so it costs nothing) and at the next watchdog ping. The watchdog is pinged from this loop and nowhere else, so a hung core
stops the pings and systemd restarts the service.
"""

from __future__ import annotations

import contextlib
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ..drivers.base import Frame, InputDriver, PixelOutput
from ..events import ButtonPress, Command, EncoderSteps, Event, HoleReading, InputEvent, LinkChange, Tick
from ..flow import FRESH_KINDS
from .core_queue import STOP, CoreQueue, Empty
from .logs import event as log
from .notify import Notifier

JOIN_TIMEOUT_S = 10.0
OVERRUN_S = 0.5  # how long past its thinking time the computer's search may take before a fallback move
COMPILE_TIMEOUT_S = 600.0  # a first compile on a Raspberry Pi takes a while; later starts load the cache
POLL_S = 0.02  # how often the wait for the computer's search looks at the clock


class CoreLike(Protocol):
    """What the runtime needs of :class:`controller.core.Core`."""

    def handle(self, event: Event) -> Any: ...
    def state(self) -> dict[str, Any]: ...
    def tell(self, notice: str) -> None: ...
    def next_deadline(self) -> float | None: ...
    def set_level(self, level: int | None) -> None: ...  # the configured level, which names the computer


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


Listener = Callable[[dict[str, Any], tuple[str, ...]], None]


class Runtime:
    """Runs ``core`` on its own thread, fed by ``inputs`` and by :meth:`put`.

    ``listeners`` are called on the core thread with the state after each change and the notices
    it produced; they must only hand the data on (the web console queues it for its own loop).
    """

    def __init__(self, core: CoreLike, *, inputs: InputDriver, pixels: PixelOutput,
                 journal: JournalLike, notifier: Notifier, tape: TapeLike | None = None,
                 clock: Callable[[], float] = time.monotonic, brightness: float = 1.0,
                 think_s: float | None = None, level: int = 2, engine: str = "python") -> None:
        self.core, self.inputs, self.pixels = core, inputs, pixels
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
        self.failed = False  # set when the journal could not be written
        self._frame: Frame | None = None
        self._next_ping = 0.0
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

    def stop(self) -> None:
        """Finish the event in hand (and its journal write), then release the hardware. What
        is still queued is dropped: none of it was shown as done (see core_queue.py)."""
        self.notifier.stopping()
        self.queue.close()  # first: a flood queued behind the event in hand must not hold the stop
        self.inputs.stop()
        self._thread.join(JOIN_TIMEOUT_S)
        self.pixels.close()
        log("stopped")

    # -- the core thread -----------------------------------------------------------------------

    def _loop(self) -> None:
        self._publish(())
        while True:
            item = self._next_item()
            if item is STOP:
                return
            if item is not None:
                self._handle(item)
            self._ping_if_due()

    def _next_item(self) -> object:
        """The next queued item, or a Tick when a deadline passes first, or None to just ping."""
        wake = self._wake_time()
        try:
            return self.queue.get(timeout=None if wake is None else max(0.0, wake - self.clock()))
        except Empty:
            now = self.clock()
            due = self.core.next_deadline()
            return Tick(now) if due is not None and due <= now else None

    def _wake_time(self) -> float | None:
        times = [self.core.next_deadline(), self._next_ping if self.notifier.watchdog_s else None]
        present = [t for t in times if t is not None]
        return min(present) if present else None

    def _ping_if_due(self) -> None:
        if self.notifier.watchdog_s and self.clock() >= self._next_ping:
            self.notifier.watchdog()
            self._next_ping = self.clock() + self.notifier.watchdog_s

    def _handle(self, item: object) -> None:
        if isinstance(item, Reload):
            self._reload(item)
            return
        self._record(item)
        try:
            effects = self.core.handle(item)  # type: ignore[arg-type]
        except Exception:  # a core bug must not take the board down; the event is logged
            logging.getLogger("pentago_board").exception(
                "core failed", extra={"fields": {"event": repr(item)}})
            return
        self._apply(item, effects)

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
        if not self._write(effects.records):
            return  # never show what is not on disk
        if effects.frame is not None:
            self._show(effects.frame)
        if effects.think is not None:
            self._think(effects.think)
        for notice in effects.notices:
            log("notice", text=notice)
        if effects.frame is not None or effects.records or effects.notices or not isinstance(item, Tick):
            self._publish(tuple(effects.notices))

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
                                              deadline=lambda: given_up.is_set() or self.clock() >= stop)
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
                    fallback_move(game), "a level-1 move")
            except Exception:  # nothing to play: the players can still take back or abort
                logging.getLogger("pentago_board").exception("computer opponent failed", extra={"fields": {"why": why}})
                return
            log("computer opponent fell back", logging.WARNING, why=why, plays=kind, move=game.move_name(move))
        self.put(Command(self.clock(), request.answer, {"key": request.key, "move": game.move_name(move)}))

    def _write(self, records: tuple[dict[str, Any], ...]) -> bool:
        try:
            for record in records:
                if record.get("kind") in FRESH_KINDS:
                    self.journal.clear((record,))  # nothing before it matters for a resume
                else:
                    self.journal.append(record)
        except (OSError, ValueError) as exc:  # a full disk, or a record that is not JSON
            self.failed = True
            log("journal write failed", logging.ERROR, error=exc)
            return False
        return True

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

    def _publish(self, notices: tuple[str, ...]) -> None:
        self.snapshot = self.core.state()
        for listener in self.listeners:
            try:
                listener(self.snapshot, notices)
            except Exception:  # e.g. the web loop closing at shut-down: the core goes on
                logging.getLogger("pentago_board").exception("state listener failed")

