"""Every layer of DESIGN.md imports only the layers below it (statically: every import
statement, in functions too), and the layers with extra promises keep them: drivers know
nothing of games, the AI only the rules, the flow never the registry, and only the registry,
the rules, the AI and the `game` command name a game's rules class."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "controller"

# Bottom first. A unit is a top-level module or package of controller/.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("errors", "colours", "events", "tomlfile", "files", "repeats"),  # the project's vocabulary
    # (files: reading a file named from outside; repeats: a message logged once, then counted)
    ("profile", "ai", "journal"),  # the hardware profile (geometry from rules); the opponent; the journal
    ("board", "lights", "drivers"),  # physical truth | scenes -> frames | hardware
    ("flow", "games"),  # the flows, scenes and menu; the registry of games over them
    ("core", "tape"),  # events in, effects out; tapes of physical input
    ("daemon", "classroom", "commands", "cli", "__main__", "__init__"),  # the shell (classroom: the teacher's console over MQTT)
)
RANK = {unit: n for n, units in enumerate(LAYERS) for unit in units}

# Imports allowed besides "only lower layers": within a layer, and the few layers that promise more.
ALSO: dict[str, set[str]] = {"games": {"flow"}, "daemon": {"commands", "cli"}, "classroom": {"daemon"},
                             "commands": {"daemon", "classroom", "cli"},
                             "cli": {"commands", "daemon"}, "__main__": {"cli"}, "__init__": set()}
NEVER: dict[str, set[str]] = {
    "drivers": {"rules", "board", "lights", "flow", "games", "core", "ai"},  # hardware only
    "ai": set(RANK) - {"rules", "ai"},
    "flow": {"games"},  # the registry composes the flows, never the other way round
    "lights": {"board"},
    "board": {"lights", "drivers"},
}
GAME_CLASSES = {"ClassicGame", "MultiplayerGame", "TeamGame", "new_game"}
MAY_NAME_GAMES = {"rules", "ai", "games"}
GAME_COMMAND = "controller/commands/game.py"  # the rules' own referee on the command line


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path: Path) -> list[tuple[str, set[str]]]:
    """(module imported, names taken from it) for every import in ``path``, absolute."""
    rel = path.relative_to(ROOT).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.append((target, {a.name for a in node.names}))
        elif isinstance(node, ast.Import):
            found += [(a.name, set()) for a in node.names]
    return found


def targets(path: Path) -> set[str]:
    """The units of controller that ``path`` imports."""
    out = set()
    for module, names in imports(path):
        if module == "controller":
            out |= {n for n in names if n in RANK}
        elif module.startswith("controller."):
            out.add(unit_of(module))
    return out


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_unit_has_a_layer() -> None:
    units = {unit_of(".".join(p.relative_to(ROOT).with_suffix("").parts)) for p in SOURCES}
    assert units <= set(RANK), f"place these in LAYERS: {sorted(units - set(RANK))}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down_only(path: Path) -> None:
    unit = unit_of(".".join(path.relative_to(ROOT).with_suffix("").parts))
    wrong = sorted(t for t in targets(path) - {unit}
                   if (RANK[t] >= RANK[unit] and t not in ALSO.get(unit, set())) or t in NEVER.get(unit, set()))
    assert not wrong, f"{unit} must not import {wrong} (see DESIGN.md, Layers)"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_registry_names_the_games(path: Path) -> None:
    unit = unit_of(".".join(path.relative_to(ROOT).with_suffix("").parts))
    if unit in MAY_NAME_GAMES or str(path.relative_to(ROOT)) == GAME_COMMAND:
        return
    named = sorted(n for module, names in imports(path) if module.startswith("controller") for n in names & GAME_CLASSES)
    assert not named, f"{path.name} names {named}: ask the registry (controller.games) instead"


# The error hierarchy's base class lives in rules/errors.py (rules import nothing of ours), so
# loading controller.errors loads the rules package; besides the vocabulary every layer shares
# (errors, events, colour names, the log's repeats) the drivers must load nothing.
LOADED = """
import sys, pkgutil, importlib
import controller.errors, controller.events, controller.colours, controller.repeats
before = set(sys.modules)
import controller.drivers
for info in pkgutil.walk_packages(controller.drivers.__path__, 'controller.drivers.'):
    if info.name.split('.')[-1] not in ('neopixel', 'serial_link', 'inputs', 'lgpio_matrix'):  # hardware libraries
        importlib.import_module(info.name)
print(sorted({m.split('.')[1] for m in set(sys.modules) - before if m.startswith('controller.')}))
"""


def test_the_drivers_load_nothing_of_games() -> None:
    done = subprocess.run([sys.executable, "-c", LOADED], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['drivers']"
