"""The journal: durable appends, torn tails dropped after a power cut, damage named, atomic clear."""

from __future__ import annotations

import json
import logging
import os
import stat
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.journal import Journal, JournalError, decode_record, encode_record

GAME = [
    {"kind": "start", "game": "classic", "players": 2},
    {"kind": "move", "move": "b5 4R", "seat": 1},
    {"kind": "move", "move": "e2 1L", "seat": 2, "note": "élan ✓"},
    {"kind": "move", "move": "c3", "seat": 1, "clock": [12.5, 30.25]},
]


def written(path, records):
    with Journal(path) as journal:
        for record in records:
            journal.append(record)
    return path.read_bytes()


def test_round_trip_in_order(tmp_path):
    path = tmp_path / "game.journal"
    with Journal(path) as journal:
        for record in GAME:
            journal.append(record)
        assert Journal(path).read() == GAME  # another reader sees every record at once
    assert Journal(path).read() == GAME


def test_no_journal_yet_reads_empty(tmp_path):
    assert Journal(tmp_path / "none.journal").read() == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(deadline=None)  # real file writes: their time depends on the disk, not on us
@given(st.lists(st.dictionaries(st.text(), json_values, max_size=4), max_size=6))
def test_any_json_records_round_trip(tmp_path_factory, records):
    path = tmp_path_factory.mktemp("j") / "any.journal"
    with Journal(path) as journal:
        for record in records:
            journal.append(record)
    assert Journal(path).read() == records


def test_power_cut_at_every_byte_of_the_last_record_keeps_the_complete_ones(tmp_path, caplog):
    whole = written(tmp_path / "whole.journal", GAME)
    last_start = len(whole) - len(encode_record(GAME[-1]))
    path = tmp_path / "cut.journal"
    for cut in range(last_start, len(whole) + 1):
        path.write_bytes(whole[:cut])
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="controller.journal"):
            records = Journal(path).read()
        expected = GAME if cut == len(whole) else GAME[:-1]
        assert records == expected, f"cut at byte {cut}"
        torn = last_start < cut < len(whole)
        assert len(caplog.records) == torn, f"cut at byte {cut}"


def test_power_cut_at_every_record_boundary_and_mid_record_then_resume(tmp_path):
    whole = written(tmp_path / "whole.journal", GAME)
    path = tmp_path / "resume.journal"
    for cut in range(len(whole) + 1):
        path.write_bytes(whole[:cut])
        survivors = Journal(path).read()
        assert survivors == GAME[: len(survivors)]
        assert len(b"".join(encode_record(r) for r in survivors)) <= cut
        with Journal(path) as journal:  # play on: the torn tail must not glue onto the next record
            journal.append({"kind": "resumed"})
        assert Journal(path).read() == survivors + [{"kind": "resumed"}], f"cut at byte {cut}"


def test_zero_filled_tail_after_a_crash_is_dropped(tmp_path, caplog):
    path = tmp_path / "zeros.journal"
    path.write_bytes(written(path, GAME[:2]) + b"\0" * 40)
    with caplog.at_level(logging.WARNING, logger="controller.journal"):
        assert Journal(path).read() == GAME[:2]
    assert caplog.records[0].getMessage() == (
        f"journal {path}: dropped the torn last record (line 3, 40 bytes without a line end)")


def test_corrupt_last_record_is_dropped_with_a_warning(tmp_path, caplog):
    path = tmp_path / "flip.journal"
    data = bytearray(written(path, GAME))
    data[-3] ^= 0x01  # a flipped bit inside the last record
    path.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="controller.journal"):
        assert Journal(path).read() == GAME[:-1]
    assert "dropped the corrupt last record (line 4): checksum does not match" in caplog.text


def test_corrupt_record_in_the_middle_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "middle.journal"
    lines = written(path, GAME).split(b"\n")
    lines[1] = lines[1].replace(b"b5", b"b6")
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError) as caught:
        Journal(path).read()
    assert str(caught.value) == (
        f"{path}: line 2: checksum does not match the record "
        + repr(lines[1][:60]))
    with pytest.raises(JournalError, match="line 2"):
        Journal(path).append({"kind": "more"})  # never append after damage it cannot explain


