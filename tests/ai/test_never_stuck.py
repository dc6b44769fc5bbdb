"""Never stuck: the runtime answers the computer's turn even when its search fails or overruns,
with the best move found so far or a level-1 move, and logs why; its time runs on the runtime's
injected clock (a fake one here), never on time.monotonic."""

from __future__ import annotations

import logging
import queue
import threading
import time

import pytest

import controller.ai
from controller.ai import SearchResult, fallback_move
from controller.core import Think
from controller.daemon.runtime import OVERRUN_S, Runtime
from controller.events import Command
from controller.rules import ClassicGame

from ..daemon.fakes import FakeCore, FakeInputs, FakeJournal, FakeNotifier, FakePixels
from ..daemon.test_runtime import wait_for
from .helpers import random_game


class FakeClock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def runtime(clock: FakeClock, **kw) -> Runtime:
    return Runtime(FakeCore(), inputs=FakeInputs(), pixels=FakePixels(log=[]), journal=FakeJournal(log=[]),
                   notifier=FakeNotifier(), clock=clock, **kw)


def answer(rt: Runtime, timeout_s: float = 5.0) -> Command:
    item = rt.queue.get(timeout=timeout_s)
    assert isinstance(item, Command) and item.name == "computer_move"
    return item


def no_answer(rt: Runtime, wait_s: float = 0.2) -> bool:
    try:
        rt.queue.get(timeout=wait_s)
    except queue.Empty:
        return True
    return False


def seat_two_game() -> ClassicGame:
    game = random_game(4, 9)
    assert game.to_move == 2 and not game.is_over()
    return game


def legal(game: ClassicGame, text: str) -> bool:
    moves = game.legal_moves()
    copy = random_game(4, 9)
    copy.push_text(text)
    return copy.moves[-1] in moves


def test_a_search_that_raises_still_plays_a_legal_level_one_move_and_logs_why(monkeypatch, caplog):
    def broken(*args, **kw):
        raise RuntimeError("search bug")

    monkeypatch.setattr(controller.ai, "choose_move", broken)
    game, clock = seat_two_game(), FakeClock()
    rt = runtime(clock)
    with caplog.at_level(logging.WARNING, logger="pentago_board"):
        rt._think(Think("k1", game, 2))
        command = answer(rt)
    assert command.args["key"] == "k1" and legal(game, command.args["move"])
    assert command.args["move"] == game.move_name(fallback_move(game))
    fell = [r for r in caplog.records if r.getMessage() == "computer opponent fell back"]
    assert fell and fell[0].fields["why"] == "the search failed (RuntimeError: search bug)"
    assert fell[0].fields["plays"] == "a level-1 move"


def test_a_search_that_raises_after_an_iteration_plays_its_best_move_so_far(monkeypatch, caplog):
    game = seat_two_game()
    best = next(m for m in game.legal_moves() if m.twist is not None and m != fallback_move(game))
    index = controller.ai.tables.search_tables(6).twists.index(best.twist)

    def fails_late(game, *, progress, **kw):
        progress(SearchResult((best.hole, index), 12, 1, 50))
        raise MemoryError("out of memory at depth 2")

    monkeypatch.setattr(controller.ai, "choose_move", fails_late)
    rt = runtime(FakeClock())
    with caplog.at_level(logging.WARNING, logger="pentago_board"):
        rt._think(Think("k2", game, 3))
        command = answer(rt)
    assert command.args["move"] == game.move_name(best)
    assert [r.fields["plays"] for r in caplog.records if r.getMessage() == "computer opponent fell back"] == [
        "its best move so far"]


@pytest.mark.parametrize("reports", [False, True])
def test_an_overrunning_search_is_answered_once_the_fake_clock_passes_its_budget(monkeypatch, caplog, reports):
    game, clock, release = seat_two_game(), FakeClock(), threading.Event()
    move = game.legal_moves()[7]
    index = controller.ai.tables.search_tables(6).twists.index(move.twist)

    def hangs(game, *, progress, **kw):  # never looks at its deadline
        if reports:
            progress(SearchResult((move.hole, index), 0, 1, 10))
        release.wait(10)
        raise AssertionError("released at the end of the test")

    monkeypatch.setattr(controller.ai, "choose_move", hangs)
    rt = runtime(clock, think_s=2.0)
    try:
        with caplog.at_level(logging.WARNING, logger="pentago_board"):
            rt._think(Think("k3", game, 2))
            clock.t += 2.0 + OVERRUN_S - 0.01  # within the budget: still waiting
            assert no_answer(rt)
            clock.t += 0.02  # past it
            command = answer(rt)
    finally:
        release.set()
    expected = move if reports else fallback_move(game)
    assert command.args["move"] == game.move_name(expected) and legal(game, command.args["move"])
    fell = [r for r in caplog.records if r.getMessage() == "computer opponent fell back"]
    assert fell[0].fields["why"] == "the search overran its 2 s by more than 0.5 s"


def test_the_search_deadline_reads_the_runtimes_clock_not_monotonic(monkeypatch):
    clock, seen = FakeClock(), []

    def watches(game, *, deadline, **kw):
        seen.append(deadline())
        clock.t += 1.49
        seen.append(deadline())
        clock.t += 0.02
        seen.append(deadline())
        return game.legal_moves()[0]

    monkeypatch.setattr(controller.ai, "choose_move", watches)
    monkeypatch.setattr(time, "monotonic", lambda: 0.0)  # would never pass the deadline
    game = seat_two_game()
    rt = runtime(clock)  # level 2 thinks THINK_SECONDS[2] = 1.5 s
    rt._think(Think("k4", game, 2))
    assert answer(rt).args["move"] == game.move_name(game.legal_moves()[0])
    assert seen == [False, False, True]


def test_a_think_without_a_level_uses_the_configured_one(monkeypatch):
    levels = []

    def records(game, *, level, **kw):
        levels.append(level)
        return game.legal_moves()[0]

    monkeypatch.setattr(controller.ai, "choose_move", records)
    rt = runtime(FakeClock(), level=0)
    rt._think(Think("k5", seat_two_game()))
    rt._think(Think("k6", seat_two_game(), 3))
    answer(rt), answer(rt)
    assert sorted(levels) == [0, 3]


def test_through_the_daemon_a_broken_search_still_lights_a_move_at_the_computers_seat(monkeypatch):
    from controller.core import Core
    from controller.drivers.virtual import VirtualBoard
    from controller.profile import load_profile

    def broken(*args, **kw):
        raise RuntimeError("search bug")

    monkeypatch.setattr(controller.ai, "choose_move", broken)
    profile = load_profile("virtual-6x6")
    board = VirtualBoard.from_profile(profile, clock=time.monotonic)
    rt = Runtime(Core(profile, start_time=time.monotonic()), inputs=board, pixels=FakePixels(log=[]),
                 journal=FakeJournal(log=[]), notifier=FakeNotifier(), think_s=0.1)
    notices: list[str] = []
    rt.listeners.append(lambda state, new, events: notices.extend(new))
    rt.start()
    try:
        rt.put(Command(time.monotonic(), "new_game", {"game": "classic", "computer": True, "level": 3}))
        board.place("c3")
        assert wait_for(lambda: rt.core.state()["state"] == "awaiting_twist")
        board.quarter(3, True)
        assert wait_for(lambda: any(n.startswith("Computer (strong) plays") for n in notices))
    finally:
        rt.stop()
    state = rt.core.state()
    assert state["moves"] == ["c3 3R"] and state["to_move"] == 2

