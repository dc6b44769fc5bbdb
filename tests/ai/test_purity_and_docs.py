"""The opponent is pure like the rules (standard library and `controller.rules` only; the
compiled search's kernels load numba only when a compiled search runs); its docstring examples
run."""

import pkgutil
import subprocess
import sys
from pathlib import Path


import controller.ai

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {'gpiozero', 'serial', 'transitions', 'aiohttp', 'neopixel', 'numpy',
                                  'numba', 'threading', 'socket', 'time'}:
            raise ImportError('the opponent must not import ' + name)
sys.meta_path.insert(0, Blocker())
import controller.ai
ours = sorted({m.split('.')[1] for m in sys.modules if m.startswith('controller.')})
print(ours)
"""

MODULES = sorted(m.name for m in pkgutil.iter_modules(controller.ai.__path__))


def test_imports_nothing_but_the_rules_and_the_standard_library():
    done = subprocess.run([sys.executable, "-c", BLOCKER], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['ai', 'rules']"


def test_passes_a_strict_type_check():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "controller/ai"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
