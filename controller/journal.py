"""The journal: every accepted action, written durably before it is shown.

One record per line: the CRC-32 of the record's JSON as eight hex digits, a space, the JSON::

    d6a56286 {"move":"b5 4R","seat":1}

:meth:`Journal.append` returns only once the line is on disk (flush, ``os.fsync``; the directory
is fsync'd too when the append created the file, so the file's name survives a power cut).
A power cut can only tear the last line, because the journal is append-only: :meth:`Journal.read`
drops a torn or corrupt last record with a warning and the next append cuts it off the file. An
append that fails (a full disk, the file-size limit) raises OSError and cuts its line off at
once, so the file never holds a record that was not made durable. A
bad record anywhere else is damage this design cannot explain, so it raises
:class:`JournalError` naming the line; :meth:`Journal.salvage` gives the records before it
instead, for a start-up that must go on. :meth:`Journal.clear` starts a fresh game journal
atomically (the new file is written and synced under a temporary name, then renamed over).
:meth:`Journal.set_aside` keeps a journal a start-up could not use in full under a new name
(see :data:`SET_ASIDE`) and starts the journal again from the records it could use.

One core thread owns a journal; it is not safe for concurrent writers.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import shutil
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from .errors import PentagoError
from .files import check_writable, read_bounded

log = logging.getLogger(__name__)

SET_ASIDE = ".damaged-"  # what a journal set aside is called: <journal name>.damaged-<UTC time>
MAX_BYTES = 64 * 1024 * 1024  # a new game starts the journal again; one game writes a few KiB


class JournalError(PentagoError, ValueError):
    """A journal that cannot be trusted (a damaged record before the last), or a record that
    cannot be written (not a dict of JSON values)."""


class Journal:
    """An append-only, fsync'd file of JSON records (dicts) at ``path``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._file: BinaryIO | None = None

    def append(self, record: dict[str, Any]) -> None:
        """Write ``record`` and return once it is durable. Raises JournalError if it is not a
        dict of JSON values."""
        line = encode_record(record)
        end = None
        try:
            if self._file is None:
                self._file = self._open_for_append()
            end = self._file.tell()
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError:
            self._abandon()
            if end is not None:  # a line not made durable is no record: a rebuild must not resume it
                with contextlib.suppress(OSError):  # else the next append cuts off a torn part
                    os.truncate(self.path, end)
            raise

    def read(self) -> list[dict[str, Any]]:
        """Every complete record in order; [] when there is no journal yet.

        A torn or corrupt last record is dropped with a warning; raises JournalError for a
        bad record before the last.
        """
        records, _ = self._scan()
        return records

    def salvage(self) -> tuple[list[dict[str, Any]], str | None]:
        """What a start-up can still use: the complete records before any damage, and the
        damage (the message :meth:`read` would raise) or None. Never raises JournalError."""
        records, _, damage = self._scan_to_damage()
        return records, damage

    def clear(self, records: Iterable[dict[str, Any]] = ()) -> None:
        """Replace the journal atomically with one holding only ``records`` (none by default).
        Raises JournalError, touching nothing, if one of them cannot be written."""
        self._replace_with(b"".join(encode_record(r) for r in records))

    @property
    def temporary(self) -> Path:
        """The name :meth:`clear` writes a new journal under before renaming it over."""
        return self.path.with_name(self.path.name + ".new")

    def _replace_with(self, data: bytes) -> None:
        self.close()
        temporary = self.temporary
        try:
            with open(temporary, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
        except OSError:
            with contextlib.suppress(OSError):  # a full disk: what was written of it frees its space
                temporary.unlink()
            raise
        os.replace(temporary, self.path)
        _fsync_directory(self.path.parent)

    def set_aside(self, keep: Iterable[dict[str, Any]] = ()) -> Path:
        """Keep the file as it is under a new name next to it, then replace the journal with one
        holding only ``keep`` (atomically, as :meth:`clear`). Returns the new name: the
        journal's name, :data:`SET_ASIDE`, the UTC time and, when a file set aside in the same
        second has it already, a counter; an earlier file is never overwritten. Raises
        JournalError, touching nothing, if a record of ``keep`` cannot be written."""
        data = b"".join(encode_record(r) for r in keep)  # first: a refusal must leave no copy behind
        self.close()
        aside = self._keep_under_a_new_name()
        self._replace_with(data)
        return aside

    def set_aside_files(self) -> list[Path]:
        """The files set aside from this journal, oldest name first."""
        return sorted(self.path.parent.glob(f"{self.path.name}{SET_ASIDE}*"))

    def _keep_under_a_new_name(self) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time()))
        for n in itertools.count(1):
            aside = self.path.with_name(f"{self.path.name}{SET_ASIDE}{stamp}" + (f"-{n}" if n > 1 else ""))
            try:
                _link_or_copy(self.path, aside)
            except FileExistsError:
                continue
            _fsync_directory(self.path.parent)
            return aside
        raise AssertionError("unreachable: itertools.count never ends")

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _abandon(self) -> None:
        """Drop the file after a failed write, without flushing what is left in its buffer."""
        file, self._file = self._file, None
        if file is not None:
            try:
                file.close()
            except OSError:
                pass  # the buffer could not be written either; the tail is torn and will be cut

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open_for_append(self) -> BinaryIO:
        """Open for appending, cutting off a torn tail first so the next record starts clean."""
        check_writable(self.path)  # a FIFO would block the open, a device swallow the records
        created = not self.path.exists()
        file = open(self.path, "ab")
        if created:
            _fsync_directory(self.path.parent)
            return file
        _, good_length = self._scan()
        if file.tell() > good_length:
            file.truncate(good_length)
            file.seek(good_length)  # "ab" writes at the end anyway; keep tell() honest
            os.fsync(file.fileno())
        return file

    def _scan(self) -> tuple[list[dict[str, Any]], int]:
        """The good records and the byte length they fill; raises JournalError on damage."""
        records, length, damage = self._scan_to_damage()
        if damage is not None:
            raise JournalError(damage)
        return records, length

    def _scan_to_damage(self) -> tuple[list[dict[str, Any]], int, str | None]:
        """The good records before any damage, the byte length they fill, and the damage."""
        try:
            data = read_bounded(self.path, MAX_BYTES)
        except FileNotFoundError:
            return [], 0, None
        lines = data.split(b"\n")
        tail = lines.pop()  # b"" after a final newline, else a line the power cut tore
        records: list[dict[str, Any]] = []
        offset = 0
        for number, line in enumerate(lines, start=1):
            try:
                records.append(decode_record(line))
            except JournalError as e:
                if number < len(lines) or tail:
                    return records, offset, f"{self.path}: line {number}: {e}"
                log.warning("journal %s: dropped the corrupt last record (line %d): %s",
                            self.path, number, e)
                return records, offset, None
            offset += len(line) + 1
        if tail:
            log.warning("journal %s: dropped the torn last record (line %d, %d bytes without a line end)",
                        self.path, len(lines) + 1, len(tail))
        return records, offset, None


