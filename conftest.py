"""Doctests are collected from every module of controller/ (and the firmware's wire codec, which
the host shares): pyproject.toml's testpaths with --doctest-modules.

A module that imports a library this machine may lack (lgpio exists on a Raspberry Pi only;
numba and aiomqtt come with the fast and mqtt extras) is reported as skipped, naming the
library, instead of failing to collect. Any other import error still fails.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
OPTIONAL = {
    "lgpio": "lgpio, the Raspberry Pi's GPIO library (the pi extra, on a Pi only)",
    "numba": "numba (the fast extra)",
    "aiomqtt": "aiomqtt (the mqtt extra)",
}


class NeedsLibrary(pytest.File):
    """Stands in for a module's doctests when the module cannot be imported here."""

    reason = ""

    def collect(self):  # type: ignore[override]
        pytest.skip(self.reason)


def missing_library(path: Path) -> str | None:
    """The optional library that ``path``'s module (under controller/) cannot import, or None."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] in OPTIONAL:
            return error.name.split(".")[0]
        raise
    return None


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    collectors = yield
    if not collectors or not file_path.is_relative_to(ROOT / "controller"):
        return collectors  # not collected (__main__.py, data files) or not ours to mend
    library = missing_library(file_path)
    if library is None:
        return collectors
    stand_in = NeedsLibrary.from_parent(parent, path=file_path)
    stand_in.reason = f"{file_path.relative_to(ROOT)} needs {OPTIONAL[library]}, not installed here"
    return [stand_in]
