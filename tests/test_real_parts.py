"""Under .ci/run (PENTAGO_REAL_PARTS=required) a real part that cannot start fails the run instead
of skipping (issue 29); only what needs hardware no CI machine has (marked ``hardware``) may skip.
The project's own conftest.py runs in a pytester sandbox."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = '''
import pytest

def test_a_part_that_cannot_start():
    pytest.skip("rp2040js is not installed")

@pytest.mark.skipif(True, reason="a read-only bind mount needs root")
def test_a_part_that_needs_root():
    pass

@pytest.mark.hardware("a real Pi")
def test_a_part_on_a_pi_only():
    pytest.skip("needs a Raspberry Pi's SPI for the LEDs")
'''


@pytest.fixture
def sandbox(pytester):
    pytester.makeconftest((ROOT / "conftest.py").read_text())
    pytester.makepyfile(test_parts=TESTS, test_module_skip='import pytest\npytest.skip("no broker", '
                        'allow_module_level=True)\n')
    return pytester


def test_every_skip_but_the_hardware_one_fails_under_required(sandbox, monkeypatch):
    monkeypatch.setenv("PENTAGO_REAL_PARTS", "required")
    result = sandbox.runpytest_subprocess("-ra", "--continue-on-collection-errors")
    result.assert_outcomes(failed=1, errors=2, skipped=1)  # a skip at setup or collection is an error
    for reason in ("rp2040js is not installed", "a read-only bind mount needs root", "no broker"):
        result.stdout.fnmatch_lines([f"must run under .ci/run (PENTAGO_REAL_PARTS=required), but skipped: {reason}"])
    result.stdout.fnmatch_lines(["SKIPPED*needs a Raspberry Pi's SPI for the LEDs"])


def test_run_by_hand_every_part_that_cannot_start_skips_saying_why(sandbox, monkeypatch):
    monkeypatch.delenv("PENTAGO_REAL_PARTS", raising=False)
    result = sandbox.runpytest_subprocess("-ra")
    result.assert_outcomes(skipped=4)
    result.stdout.fnmatch_lines(["SKIPPED*rp2040js is not installed"])
