"""The daemon's picture store: saved pictures listed after the shipped ones and read back
(bounded, regular files only); a save checked and written whole or not at all; every refusal,
a full disk and a read-only folder included, a notice naming the error, never an exception."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from contextlib import contextmanager

import pytest

from controller.games import PictureStore
from controller.games.puzzle import by_difficulty
from controller.rules.puzzle.pictures import format_picture, library_names, parse_picture, picture_of
from controller.rules.position import Position

BOAT = picture_of("Our Boat", Position.empty(6, colours=2).place(0, 1).place(7, 0))
MOUNTS = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("mount"),
                            reason="a read-only or full filesystem of its own needs mount, as root")


@contextmanager
def tmpfs(folder, options: str):
    """A real filesystem of its own at ``folder`` (made read-only or tiny by ``options``)."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_saved_picture_is_listed_after_the_shipped_ones_and_reads_back(tmp_path):
    store = PictureStore(tmp_path / "pictures")
    assert store.names(6) == library_names(6)  # nothing saved yet: the shipped library
    assert store.keep(BOAT) == ("saved the picture 'Our Boat' (2 stones) as 'our-boat' for the 6x6 board "
                                "(our-boat.txt)", True)
    assert store.names(6) == (*library_names(6), "our-boat") and store.names(9) == library_names(9)
    assert store.picture("Our Boat", 6) == BOAT
    assert parse_picture((tmp_path / "pictures" / "6x6" / "our-boat.txt").read_text()) == BOAT
    assert [p.name for p in (tmp_path / "pictures" / "6x6").iterdir()] == ["our-boat.txt"]  # no temporary left


def test_a_name_the_library_has_is_refused_and_the_file_kept(tmp_path):
    store = PictureStore(tmp_path)
    store.save(BOAT)
    again = picture_of("our  boat", Position.empty(6, colours=2).place(35, 0))
    assert store.keep(again) == ("save picture: a picture named 'our-boat' is already in the 6x6 library: "
                                 "choose another title", False)
    assert store.picture("our-boat", 6) == BOAT
    square = picture_of("Square", Position.empty(6, colours=2).place(0, 0))
    assert store.keep(square)[0].startswith("save picture: a picture named 'square' is already in the 6x6 library")
    with pytest.raises(ValueError, match="already in the 6x6 library; choose another title"):
        store.free_title("OUR boat")
    assert store.free_title("  Our   Ship ") == "Our Ship"


def test_a_store_without_a_folder_keeps_nothing_and_says_so():
    store = PictureStore()
    assert store.keep(BOAT) == ("save picture: this board keeps no user pictures (no state directory)", False)
    assert store.names(6) == library_names(6)


def test_only_regular_files_are_listed_and_a_huge_one_is_left_out_by_size(tmp_path):
    folder = tmp_path / "6x6"
    folder.mkdir()
    os.mkfifo(folder / "pipe.txt")  # opening it plainly would wait for a writer for ever
    (folder / "huge.txt").write_bytes(b"Huge\n" + b". " * 70_000)
    store = PictureStore(tmp_path)
    assert store.names(6) == library_names(6)
    with pytest.raises(ValueError, match="no picture 'huge'"):
        store.picture("huge", 6)


def test_a_file_that_is_no_picture_for_its_board_is_left_out_said_once_until_it_is_mended(tmp_path, caplog):
    folder = tmp_path / "9x9"
    folder.mkdir()
    (folder / "bad.txt").write_bytes(b"\xff\xfe not text")
    (folder / "junk.txt").write_text("Junk\nnot a row\n")
    (folder / "small.txt").write_text(format_picture(BOAT))  # a 6x6 picture copied among the 9x9 ones
    store = PictureStore(tmp_path)
    with caplog.at_level(logging.WARNING):
        assert store.names(9) == library_names(9)
        assert set(by_difficulty(store, 9)) == set(library_names(9))  # the menu rates the library: no exception
        store.names(9)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 3 and all("left out of the library" in line for line in said)
    assert any("not UTF-8" in line for line in said) and any("for the 6x6 board" in line for line in said)
    (folder / "junk.txt").write_text(format_picture(picture_of("Junk", Position.empty(9, colours=2).place(0, 1))))
    assert store.names(9) == (*library_names(9), "junk")  # mended: judged again, listed


