"""The hand-written package list in pyproject.toml must name every package in the tree,
or a non-editable install (the one the Pi installer makes) would miss modules."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tree_packages() -> set[str]:
    """Every package: the folders of modules, and the folders of data files the package data
    names (setuptools wants those listed too, or it warns that they would be ignored)."""
    found = {"pentago_firmware"}
    for init in (ROOT / "controller").rglob("__init__.py"):
        found.add(".".join(init.parent.relative_to(ROOT).parts))
    return found | set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"])


def test_pyproject_lists_every_package():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    assert listed == tree_packages()
    for package in listed - {"pentago_firmware"}:
        assert (ROOT / package.replace(".", "/")).is_dir(), package


def test_controller_imports_without_hardware_libraries():
    import subprocess
    import sys

    # Importing the package and the CLI must not pull in any hardware or serial library.
    code = (
        "import sys, controller, controller.cli, controller.rules;"
        "bad = [m for m in ('serial', 'lgpio', 'neopixel', 'neopixel_spi', 'board') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
