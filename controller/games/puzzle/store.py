"""Where the pictures saved from the board are kept: a :class:`PictureStore` over one folder.

The daemon owns the store (``pictures/`` beside its journal) and hands it to the runtime, which
writes on its ``pictures`` thread when the core's effects ask for a save
(:class:`controller.core.effects.SavePicture`), never on the core thread; the answer comes back
to the core as the notice it shows. A picture is ``<size>x<size>/<name>.txt`` in the library's
own format (:mod:`controller.rules.puzzle.pictures`); the store lists and reads them for the library
(the rules do no file I/O of their own), reading each through
:func:`controller.files.read_bounded`, and only regular files: a FIFO or a device named
``*.txt`` would hang or flood the reader.

A file in the folder that is no picture for its board (not UTF-8, not the format, the other
board's size: a picture copied in by hand) is left out of the library, said once in the log,
never an exception in the menu or a new game; the store keeps what it found of each file until
the file changes.

A save is checked (no picture of that name may be in the library already, shipped or saved),
then written whole or not at all: a temporary file, synced, linked to its name (never over
another), so a full disk or a read-only folder leaves no half picture, and its refusal names the
error. Every answer is a notice (:meth:`PictureStore.keep`), never an exception.

The board's menu, its new-game checks and its resumed games ask the library through the board's
:class:`controller.games.Catalogue`, which the daemon makes over its store and hands to the core
and to its web and MQTT checks (Picture-Puzzle's picture option reads the store it is given,
:func:`controller.games.puzzle.with_pictures`); without one they see the shipped pictures only.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from ...files import read_bounded
from ...rules.puzzle.pictures import (MAX_PICTURE_BYTES, SIZES, Picture, check_title, format_picture,
                                      library_names, library_picture, parse_picture, picture_name)

log = logging.getLogger(__name__)

NO_FOLDER = "this board keeps no user pictures (no state directory)"


class PictureStore:
    """The user pictures in ``folder`` (None: a board that keeps none; saving is refused)."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = None if folder is None else Path(folder)
        self._writing = threading.Lock()  # a name checked free stays free until it is written
        self._judged: dict[Path, tuple[tuple[int, int], bool]] = {}  # file -> (mtime, size), a picture?

    def __repr__(self) -> str:
        return f"PictureStore({str(self.folder) if self.folder else None!r})"

    # -- the library's questions (controller.rules.puzzle.pictures.SavedPictures) ---------------------

    def saved_names(self, size: int, shipped: tuple[str, ...]) -> tuple[str, ...]:
        folder = self._size_folder(size)
        if folder is None or not folder.is_dir():
            return ()
        return tuple(sorted(p.stem for p in folder.glob("*.txt") if p.stem not in shipped and self._is_picture(p, size)))

    def saved_text(self, name: str, size: int) -> str:
        folder = self._size_folder(size)
        if folder is None:
            raise FileNotFoundError(f"no saved picture {name!r}: {NO_FOLDER}")
        return read_bounded(folder / f"{name}.txt", MAX_PICTURE_BYTES).decode("utf-8")

    # -- the library, shipped and saved --------------------------------------------------------

    def names(self, size: int) -> tuple[str, ...]:
        """The pictures for the ``size`` board: the shipped ones, then the saved ones."""
        return library_names(size, self)

    def picture(self, name: str, size: int) -> Picture:
        """The picture ``name`` (or its title) for the ``size`` board; ValueError names the pictures."""
        return library_picture(name, size, self)

    def free_title(self, title: object) -> str:
        """A new picture's title, tidied: one that can name a file and that no picture of
        either board has yet; ValueError says why not (the commands' check, before the core's)."""
        tidy = check_title(title)
        taken = [f"{size}x{size}" for size in SIZES if picture_name(tidy) in self.names(size)]
        if taken:
            raise ValueError(f"a picture named {picture_name(tidy)!r} is already in the "
                             f"{' and '.join(taken)} library; choose another title")
        return tidy

    # -- saving --------------------------------------------------------------------------------

    def save(self, picture: Picture) -> Path:
        """Write ``picture`` among the saved pictures of its board size; its file's path.
        ValueError without a folder, FileExistsError when the library has a picture of that
        name, another OSError when the disk refuses the write (nothing is left of it then)."""
        folder = self._size_folder(picture.size)
        if folder is None:
            raise ValueError(NO_FOLDER)
        with self._writing:
            if picture.name in self.names(picture.size):
                raise FileExistsError(f"a picture named {picture.name!r} is already in the "
                                      f"{picture.size}x{picture.size} library: choose another title")
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{picture.name}.txt"
            _write_new(path, format_picture(picture).encode("utf-8"))
        return path

    def keep(self, picture: Picture) -> tuple[str, bool]:
        """Save ``picture``: the notice saying what happened, and whether the library has a new
        picture (a refusal is a notice, never an exception)."""
        try:
            path = self.save(picture)
        except (ValueError, OSError) as error:  # FileExistsError too: a title already taken
            return f"save picture: {error}", False
        return (f"saved the picture {picture.title!r} ({picture.stone_count} stones) as {picture.name!r} "
                f"for the {picture.size}x{picture.size} board ({path.name})"), True

    def _is_picture(self, path: Path, size: int) -> bool:
        """Whether the file at ``path`` is a regular file holding a picture for the ``size``
        board; judged again only when the file changes, a file that is none said once."""
        try:
            stat = path.stat()
        except OSError:
            return False
        key = (stat.st_mtime_ns, stat.st_size)
        judged = self._judged.get(path)
        if judged is not None and judged[0] == key:
            return judged[1]
        why = _fault(path, size)
        if why:
            log.warning("saved picture %s left out of the library: %s", path, why)
        self._judged[path] = (key, not why)
        return not why

    def _size_folder(self, size: int) -> Path | None:
        return None if self.folder is None else self.folder / f"{size}x{size}"


def _fault(path: Path, size: int) -> str:
    """What keeps the file at ``path`` from being a picture for the ``size`` board ("" if none)."""
    if not path.is_file():
        return "not a regular file"
    try:
        picture = parse_picture(read_bounded(path, MAX_PICTURE_BYTES).decode("utf-8"), path.name)
    except OSError as error:
        return f"cannot read it ({error.strerror or error})"
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except ValueError as error:  # NotationError: the picture format, naming the line
        return str(error)
    return "" if picture.size == size else f"a picture for the {picture.size}x{picture.size} board"


def _write_new(path: Path, data: bytes) -> None:
    """Write ``data`` as the new file ``path``, whole or not at all: FileExistsError if it exists."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with temporary.open("xb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.link(temporary, path)  # never over a file of that name, unlike a rename
    finally:
        temporary.unlink(missing_ok=True)
    directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(directory)  # the name itself survives a power cut
    finally:
        os.close(directory)
