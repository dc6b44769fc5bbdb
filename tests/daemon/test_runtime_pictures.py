"""A picture saved from the board: the core asks for it in its effects, the runtime has the
daemon's store write it on its ``pictures`` thread (never the core's), and the store's answer
comes back as the notice; a folder that turned read-only is a notice too, and the board plays on."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading

import pytest

from controller.core import Core
from controller.daemon.runtime import Runtime
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.events import Command
from controller.games import Catalogue, PictureStore
from controller.profile import load_profile

from .fakes import FakeJournal, FakeNotifier
from .test_runtime import wait_for

PROFILE = load_profile("virtual-6x6")


class Watched(PictureStore):
    """The real store, noting the thread each save runs on."""

    def __init__(self, folder) -> None:
        super().__init__(folder)
        self.threads: list[str] = []

    def save(self, picture):
        self.threads.append(threading.current_thread().name)
        return super().save(picture)


@pytest.fixture
def board(tmp_path):
    """A running runtime over a real core and a virtual board with two marbles on it, its
    store in ``tmp_path/pictures``; yields (runtime, store, notices heard by a listener)."""
    store = Watched(tmp_path / "pictures")
    games = Catalogue(store)
    inputs = VirtualBoard.from_profile(PROFILE, buttons=("ok", "back"))
    runtime = Runtime(Core(PROFILE, catalogue=games), inputs=inputs, pixels=VirtualPixels(PROFILE.leds.length),
                      journal=FakeJournal(), notifier=FakeNotifier(), games=games)
    notices: list[str] = []
    runtime.listeners.append(lambda state, said, records: notices.extend(said))
    runtime.start()
    inputs.place(0, "red")
    inputs.place(8, "black")
    try:
        yield runtime, store, notices
    finally:
        runtime.stop()


def test_the_store_writes_on_its_own_thread_and_the_notice_comes_back(board):
    runtime, store, notices = board
    runtime.put(Command(0.0, "save_picture", {"title": "Two Dots"}))
    assert wait_for(lambda: any(n.startswith("saved the picture") for n in notices)), notices
    assert "saved the picture 'Two Dots' (2 stones) as 'two-dots' for the 6x6 board (two-dots.txt)" in notices
    assert store.threads == ["pictures"]
    assert wait_for(lambda: runtime.snapshot.get("pictures_saved") == 1)
    assert (store.folder / "6x6" / "two-dots.txt").read_text().startswith("Two Dots\n")


def test_a_capture_refused_is_told_at_once_and_nothing_is_asked_of_the_store(board):
    runtime, store, notices = board
    runtime.put(Command(0.0, "save_picture", {"title": "no/slash"}))
    assert wait_for(lambda: any(n.startswith("save picture:") for n in notices)), notices
    assert store.threads == []


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("mount"), reason="a read-only bind mount needs root")
def test_a_read_only_folder_is_a_notice_and_the_board_plays_on(board):
    runtime, store, notices = board
    store.folder.mkdir()
    subprocess.run(["mount", "--bind", "-o", "ro", str(store.folder), str(store.folder)], check=True)
    try:
        runtime.put(Command(0.0, "save_picture", {"title": "Two Dots"}))
        assert wait_for(lambda: any(n.startswith("save picture:") for n in notices)), notices
    finally:
        subprocess.run(["umount", str(store.folder)], check=True)
    refusal = next(n for n in notices if n.startswith("save picture:"))
    assert refusal.startswith("save picture: [Errno 30] Read-only file system"), refusal
    assert store.threads == ["pictures"] and not runtime.failed and runtime.pause is None
    runtime.put(Command(1.0, "new_game", {"game": "classic"}))  # the core answers on
    assert wait_for(lambda: any(n.startswith("new game of Classic") for n in notices)), notices
    assert runtime.snapshot.get("pictures_saved") == 0


def test_a_daemon_made_catalogue_reads_the_boards_own_library(tmp_path):
    """service.build gives the core, its rebuilds and the runtime one Catalogue over the board's
    own library (the pictures folder beside the journal), never the shipped pictures only."""
    from controller.daemon import service
    from controller.daemon.config import Config
    from controller.rules.position import Position
    from controller.rules.puzzle.pictures import picture_of

    boat = picture_of("Our Boat", Position.empty(6, colours=2).place(0, 1).place(7, 0))
    PictureStore(tmp_path / service.PICTURES_DIR).save(boat)
    daemon = service.build(Config(profile="virtual-6x6", journal=tmp_path / "journal.jsonl"), FakeNotifier())
    try:
        games = daemon.runtime.games
        assert games.pictures.folder == tmp_path / service.PICTURES_DIR
        assert daemon.runtime.core.games is games and daemon.runtime.rebuild(daemon.runtime.core, False).games is games
        assert games.options({"game": "puzzle", "picture": "Our Boat"}, 6).make().picture == boat
    finally:
        daemon.runtime.journal.close()
