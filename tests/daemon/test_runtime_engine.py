"""The runtime's search engine: Python until the computer is first asked and the compiled search
is proven to build in a child process, then compiled; a build that fails (or a hardened service
forbidding a JIT) leaves Python searching, logged, and the computer still plays."""

from __future__ import annotations

import logging
import subprocess
import time

import pytest

from controller.daemon import runtime as runtime_module
from controller.events import Command

from .test_runtime import make, wait_for


def playing_the_computer(**kw):
    """A started runtime on a virtual board, with the computer asked for its first move."""
    from controller.core import Core
    from controller.drivers.virtual import VirtualBoard
    from controller.profile import load_profile

    profile = load_profile("virtual-6x6")
    board = VirtualBoard.from_profile(profile, clock=time.monotonic)
    runtime, _, _ = make(core=Core(profile, start_time=time.monotonic()), inputs=board, think_s=0.2, **kw)
    notices: list[str] = []
    runtime.listeners.append(lambda state, new, events: notices.extend(new))
    runtime.start()
    assert not runtime._warming  # nothing compiles before the computer is asked
    runtime.put(Command(time.monotonic(), "new_game", {"game": "classic", "computer": True}))
    board.place("c3")
    assert wait_for(lambda: runtime.core.state()["state"] == "awaiting_twist")
    board.quarter(3, True)
    assert wait_for(lambda: any(n.startswith("Computer (normal) plays") for n in notices))  # played, in Python
    return runtime


def test_the_python_engine_never_compiles(monkeypatch):
    monkeypatch.setattr(runtime_module.subprocess, "run", _no_compiling)
    runtime = playing_the_computer(engine="python")
    runtime.stop()
    assert runtime.engine == "python"


def test_auto_switches_to_the_compiled_search_once_a_child_built_it(caplog):
    pytest.importorskip("numba", reason="the compiled search is the fast extra")
    caplog.set_level(logging.INFO, logger="pentago_board")
    runtime = playing_the_computer(engine="auto")
    try:  # the warm-up thread switches the engine, then logs it: wait for both
        assert wait_for(lambda: runtime.engine == "compiled" and "compiled search ready" in caplog.text,
                        timeout_s=120)
    finally:
        runtime.stop()


def test_a_build_that_fails_in_the_child_leaves_python_searching_and_says_why(monkeypatch, caplog):
    pytest.importorskip("numba", reason="the compiled search is the fast extra")

    def killed(*args, **kwargs):
        return subprocess.CompletedProcess(args, -6, "", "LLVM ERROR: Unable to allocate section memory!\n")

    monkeypatch.setattr(runtime_module.subprocess, "run", killed)
    caplog.set_level(logging.INFO, logger="pentago_board")
    runtime = playing_the_computer(engine="compiled")
    try:
        assert wait_for(lambda: "compiled search unavailable" in caplog.text, timeout_s=30)
    finally:
        runtime.stop()
    said = [r.fields["error"] for r in caplog.records if r.getMessage() == "compiled search unavailable, python searches"]
    assert runtime.engine == "python" and "Unable to allocate section memory" in said[0]


def _no_compiling(*args, **kwargs):
    raise AssertionError("no child process should compile for the python engine")
