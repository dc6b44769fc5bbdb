"""Robustness: every web route of the console, fuzzed at length.

Runs the fuzz of tests/robustness/test_fuzz_web.py (any method, path, body, Host, Origin and
token against a console on a real core and virtual board) with ``--examples`` inputs per test
instead of the suite's 250, fresh random ones each time, and prints how many requests ran and
their statuses. Any answer of 500 or more, or a refusal that is not JSON with a message, fails
the run with the request that did it.

    .venv/bin/python bench/robustness/fuzz_web.py [--examples 5000]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=5000, help="inputs per test (default 5000)")
    os.environ["PENTAGO_FUZZ_EXAMPLES"] = str(parser.parse_args().examples)  # read by the tests
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))  # the tests import tests.daemon.fakes
    return int(pytest.main(["-q", "-s", "-p", "no:cacheprovider", "tests/robustness/test_fuzz_web.py"]))


if __name__ == "__main__":
    sys.exit(main())
