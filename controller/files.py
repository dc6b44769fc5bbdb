"""Reading a file the user names: a regular file of bounded size, or a reason in words.

Every file the product reads from a path it was given (the config, a hardware profile, the
journal, a tape, the MQTT CA file) goes through :func:`read_bounded`, because a path can name
anything: ``/dev/zero`` or ``/dev/urandom`` (endless bytes: a plain read fills the memory), a
FIFO (a plain open waits for a writer for ever), a directory, a socket, a symlink loop, or a
huge file. The refusal is an :class:`UnusableFile`, an ``OSError`` whose ``strerror`` says what
the path is, so a caller that already answers "cannot read it (<strerror>)" needs nothing more.

>>> read_bounded("/dev/zero", 100)
Traceback (most recent call last):
...
controller.files.UnusableFile: [Errno 22] a character device, not a regular file: '/dev/zero'
"""

from __future__ import annotations

import errno
import os
import stat

KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
         (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISSOCK, "a socket"))
MIB = 1024 * 1024


class UnusableFile(OSError):
    """A path that names no regular file of a readable size (see the module docstring)."""


def read_bounded(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``max_bytes`` of them.

    Raises :class:`UnusableFile` for anything else (FileNotFoundError and the other OSErrors of
    a plain open pass through, e.g. a symlink loop's "Too many levels of symbolic links").
    Never waits: a FIFO is opened without blocking, then refused.
    """
    check_path(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        refuse_special(path, info.st_mode)
        if info.st_size > max_bytes:
            raise _too_big(path, info.st_size, max_bytes)
        chunks, size = [], 0
        while size <= max_bytes and (chunk := os.read(fd, min(max_bytes + 1 - size, MIB))):
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:  # it grew while we read
            raise _too_big(path, size, max_bytes)
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse a path to write to that names something other than a regular file; a missing
    one is fine (it will be created). Raises :class:`UnusableFile` or the stat's OSError."""
    check_path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    refuse_special(path, mode)


def check_path(path: str | os.PathLike[str]) -> None:
    """Refuse a path that no file can have (a NUL character in it)."""
    if "\0" in os.fsdecode(path):
        raise UnusableFile(errno.EINVAL, "a path cannot hold a NUL character", os.fsdecode(path).replace("\0", "\\0"))


def refuse_special(path: str | os.PathLike[str], mode: int) -> None:
    for is_kind, kind in KINDS:
        if is_kind(mode):
            raise UnusableFile(errno.EINVAL, f"{kind}, not a regular file", os.fsdecode(path))


def _too_big(path: str | os.PathLike[str], size: int, max_bytes: int) -> UnusableFile:
    return UnusableFile(errno.EFBIG, f"{_size(size)}, more than the {_size(max_bytes)} this file may hold",
                        os.fsdecode(path))


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB else f"{n} bytes"