def test_bad_last_line_before_a_torn_tail_is_damage_not_a_tear(tmp_path):
    path = tmp_path / "two-bad.journal"
    data = written(path, GAME)
    path.write_bytes(data.replace(b"c3", b"c4") + b"12ab")
    with pytest.raises(JournalError, match="line 4: checksum does not match"):
        Journal(path).read()


NOT_AN_OBJECT = b"%08x [1]" % zlib.crc32(b"[1]")  # a right checksum over JSON that is no object
NAN = b"%08x {\"t\":NaN}" % zlib.crc32(b'{"t":NaN}')  # a right checksum over a record the writer refuses


@pytest.mark.parametrize("line, problem", [
    (b"", "checksum does not match the record b''"),
    (b"zzzzzzzz {}", "checksum does not match the record b'zzzzzzzz {}'"),
    (b"%08X {}" % zlib.crc32(b"{}"), "checksum does not match the record b'A3A6BF43 {}'"),  # upper case is not ours
    (NOT_AN_OBJECT, f"the record {NOT_AN_OBJECT!r} is not a JSON object"),
    (NAN, f"the record {NAN!r} holds NaN, which a journal cannot hold"),  # json.loads alone reads it
])
def test_decode_names_the_problem(line, problem):
    with pytest.raises(JournalError) as caught:
        decode_record(line)
    assert str(caught.value) == problem


@pytest.mark.parametrize("record, problem", [
    (["b5"], "a journal record must be a dict, not ['b5']"),
    ({"t": float("nan")}, "the record {'t': nan} is not JSON: Out of range float values are not JSON compliant"),
    ({"when": object}, "the record {'when': <class 'object'>} is not JSON: "
                       "Object of type type is not JSON serializable"),
])
def test_unwritable_records_are_refused_and_leave_the_file_alone(tmp_path, record, problem):
    path = tmp_path / "refuse.journal"
    before = written(path, GAME[:1])
    with Journal(path) as journal, pytest.raises(JournalError) as caught:
        journal.append(record)
    assert problem in str(caught.value)
    assert path.read_bytes() == before


def fsync_log(monkeypatch):
    """Record what each os.fsync call synced: 'dir' or the file's name."""
    synced: list[str] = []
    real = os.fsync

    def spy(fd):
        kind = "dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        synced.append(kind)
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return synced


def test_append_fsyncs_every_record_and_the_directory_when_it_creates_the_file(tmp_path, monkeypatch):
    synced = fsync_log(monkeypatch)
    path = tmp_path / "sync.journal"
    with Journal(path) as journal:
        journal.append(GAME[0])
        assert synced == ["dir", "file"]
        journal.append(GAME[1])
        assert synced == ["dir", "file", "file"]
    synced.clear()
    with Journal(path) as journal:  # an existing journal: no directory entry to make durable
        journal.append(GAME[2])
    assert synced == ["file"]


def test_clear_starts_a_fresh_journal_atomically(tmp_path, monkeypatch):
    path = tmp_path / "clear.journal"
    synced = fsync_log(monkeypatch)
    with Journal(path) as journal:
        journal.append(GAME[0])
        synced.clear()
        journal.clear([{"kind": "start", "game": "classic"}])
        assert synced == ["file", "dir"]  # the new file's data, then its name
        journal.append({"kind": "move", "move": "a1"})  # appends go to the new file
    assert Journal(path).read() == [{"kind": "start", "game": "classic"}, {"kind": "move", "move": "a1"}]
    Journal(path).clear()
    assert Journal(path).read() == [] and path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clear.journal"]


def test_a_crash_during_clear_leaves_the_old_journal_whole(tmp_path, monkeypatch):
    path = tmp_path / "old.journal"
    written(path, GAME)

    def power_cut(*args):
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError):
        Journal(path).clear([{"kind": "start"}])
    assert Journal(path).read() == GAME