def encode_record(record: dict[str, Any]) -> bytes:
    """One journal line for ``record``, newline included.

    >>> encode_record({"move": "b5 4R", "seat": 1})
    b'd6a56286 {"move":"b5 4R","seat":1}\\n'
    """
    if not isinstance(record, dict):
        raise JournalError(f"a journal record must be a dict, not {record!r}")
    try:
        text = json.dumps(record, separators=(",", ":"), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise JournalError(f"the record {record!r} is not JSON: {e}") from None
    body = text.encode("utf-8")
    return b"%08x %s\n" % (zlib.crc32(body), body)


def decode_record(line: bytes) -> dict[str, Any]:
    """The record in one journal line (without its newline).

    >>> decode_record(b'd6a56286 {"move":"b5 4R","seat":1}')
    {'move': 'b5 4R', 'seat': 1}
    """
    checksum, _, body = line.partition(b" ")
    if checksum != b"%08x" % zlib.crc32(body):
        raise JournalError(f"checksum does not match the record {line[:60]!r}")
    try:  # NaN and Infinity: json.loads reads them, encode_record refuses them, so no journal holds one
        record = json.loads(body, parse_constant=_refuse_constant)
    except JournalError as e:
        raise JournalError(f"the record {line[:60]!r} holds {e}") from None
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python recurses
        record = None
    if not isinstance(record, dict):
        raise JournalError(f"the record {line[:60]!r} is not a JSON object")
    return record


def _refuse_constant(name: str) -> None:
    raise JournalError(f"{name}, which a journal cannot hold")


def _link_or_copy(source: Path, target: Path) -> None:
    """A second name for ``source`` (a copy where the file system has no hard links); raises
    FileExistsError, never replacing ``target``."""
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError:
        with open(source, "rb") as original, open(target, "xb") as copy:
            shutil.copyfileobj(original, copy)
            copy.flush()
            os.fsync(copy.fileno())


def _fsync_directory(directory: Path) -> None:
    """Make a new or renamed file's directory entry durable (POSIX needs the directory synced)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
