"""Robustness: every file a user hands the product, fuzzed, at length.

Runs the fuzz of tests/robustness/test_fuzz_inputs.py (config files, hardware profiles, tapes,
and the commands that read them: replay, profile, leds, inputs, doctor) with ``--scale`` times
as many inputs as the suite runs, fresh random ones each time, and prints per target how many
inputs ran, how many were refused with a message and how many loaded. Any input that makes a
loader raise something other than its own error, or a command end in a traceback, fails the run
with the input that did it.

    .venv/bin/python bench/robustness/fuzz_inputs.py [--scale 10]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = "tests/robustness/test_fuzz_inputs.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=10.0,
                        help="inputs per target, as a multiple of the suite's (default 10)")
    args = parser.parse_args()
    env = {**os.environ, "PENTAGO_FUZZ_SCALE": str(args.scale)}
    command = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", TESTS]
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
