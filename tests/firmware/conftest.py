"""Firmware modules import each other by flat name (``import scanner``), as on the Pico; put
firmware/ (and this folder, for the portable test tables) on sys.path so the host does the same.
The ``machine`` stand-in in shim/ goes last on the path: only hal.py and its tests look for it,
and nothing real is ever shadowed."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parent.parent / "firmware"

for folder in (FIRMWARE, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
if str(HERE / "shim") not in sys.path:
    sys.path.append(str(HERE / "shim"))

# Not test modules: the stand-in would otherwise be imported as `machine` by --doctest-modules
# for the whole session, and the harness runner is MicroPython code for the Node harness.
collect_ignore = ["shim", "mpy"]
