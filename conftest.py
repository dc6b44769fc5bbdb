"""Doctests are collected from every module of controller/ (and the firmware's wire codec, which
the host shares): pyproject.toml's testpaths with --doctest-modules.

Real parts must run where the suite is run in full: with ``PENTAGO_REAL_PARTS=required`` (as
``.ci/run`` sets it) a test or module that skips is reported as failed, naming the reason, unless
it is marked ``hardware`` (it needs a real Raspberry Pi or a KVM that boots Debian's kernel,
which no CI machine here has). Run by hand without it, pytest skips and says why.

A module that imports a library of an extra this machine may lack (numba and aiomqtt come with
the fast and mqtt extras) is reported as skipped, naming the library, instead of failing to
collect; under ``PENTAGO_REAL_PARTS=required`` that skip fails too. Any other import error fails.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
pytest_plugins = ["pytester"]  # tests/test_real_parts.py runs this file in a sandbox
OPTIONAL = {
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


REAL_PARTS = os.environ.get("PENTAGO_REAL_PARTS") == "required"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "hardware(why): may skip where the suite runs in full: needs a real Pi "
                                       "or hardware KVM")


def _must_not_skip(report: pytest.CollectReport | pytest.TestReport, hardware: bool) -> None:
    """Under PENTAGO_REAL_PARTS=required, a skip that is not for missing hardware fails."""
    if REAL_PARTS and report.skipped and not hardware:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        report.outcome = "failed"
        report.longrepr = f"must run under .ci/run (PENTAGO_REAL_PARTS=required), but skipped: {reason}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    report: pytest.TestReport = yield
    _must_not_skip(report, item.get_closest_marker("hardware") is not None)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport:
    report: pytest.CollectReport = yield
    _must_not_skip(report, hardware=False)  # a module skipped whole: an extra left out
    return report
