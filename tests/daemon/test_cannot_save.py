"""Durable before shown (issue 19, item 7): after a journal write that fails, nothing of it is
shown (LEDs, page, notices), the core is rolled back to what the journal holds (so a restart
loses nothing that was shown), the board says "cannot save: the board is paused" on the LEDs and
the page, tries again, and plays on by itself once the disk takes writes again.

A real daemon's parts (service.build: the virtual board, the core, the journal, the rebuild) on
a journal whose files stop taking writes halfway through a line, as a full disk does; the real
thing (a daemon process under a file-size limit) is tests/robustness/test_write_failures.py."""

from __future__ import annotations

import builtins
import time

import pytest

from controller import journal as journal_module
from controller.core import Core
from controller.daemon import health, runtime as runtime_module, service
from controller.daemon.config import Config
from controller.events import Command
from controller.journal import Journal

from .fakes import FakeNotifier
from .test_runtime import wait_for

FAULT = (255, 40, 110)


class FullDisk:
    """The journal's files take no writes while ``full`` (half of a line goes through, then
    ENOSPC, as on a disk that fills up)."""

    def __init__(self, monkeypatch):
        self.full = False
        monkeypatch.setattr(journal_module, "open", self._open, raising=False)

    def _open(self, path, mode="r", *args, **kw):
        file = builtins.open(path, mode, *args, **kw)
        return file if mode.startswith("r") else _Filling(file, self)


class _Filling:
    def __init__(self, file, disk):
        self.file, self.disk = file, disk

    def write(self, data):
        if self.disk.full:
            self.file.write(data[: len(data) // 2])
            self.file.flush()
            raise OSError(28, "No space left on device")
        return self.file.write(data)

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()


@pytest.fixture
def daemon(tmp_path, monkeypatch):
    monkeypatch.setattr(runtime_module, "RETRY_S", (0.2, 0.4))
    disk = FullDisk(monkeypatch)
    d = service.build(Config(profile="virtual-6x6", journal=tmp_path / "journal.jsonl"), FakeNotifier())
    seen: list[tuple[dict, tuple[str, ...]]] = []
    d.runtime.listeners.append(lambda state, new, events: seen.append((state, new)))
    d.runtime.start()
    yield d, disk, seen
    d.runtime.stop()
    d.runtime.journal.close()


def notices(seen):
    return [n for _, new in seen for n in new]


def new_game(d, **args):
    d.runtime.put(Command(time.monotonic(), "new_game", {"game": "classic", **args}))
    assert wait_for(lambda: d.runtime.snapshot.get("state") == "awaiting_placement")


def resumed_from_disk(d):
    """What a restart (a power cut now) would resume."""
    return Core(d.profile, journal_records=Journal(d.runtime.journal.path).read()).state()


def test_a_move_that_cannot_be_saved_is_never_shown_and_is_saved_by_itself_later(daemon):
    d, disk, seen = daemon
    new_game(d)
    disk.full = True
    shown_before = len(seen)
    d.board.place("c3")
    assert wait_for(lambda: d.runtime.health().status == "paused")
    assert wait_for(lambda: d.runtime.pause.tries >= 2)  # it tried again, and failed again
    after = [state for state, _ in seen[shown_before:]]
    assert after and all(s["state"] == "awaiting_placement" and s["moves"] == [] for s in after)
    assert resumed_from_disk(d)["state"] == "awaiting_placement"  # a restart loses nothing shown
    assert not any("placed" in n for n in notices(seen))
    assert health.paused("No space left on device").words in notices(seen)
    assert d.runtime.health().words.startswith("cannot save: the board is paused (No space left on device)")
    lit = {rgb for rgb in d.runtime.pixels.last if rgb != (0, 0, 0)}
    assert len(lit) == 1 and sum(rgb != (0, 0, 0) for rgb in d.runtime.pixels.last) == 36  # every hole, one colour
    disk.full = False
    assert wait_for(lambda: d.runtime.snapshot.get("state") == "awaiting_twist")
    assert d.runtime.health() == health.live() and "saved again: the board plays on" in notices(seen)
    assert [r["kind"] for r in Journal(d.runtime.journal.path).read()] == ["start", "place"]
    assert resumed_from_disk(d)["board"] == d.runtime.snapshot["board"]


def test_a_new_game_that_cannot_be_saved_starts_once_it_can(daemon):
    d, disk, seen = daemon
    disk.full = True
    d.runtime.put(Command(time.monotonic(), "new_game", {"game": "classic"}))
    assert wait_for(lambda: d.runtime.health().status == "paused")
    assert d.runtime.snapshot["state"] == "choosing" and resumed_from_disk(d)["state"] == "choosing"
    disk.full = False
    assert wait_for(lambda: d.runtime.snapshot.get("state") == "awaiting_placement")
    assert [r["kind"] for r in Journal(d.runtime.journal.path).read()] == ["start"]
    assert d.runtime.health() == health.live()


def test_the_second_half_of_a_move_that_cannot_be_saved_leaves_the_first(daemon):
    d, disk, seen = daemon
    new_game(d)
    d.board.place("c3")
    assert wait_for(lambda: d.runtime.snapshot.get("state") == "awaiting_twist")
    disk.full = True
    d.board.quarter(3, True)
    assert wait_for(lambda: d.runtime.health().status == "paused")
    assert d.runtime.snapshot["state"] == "awaiting_twist" and resumed_from_disk(d)["moves"] == []
    disk.full = False
    assert wait_for(lambda: d.runtime.snapshot.get("moves") == ["c3 3R"])
    assert resumed_from_disk(d)["moves"] == ["c3 3R"]


def test_a_board_stopped_while_it_cannot_save_exits_failed_and_keeps_its_journal(daemon):
    d, disk, seen = daemon
    new_game(d)
    before = d.runtime.journal.path.read_bytes()
    disk.full = True
    d.board.place("c3")
    assert wait_for(lambda: d.runtime.health().status == "paused")
    d.runtime.stop()
    assert d.runtime.failed and d.runtime.journal.path.read_bytes() == before
    assert "STATUS=cannot save (No space left on device): the board is paused" in d.runtime.notifier.sent
