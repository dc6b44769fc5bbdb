"""The docstring examples run with the suite: pytest collects them from every module of
controller/ (pyproject.toml's testpaths with --doctest-modules), so no test calls doctest.testmod
by hand. A module that needs a library this machine lacks is skipped by the root conftest.py."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import controller.ai

ROOT = Path(__file__).resolve().parents[1]

# Modules whose docstrings promise examples (their public API shows how it is called).
WITH_EXAMPLES = [
    *(f"controller.ai.{m.name}" for m in pkgutil.iter_modules(controller.ai.__path__) if m.name != "kernels"),
    "controller.tape", "controller.journal", "controller.repeats", "controller.core",
    "controller.lights.render", "controller.lights.scenes",
    "controller.drivers.pixels", "controller.drivers.virtual", "controller.drivers.factory",
    "controller.drivers.gpio.debounce", "controller.drivers.grid", "controller.commands.inputs",
    "controller.games", "controller.games.spec", "controller.games.triple", "controller.colours",
    "controller.flow.menu", "controller.flow.records",
]


def test_pytest_collects_the_doctests_of_every_module_of_the_package():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "controller" in options["testpaths"] and "--doctest-modules" in options["addopts"].split()


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_module_shows_an_example(name):
    tests = doctest.DocTestFinder().find(importlib.import_module(name))
    assert any(test.examples for test in tests), f"{name} has no example in its docstrings"


def test_a_module_whose_optional_library_is_missing_is_skipped_with_the_reason():
    """As on a machine without the mqtt and fast extras (pip install -e . alone)."""
    run = ("import sys; sys.modules['aiomqtt'] = sys.modules['numba'] = None; import pytest; "
           "sys.exit(pytest.main(['-q', '-rs', '-p', 'no:cacheprovider', 'controller/daemon/mqtt/bridge.py', "
           "'controller/ai/kernels.py', 'controller/daemon/mqtt/topics.py']))")
    # Such a machine is no .ci/run, where a skip is a failure: the sandbox runs without PENTAGO_REAL_PARTS.
    env = {k: v for k, v in os.environ.items() if k != "PENTAGO_REAL_PARTS"}
    done = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "controller/daemon/mqtt/bridge.py needs aiomqtt (the mqtt extra), not installed here" in done.stdout
    assert "controller/ai/kernels.py needs numba (the fast extra), not installed here" in done.stdout
    assert " passed, 2 skipped" in done.stdout  # topics.py's examples still ran