@MOUNTS
def test_a_read_only_folder_is_a_notice_and_nothing_is_lost_or_left(tmp_path):
    store = PictureStore(tmp_path / "pictures")
    store.save(picture_of("Before", Position.empty(6, colours=2).place(3, 0)))
    subprocess.run(["mount", "--bind", "-o", "ro", str(tmp_path / "pictures"), str(tmp_path / "pictures")], check=True)
    try:
        notice, saved = store.keep(BOAT)
        assert not saved and notice.startswith("save picture: [Errno 30] Read-only file system"), notice
        assert store.names(6)[-1] == "before" and "our-boat" not in store.names(6)
    finally:
        subprocess.run(["umount", str(tmp_path / "pictures")], check=True)


@MOUNTS
def test_a_full_disk_is_a_notice_and_leaves_no_half_picture(tmp_path):
    with tmpfs(tmp_path / "pictures", "size=16k") as folder:
        (folder / "6x6").mkdir()
        with pytest.raises(OSError), open(folder / "filler", "wb") as filler:
            while True:
                filler.write(b"x" * 4096)
                filler.flush()
        notice, saved = PictureStore(folder).keep(BOAT)
        assert not saved and notice.startswith("save picture: [Errno 28] No space left on device"), notice
        assert list((folder / "6x6").iterdir()) == []  # no empty our-boat.txt to take its name for ever


def test_each_board_s_games_read_the_library_they_were_given_and_no_other(tmp_path):
    """The library reaches the games through the board's Catalogue (its specs' options, menu
    values and rules), not a slot the whole process shares: two boards in one process, one
    with a saved picture, each see their own library, a resumed game included."""
    from controller.core import Core
    from controller.events import Command
    from controller.games import Catalogue, OptionError, get, offered, options
    from controller.profile import load_profile
    import controller.games.puzzle.store as store_module

    assert not {"use", "library", "_named"} & set(vars(store_module))  # no slot left to set
    ours = PictureStore(tmp_path)
    ours.save(BOAT)
    board, bare = Catalogue(ours), Catalogue.shipped()
    picked = board.options({"game": "puzzle", "picture": "Our Boat"}, 6)
    assert picked["picture"] == "our-boat" and picked.make().picture == BOAT
    assert "our-boat" in board.get("puzzle").choice("picture").menu_values(6)
    assert "our-boat" in next(s for s in board.offered(6) if s.name == "puzzle").choice("picture").values_for({"size": 6})
    for shipped_only in (bare.options, options):  # another board, and the module's functions: the shipped pictures
        with pytest.raises(OptionError, match="picture 'Our Boat': the pictures are"):
            shipped_only({"game": "puzzle", "picture": "Our Boat"}, 6)
    assert "our-boat" not in get("puzzle").choice("picture").menu_values(6)
    assert board.get("classic") is get("classic") and board.offered(6)[0] is offered(6)[0]  # no picture: as shipped
    assert board.get("puzzle") is board.get("puzzle")  # read with the library once

    profile = load_profile("virtual-6x6")
    playing = Core(profile, catalogue=board)
    records = playing.handle(Command(0.0, "new_game", {"game": "puzzle", "picture": "our-boat"})).records
    assert playing.flow.game.picture == BOAT and records[-1]["kind"] == "start"
    assert Core(profile, journal_records=records, catalogue=board).flow.game.picture == BOAT
    refused = Core(profile, journal_records=records)  # a board without the library cannot replay it
    assert refused.flow.game is None and refused.resume.used == 0


def test_a_catalogue_is_given_its_library_or_named_the_shipped_pictures_only(tmp_path):
    """No silent fallback: a catalogue made without a library is an error, not a board that
    plays the shipped pictures and refuses to save; the shipped-only one is asked for by name."""
    from controller.games import SHIPPED, Catalogue, OptionError

    with pytest.raises(TypeError, match="pictures"):
        Catalogue()  # type: ignore[call-arg]
    ours = PictureStore(tmp_path)
    ours.save(BOAT)
    shipped = Catalogue.shipped()
    assert repr(shipped) == repr(SHIPPED) == "Catalogue.shipped()"
    assert repr(Catalogue(ours)) == f"Catalogue(PictureStore({str(tmp_path)!r}))"
    assert shipped.pictures.folder is None and shipped.get("puzzle") is SHIPPED.get("puzzle")
    with pytest.raises(OptionError, match="picture 'Our Boat': the pictures are"):
        shipped.options({"game": "puzzle", "picture": "Our Boat"}, 6)
    assert Catalogue(ours).options({"game": "puzzle", "picture": "Our Boat"}, 6)["picture"] == "our-boat"
