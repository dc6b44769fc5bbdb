"""The middle layers keep the game contract typed: `mypy --strict` passes on the flows, the
games, the core, the board and the lights (the rules and the AI have tests of their own).

Modules they import from elsewhere are read for their types but not reported here
(``--follow-imports=silent``): each layer answers for its own code."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("controller/flow", "controller/games", "controller/core", "controller/board", "controller/lights")


def test_mypy_strict_passes_on_the_flows_games_core_board_and_lights() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent", *CHECKED],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
