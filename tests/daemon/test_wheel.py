"""The Pi installer makes a non-editable install: the wheel must carry the page's static files
and Picture-Puzzle's library of pictures, and building it must warn of nothing (issue 22, item
21: setuptools warned four times that the folders of data files were not packages)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_contains_the_web_page(tmp_path):
    # An isolated build, as pip does on the Pi (it fetches the build backend from PyPI).
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps",
                            "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True, text=True, timeout=300)
    said = build.stdout + build.stderr
    assert "Warning" not in said and "would be ignored" not in said, said[-3000:]
    (wheel,) = tmp_path.glob("pentago_board-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("index.html", "app.js", "board.js", "style.css"):
        assert f"controller/daemon/web/static/{name}" in names
    assert "controller/daemon/web/app.py" in names
    for board in ("6x6", "9x9"):
        assert {f"controller/rules/puzzle/data/pictures/{board}/{name}.txt" for name in ("order", "red-cross", "love")} <= names
    assert "controller/rules/triple/data/triple-deck.txt" in names
    # The rules find their data beside their package: load the deck and a picture from the wheel alone.
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(wheel).extractall(unpacked)
    code = ("import controller; from controller.rules import load_deck;"
            "from controller.rules.puzzle.pictures import library_picture;"
            "print(controller.__file__, len(load_deck()), library_picture('love', 9).title)")
    shown = subprocess.run([sys.executable, "-c", code], cwd=unpacked, env={"PYTHONPATH": str(unpacked)},
                           check=True, capture_output=True, text=True, timeout=60).stdout.split()
    assert shown[0].startswith(str(unpacked)) and shown[1:] == ["20", "Love"]
