"""No unused imports or names, no undefined names, no syntax errors anywhere in the tree."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pyflakes_checks_pass_on_the_whole_tree():
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "F,E9", "--output-format", "concise",
         "controller", "firmware", "tests", "bench", "hardware"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
