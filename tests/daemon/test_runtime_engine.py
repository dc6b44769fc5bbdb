"""The runtime's search engine: Python until the compiled search is proven to build in a child
process, then compiled; a build that fails (or a hardened service forbidding a JIT) leaves Python
searching, logged, and the computer still plays."""

from __future__ import annotations

import logging
import subprocess

import pytest

from controller.daemon import runtime as runtime_module

from .test_runtime import make, wait_for


def test_python_and_an_unset_engine_never_compile(monkeypatch):
    monkeypatch.setattr(runtime_module.subprocess, "run", _no_compiling)
    for engine in ("python", None):
        runtime, _, _ = make(**({"engine": engine} if engine else {}))
        runtime.start()
        runtime.stop()
        assert runtime.engine == "python"


def test_auto_switches_to_the_compiled_search_once_a_child_built_it(caplog):
    pytest.importorskip("numba", reason="the compiled search is the fast extra")
    caplog.set_level(logging.INFO, logger="pentago_board")
    runtime, _, _ = make(engine="auto")
    assert runtime.engine == "python"  # until the build is proven
    runtime.start()
    try:
        assert wait_for(lambda: runtime.engine == "compiled", timeout_s=120)
    finally:
        runtime.stop()
    assert "compiled search ready" in caplog.text


def test_a_build_that_fails_in_the_child_leaves_python_searching_and_says_why(monkeypatch, caplog):
    pytest.importorskip("numba", reason="the compiled search is the fast extra")

    def killed(*args, **kwargs):
        return subprocess.CompletedProcess(args, -6, "", "LLVM ERROR: Unable to allocate section memory!\n")

    monkeypatch.setattr(runtime_module.subprocess, "run", killed)
    caplog.set_level(logging.INFO, logger="pentago_board")
    runtime, _, _ = make(engine="compiled")
    runtime.start()
    try:
        assert wait_for(lambda: "compiled search unavailable" in caplog.text, timeout_s=30)
    finally:
        runtime.stop()
    said = [r.fields["error"] for r in caplog.records if r.getMessage() == "compiled search unavailable, python searches"]
    assert runtime.engine == "python" and "Unable to allocate section memory" in said[0]


def _no_compiling(*args, **kwargs):
    raise AssertionError("no child process should compile for the python engine")
