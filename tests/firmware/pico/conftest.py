"""Fixtures for the emulated-Pico tests: skipped with one line saying what is missing, except
in CI (``CI`` set), which has the UF2 and must run them."""

import os

import pytest

from pico import Pico, missing


def need_pico():
    reason = missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the emulated-Pico tests: {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def booted6():
    """One 6x6 board booted to its first hello (batch mode), shared by a module's tests."""
    need_pico()
    with Pico(6) as pico:
        pico.wait_for("hello", limit_ms=3000)
        yield pico
