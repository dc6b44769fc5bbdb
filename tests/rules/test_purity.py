"""`rules` is pure: standard library only, strictly typed."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {'gpiozero', 'serial', 'transitions', 'aiohttp', 'neopixel'}:
            raise ImportError('rules must not import ' + name)
sys.meta_path.insert(0, Blocker())
import controller.rules, controller.rules.record
ours = sorted(m for m in sys.modules if m.startswith('controller') and not m.startswith('controller.rules'))
print(ours)
"""


def test_rules_import_with_hardware_and_framework_libraries_blocked():
    done = subprocess.run([sys.executable, "-c", BLOCKER], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['controller']"  # nothing of ours but the package itself


def test_rules_pass_a_strict_type_check():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "controller/rules"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
