"""The firmware modules and their test tables inside a real MicroPython interpreter (the
WebAssembly port under Node). Its CLI exits 0 even after an exception, so these tests judge the
printed lines: every firmware module imported, every table test passed there, and the verdict.

CI needs Node 20 and ``npm ci --prefix tests/firmware/mpy`` before pytest.
"""

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "mpy"
FIRMWARE = HERE.parent.parent / "firmware"


def run_harness(firmware=FIRMWARE, tables=HERE):
    node = shutil.which("node")
    assert node, "Node.js 20 is needed to run the MicroPython harness"
    assert (HARNESS / "node_modules").is_dir(), "run: npm ci --prefix tests/firmware/mpy"
    done = subprocess.run([node, str(HARNESS / "run.mjs"), str(firmware), str(tables)],
                          capture_output=True, text=True, timeout=300)
    return done.stdout.splitlines()


def table_tests():
    names = set()
    for path in HERE.glob("test_fw_*.py"):
        tree = ast.parse(path.read_text())
        names |= {f"{path.stem}.{node.name}" for node in tree.body
                  if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}
    return names


@pytest.fixture(scope="module")
def lines():
    return run_harness()


def test_every_firmware_module_imports_under_micropython(lines):
    modules = {p.stem for p in FIRMWARE.glob("*.py") if p.stem != "__init__"}
    imported = {line.split()[2] for line in lines if line.startswith("IMPORT ok")}
    assert modules <= imported, [line for line in lines if "FAIL" in line]


def test_every_table_test_passes_under_micropython(lines):
    passed = {line.split()[1] for line in lines if line.startswith("PASS ")}
    assert passed == table_tests(), [line for line in lines if "FAIL" in line]


def test_verdict_line_counts_every_test(lines):
    assert lines[-1] == f"FIRMWARE-TESTS OK {len(table_tests())}", lines[-5:]


def test_a_failing_table_gives_a_failed_verdict(tmp_path):
    # The harness must be able to say no: a table with one broken test and one broken import.
    (tmp_path / "test_fw_broken.py").write_text(
        "def test_fine():\n    pass\n\ndef test_wrong():\n    assert 1 == 2, 'one is not two'\n")
    (tmp_path / "test_fw_unimportable.py").write_text("import no_such_module\n")
    lines = run_harness(tables=tmp_path)
    assert "PASS test_fw_broken.test_fine" in lines
    assert any(re.match(r"FAIL test_fw_broken.test_wrong .*one is not two", l) for l in lines)
    assert any(l.startswith("IMPORT FAIL test_fw_unimportable") for l in lines)
    assert lines[-1] == "FIRMWARE-TESTS FAILED 2 of 3"
