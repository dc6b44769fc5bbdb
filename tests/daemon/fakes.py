"""Small stand-ins for the core, drivers and journal, so the runtime is tested on its own."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import Any

from controller.events import Event, Tick


@dataclass
class Effects:
    frame: list[tuple[int, int, int]] | None = None
    records: tuple[dict[str, Any], ...] = ()
    notices: tuple[str, ...] = ()
    think: Any = None
    deadline: float | None = None
    events: tuple[Any, ...] = ()
    save: Any = None


class FakeCore:
    """Answers every non-Tick event with one record and a frame naming the event count."""

    def __init__(self, deadline: float | None = None, fail_on: str | None = None) -> None:
        self.seen: list[Event] = []
        self.deadline = deadline
        self.fail_on = fail_on
        self.threads: set[str] = set()
        self.told: list[str] = []

    def handle(self, event: Event) -> Effects:
        """What :meth:`answer` says, with the next deadline as the real core tells it."""
        return replace(self.answer(event), deadline=self.next_deadline())

    def answer(self, event: Event) -> Effects:
        self.threads.add(threading.current_thread().name)
        self.seen.append(event)
        if self.fail_on and getattr(event, "name", None) == self.fail_on:
            raise RuntimeError("boom")
        if isinstance(event, Tick):
            if self.deadline is not None and event.t >= self.deadline:
                self.deadline = None
                return Effects(notices=("deadline",))
            return Effects()
        n = len([e for e in self.seen if not isinstance(e, Tick)])
        return Effects(frame=[(200, 100, 50)] * 2, records=({"n": n},), notices=(f"event {n}",))

    def state(self) -> dict[str, Any]:
        return {"events": len(self.seen)}

    def tell(self, notice: str) -> None:
        self.told.append(notice)

    def next_deadline(self) -> float | None:
        return self.deadline

    def set_level(self, level: int | None) -> None:
        self.level = level

    def paused_frame(self) -> list[tuple[int, int, int]]:
        return [(255, 40, 110)] * 2


class HangingCore(FakeCore):
    """A FakeCore that stops answering at a command named "hang" until ``release`` is set."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.release = threading.Event()

    def handle(self, event: Event) -> Effects:
        if getattr(event, "name", None) == "hang":
            self.release.wait(5)
        return super().handle(event)


class FakeInputs:
    def __init__(self) -> None:
        self.emit = None
        self.stopped = False

    def start(self, emit) -> None:
        self.emit = emit

    def stop(self) -> None:
        self.stopped = True


@dataclass
class FakePixels:
    frames: list[list[tuple[int, int, int]]] = field(default_factory=list)
    log: list[str] | None = None
    closed: bool = False

    def show(self, frame) -> None:
        if self.log is not None:
            self.log.append("show")
        self.frames.append(list(frame))

    def close(self) -> None:
        self.closed = True


@dataclass
class FakeJournal:
    records: list[dict[str, Any]] = field(default_factory=list)
    log: list[str] | None = None
    broken: bool = False

    def append(self, record: dict[str, Any]) -> None:
        if self.broken:
            raise OSError(28, "No space left on device")
        if self.log is not None:
            self.log.append("journal")
        self.records.append(record)

    def clear(self, records=()) -> None:
        self.records[:] = list(records)


class FakeNotifier:
    def __init__(self, watchdog_s: float | None = None) -> None:
        self.watchdog_s = watchdog_s
        self.sent: list[str] = []

    def ready(self, status: str = "") -> None:
        self.sent.append("READY=1")

    def watchdog(self) -> None:
        self.sent.append("WATCHDOG=1")

    def notify(self, *lines: str) -> None:
        self.sent.extend(lines)

    def stopping(self) -> None:
        self.sent.append("STOPPING=1")
