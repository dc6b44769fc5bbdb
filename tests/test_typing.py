"""The middle layers keep the game contract typed: `mypy --strict` passes on the flows, the
games, the core, the board and the lights, and on the hardware profile and the checking kit
that read outside input (the rules and the AI have tests of their own).

Modules they import from elsewhere are read for their types but not reported here
(``--follow-imports=silent``): each layer answers for its own code."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("controller/flow", "controller/games", "controller/core", "controller/board", "controller/lights",
           "controller/profile", "controller/checks.py")


def test_mypy_strict_passes_on_the_middle_layers_and_the_profile() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent", *CHECKED],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
