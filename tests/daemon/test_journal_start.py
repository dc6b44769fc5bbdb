"""No journal content stops the daemon starting (issue 9, items 1-3): what cannot be resumed is
set aside under a name that never overwrites another, and the journal keeps the records that
can be used (the longest prefix that replays cleanly)."""

from __future__ import annotations

import logging
import zlib
from pathlib import Path

import pytest

from controller.daemon import service
from controller.daemon.config import Config
from controller.daemon.notify import Notifier
from controller.events import Tick
from controller.journal import Journal, encode_record

from .daemon_proc import DaemonProcess

START = {"t": 1.0, "kind": "start", "game": "classic", "players": 2, "computer": False, "match": False, "starter": 1}
A1 = {"t": 2.0, "kind": "place", "hole": "a1"}


def build(journal: Path) -> service.Daemon:
    daemon = service.build(Config(profile="virtual-6x6", journal=journal), Notifier({}))
    daemon.runtime.journal.close()
    return daemon


def set_aside(journal: Path) -> list[Path]:
    return sorted(journal.parent.glob(journal.name + ".damaged-*"))


def test_a_journal_of_only_menu_starts_the_daemon(tmp_path):
    d = DaemonProcess(tmp_path)
    d.journal.parent.mkdir(parents=True)
    Journal(d.journal).clear([{"t": 1.0, "kind": "menu"}])  # what OK at game over leaves
    try:
        d.start().ready()
        assert d.state()["state"] == "choosing"
    finally:
        d.close()
    assert set_aside(d.journal) == []  # a journal the daemon wrote itself is not damage


def test_an_unusable_record_is_set_aside_and_the_records_before_it_kept(tmp_path, logs):
    journal = tmp_path / "journal.jsonl"
    Journal(journal).clear([START, A1, {"t": 3.0, "kind": "place", "hole": 5}, {"t": 4.0, "kind": "skip"}])
    original = journal.read_bytes()
    daemon = build(journal)
    [aside] = set_aside(journal)
    assert aside.read_bytes() == original
    assert Journal(journal).read() == [START, A1]
    assert daemon.runtime.core.state()["state"] == "awaiting_twist"
    line = next(r for r in logs.records if r.levelno == logging.ERROR)
    assert "journal set aside" in line.getMessage()
    assert line.fields["kept"] == aside and "record 3" in line.fields["problem"]
    notices = daemon.runtime.core.handle(Tick(1e9)).notices
    assert any(str(aside) in n and "pentago-board doctor" in n for n in notices), notices


def test_a_damaged_line_keeps_the_records_before_it(tmp_path):
    journal = tmp_path / "journal.jsonl"
    body = b'{"kind":"skip"}'
    journal.write_bytes(encode_record(START) + encode_record(A1) + b"%08x %s\n" % (zlib.crc32(body) ^ 1, body)
                        + encode_record({"kind": "twist", "twist": "1R"}))
    original = journal.read_bytes()
    daemon = build(journal)
    assert [p.read_bytes() for p in set_aside(journal)] == [original]
    assert Journal(journal).read() == [START, A1]
    assert daemon.runtime.core.state()["state"] == "awaiting_twist"


@pytest.mark.parametrize("content, damaged", [
    (b"\x00" * 64, False),  # a power cut's zero-filled tail: dropped, as a torn last record is
    ("\u00e9\n".encode("latin-1"), False),  # one bad last line: a power cut's too
    (b"garbage\nmore garbage\n", True),
    (encode_record({"kind": "menu"}) + b"x" * 5000 + b"\n" + encode_record(START), True),
])
def test_junk_starts_at_the_menu(tmp_path, content, damaged):
    journal = tmp_path / "journal.jsonl"
    journal.write_bytes(content)
    daemon = build(journal)
    assert daemon.runtime.core.state()["state"] == "choosing"
    assert [p.read_bytes() for p in set_aside(journal)] == ([content] if damaged else [])


def test_two_journals_set_aside_in_the_same_second_are_both_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(service.time, "time", lambda: 1_800_000_000.0)
    journal = tmp_path / "journal.jsonl"
    kept = []
    for hole in (5, 6, 7):
        Journal(journal).clear([START, {"kind": "place", "hole": hole}])
        kept.append(journal.read_bytes())
        build(journal)
    assert sorted(p.read_bytes() for p in set_aside(journal)) == sorted(kept)


def test_a_sound_journal_is_resumed_and_nothing_set_aside(tmp_path):
    journal = tmp_path / "journal.jsonl"
    Journal(journal).clear([START, A1])
    original = journal.read_bytes()
    daemon = build(journal)
    assert set_aside(journal) == [] and journal.read_bytes() == original
    assert daemon.runtime.core.state()["state"] == "awaiting_twist"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_record_holding_a_number_json_cannot_write_is_damage_and_set_aside_once(tmp_path, constant):
    """json.loads reads NaN and Infinity, the writer refuses them: such a record (its checksum
    valid) followed by one the replay refuses once stopped every start (exit 2), and each try
    set another copy aside."""
    journal = tmp_path / "journal.jsonl"
    body = b'{"hole":"a1","kind":"place","t":2.0,"x":%s}' % constant.encode()  # the replay ignores "x"
    journal.write_bytes(encode_record(START) + b"%08x %s\n" % (zlib.crc32(body), body)
                        + encode_record({"t": 3.0, "kind": "place", "hole": 5}))
    original = journal.read_bytes()
    for _ in range(3):
        daemon = build(journal)
        assert daemon.runtime.core.state()["state"] == "awaiting_placement"
    assert [p.read_bytes() for p in set_aside(journal)] == [original]
    assert Journal(journal).read() == [START]


def test_a_journal_whose_game_replays_but_cannot_run_starts_at_the_menu_and_is_set_aside(tmp_path, monkeypatch, logs):
    """Item 3: the journal of a Picture-Puzzle practice after a passing restore resumed
    ("records=12"), then its state raised an IndexError at every start; the page showed nothing
    and no command was ever handled. Whatever the game's state raises, a start goes on at the menu."""
    from controller.games.puzzle.flow import PuzzleFlow

    def summary_of_a_seat_nobody_has(flow):
        raise IndexError("list index out of range")

    monkeypatch.setattr(PuzzleFlow, "detail", summary_of_a_seat_nobody_has)
    journal = tmp_path / "journal.jsonl"
    puzzle = {"t": 1.0, "kind": "start", "game": "puzzle", "players": 2, "practice": False, "picture": "red-cross",
              "start_k": 1, "restore_limit_s": None, "dismantle_limit_s": None, "show_s": 0, "check": "colour",
              "starter": 1}
    Journal(journal).clear([puzzle])
    original = journal.read_bytes()
    daemon = build(journal)
    assert daemon.runtime.core.state()["state"] == "choosing"
    [aside] = set_aside(journal)
    assert aside.read_bytes() == original and Journal(journal).read() == []
    notices = daemon.runtime.core.handle(Tick(1e9)).notices
    assert "journal: its game cannot be run (IndexError: list index out of range); starting at the menu" in notices
    assert any(r.exc_info and "cannot be run" in r.getMessage() for r in logs.records)
    assert build(journal).runtime.core.state()["state"] == "choosing" and len(set_aside(journal)) == 1
