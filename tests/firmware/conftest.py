"""Firmware modules import each other by flat name (``import scanner``), as on the Pico; put
firmware/ (and this folder, for the portable test tables) on sys.path so the host does the same."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parent.parent / "firmware"

for folder in (FIRMWARE, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