class FullDisk:
    """A journal file on a disk that fills up halfway through the next write."""

    def __init__(self, file):
        self.file = file

    def tell(self) -> int:
        return self.file.tell()

    def write(self, line: bytes) -> int:
        self.file.write(line[: len(line) // 2])
        self.file.flush()
        raise OSError(28, "No space left on device")

    def close(self) -> None:
        self.file.close()


def test_a_failed_append_raises_and_the_next_one_cuts_off_the_half_written_line(tmp_path, monkeypatch):
    path = tmp_path / "full.journal"
    written(path, GAME[:2])
    journal = Journal(path)
    real_open = Journal._open_for_append
    monkeypatch.setattr(Journal, "_open_for_append", lambda self: FullDisk(real_open(self)))
    with pytest.raises(OSError, match="No space left"):
        journal.append(GAME[2])
    monkeypatch.undo()
    assert Journal(path).read() == GAME[:2]  # the torn half is dropped on reading
    journal.append(GAME[3])  # space again: the same journal object writes on cleanly
    journal.close()
    assert Journal(path).read() == [GAME[0], GAME[1], GAME[3]]


def failing_fsync(monkeypatch):
    """fsync fails for files (a full disk found at write-back: the data sat in the page cache)."""
    real = os.fsync

    def fsync(fd):
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def test_a_line_written_but_not_made_durable_is_cut_off_at_once(tmp_path, monkeypatch):
    """Else a rebuild after the failure would resume a move that was never durable (issue 19
    item 7: the core must not run ahead of the journal)."""
    path = tmp_path / "full.journal"
    before = written(path, GAME[:2])
    journal = Journal(path)
    failing_fsync(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        journal.append(GAME[2])
    assert path.read_bytes() == before


def test_a_clear_that_fails_keeps_the_journal_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "full.journal"
    before = written(path, GAME[:2])
    failing_fsync(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        Journal(path).clear([GAME[0]])
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["full.journal"]


# -- salvage: what a start-up can still use from a damaged journal (issue 9, item 2) -----------

def test_salvage_keeps_the_records_before_a_damaged_line_and_names_it(tmp_path):
    path = tmp_path / "damaged.journal"
    lines = written(path, GAME).split(b"\n")
    lines[2] = lines[2].replace(b"e2", b"e3")  # the checksum no longer matches
    path.write_bytes(b"\n".join(lines))
    records, damage = Journal(path).salvage()
    assert records == GAME[:2]
    assert damage is not None and damage.startswith(f"{path}: line 3: checksum does not match")


def test_salvage_of_a_sound_journal_is_read(tmp_path):
    path = tmp_path / "sound.journal"
    written(path, GAME)
    assert Journal(path).salvage() == (GAME, None)
    assert Journal(tmp_path / "none.journal").salvage() == ([], None)


def test_a_deeply_nested_record_with_a_good_checksum_is_damage_not_a_crash(tmp_path):
    body = b"[" * 100_000 + b"]" * 100_000
    path = tmp_path / "deep.journal"
    path.write_bytes(encode_record(GAME[0]) + b"%08x %s\n" % (zlib.crc32(body), body) + encode_record(GAME[1]))
    with pytest.raises(JournalError, match="line 2: the record .* is not a JSON object"):
        Journal(path).read()
    assert Journal(path).salvage()[0] == GAME[:1]


@settings(deadline=None, max_examples=200)
@given(st.binary(max_size=400))
def test_no_bytes_make_read_or_salvage_fail_other_than_with_a_journal_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "any.journal"
    path.write_bytes(data)
    records, damage = Journal(path).salvage()
    assert all(isinstance(r, dict) for r in records)
    try:
        assert Journal(path).read() == records and damage is None
    except JournalError:
        assert damage is not None


def test_set_aside_of_records_that_cannot_be_written_refuses_and_keeps_no_copy(tmp_path):
    path = tmp_path / "journal"
    before = written(path, GAME)
    with pytest.raises(JournalError, match="is not JSON"):
        Journal(path).set_aside([GAME[0], {"t": float("inf")}])
    assert path.read_bytes() == before and Journal(path).set_aside_files() == []


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                           max_leaves=8)


@settings(deadline=None, max_examples=300)
@given(st.dictionaries(st.text(max_size=3), JSON_VALUES, max_size=4))
def test_every_record_read_can_be_written_again(value):
    """What decode_record accepts, encode_record writes (NaN and Infinity, which json.loads
    reads, are refused on reading): a start that keeps records it read can always write them."""
    body = json.dumps(value).encode()
    try:
        record = decode_record(b"%08x %s" % (zlib.crc32(body), body))
    except JournalError as refused:
        assert "which a journal cannot hold" in str(refused)
        return
    assert decode_record(encode_record(record)[:-1]) == record
