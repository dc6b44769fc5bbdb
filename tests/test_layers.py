"""Every layer of DESIGN.md imports only the layers below it (statically: every import
statement, in functions too), and the layers with extra promises keep them: drivers know
nothing of games, the AI only the rules, the flow never the registry, and no module outside a
game's home (``games/<name>/``), the registry, the rules, the AI and the `game` command names a
game, nor does a page's script (the board's page, the classroom's)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "controller"

# Bottom first. A unit is a top-level module or package of controller/.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("errors", "checks", "colours", "events", "tomlfile", "files", "repeats"),  # the project's vocabulary
    # (files: reading a file named from outside; checks: the checking kit every reader of input
    # shares; repeats: a message logged once, then counted)
    ("profile", "ai", "journal"),  # the hardware profile (geometry from rules); the opponent; the journal
    ("board", "lights", "drivers"),  # physical truth | scenes -> frames | hardware
    ("flow", "games"),  # the flows, scenes and menu; the registry of games over them
    ("core", "tape"),  # events in, effects out; tapes of physical input
    ("daemon", "classroom", "commands", "cli", "__main__", "__init__"),  # the shell (classroom: the teacher's console over MQTT)
)
RANK = {unit: n for n, units in enumerate(LAYERS) for unit in units}

# Imports allowed besides "only lower layers": within a layer, and the few layers that promise more.
ALSO: dict[str, set[str]] = {"errors": {"checks"}, "checks": {"files", "tomlfile"},  # the kit's error and reader
                             "games": {"flow"}, "daemon": {"commands", "cli"}, "classroom": {"daemon"},
                             "commands": {"daemon", "classroom", "cli"},
                             "cli": {"commands", "daemon"}, "__main__": {"cli"}, "__init__": set()}
NEVER: dict[str, set[str]] = {
    "drivers": {"rules", "board", "lights", "flow", "games", "core", "ai"},  # hardware only
    "ai": set(RANK) - {"rules", "ai"},
    "flow": {"games"},  # the registry composes the flows, never the other way round
    "lights": {"board"},
    "board": {"lights", "drivers"},
}
GAME_CLASSES = {"ClassicGame", "MultiplayerGame", "TeamGame", "TripleGame", "TripleOptions", "PuzzleGame",
                "PuzzleOptions"}
MAY_NAME_GAMES = {"rules", "ai"}
REGISTRY = "controller/games/__init__.py"  # one line per game
# The `game` command is the rules' own referee on the command line (it takes their variants by name),
# `pictures` shows Picture-Puzzle's library.
GAME_COMMAND = {"controller/commands/game.py", "controller/commands/game_puzzle.py", "controller/commands/pictures.py"}


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path: Path, root: Path = ROOT, in_functions: bool = True) -> list[tuple[str, set[str]]]:
    """(module imported, names taken from it) for every import in ``path`` (a file under
    ``root``), absolute; without ``in_functions``, only those that run as the module loads or
    is type-checked (``if TYPE_CHECKING:`` blocks included)."""
    rel = path.relative_to(root).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    found = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree) if in_functions else loaded(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.append((target, {a.name for a in node.names}))
        elif isinstance(node, ast.Import):
            found += [(a.name, set()) for a in node.names]
    return found


def loaded(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes under ``node`` outside functions' bodies: what runs as a module loads."""
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield child
            yield from loaded(child)


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


def module_graph(package: Path, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of ``package`` (a folder under ``root``) -> the modules of it that it imports
    as it loads or is type-checked. An import inside a function is left out: it runs when the
    function is called, once both modules have loaded."""
    names = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
             for p in package.rglob("*.py") if "__pycache__" not in p.parts}
    graph = {}
    for name, path in names.items():
        found = {m for module, taken in imports(path, root, in_functions=False)
                 for m in (module, *(f"{module}.{n}" for n in taken)) if m in names}
        graph[name] = found - {name}
    return graph


def import_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of ``graph``: the modules along it, the first again at the end ([]: none)."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        for target in sorted(graph.get(module, ())):
            if found := visit(target, path + [module]):
                return found
        done.add(module)
        return []
    return next((found for module in sorted(graph) if (found := visit(module, []))), [])


def test_the_rules_import_one_another_in_no_cycle() -> None:
    """Not even for the type checker (``if TYPE_CHECKING:``): a cycle there is a cycle of ideas,
    which a module moved or a Protocol breaks."""
    cycle = import_cycle(module_graph(PACKAGE / "rules"))
    assert not cycle, "the rules import in a cycle: " + " -> ".join(cycle)


def test_the_check_for_import_cycles_sees_a_type_checkers_own(tmp_path: Path) -> None:
    package = tmp_path / "controller" / "rules"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from .turns import Game\n")
    (package / "record.py").write_text("from .turns import PlayOptions\n")
    (package / "turns.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                      "    from .record import Record\n")
    (package / "later.py").write_text("def play():\n    from . import record\n")  # at a call: no cycle
    assert import_cycle(module_graph(package, tmp_path)) == ["controller.rules.turns", "controller.rules.record",
                                                            "controller.rules.turns"]
    (package / "turns.py").write_text("")
    assert import_cycle(module_graph(package, tmp_path)) == []


def game_names() -> tuple[str, ...]:
    from controller.games import NAMES

    return NAMES


def names_of_games(path: Path, root: Path = ROOT) -> list[str]:
    """How ``path`` names a game: an import of a game's home (``controller.games.<name>``) or of
    its own rules or AI modules (``rules/triple/``, ``ai/puzzle.py``, ...), a game's rules
    class, or a game's name as a string in the code (docstrings and dict keys, the published
    JSON's names, are words, not a dispatch)."""
    games = game_names()
    found = []
    for module, names in imports(path, root):
        parts = module.split(".")
        if len(parts) > 2 and parts[0] == "controller" and (
                (parts[1] == "games" and parts[2] in games) or
                (parts[1] in ("rules", "ai") and parts[2] in games)):
            found.append(module)
        if module.startswith("controller"):
            found += sorted(names & GAME_CLASSES)
    found += [f"{text!r} (line {line})" for text, line in code_strings(path) if text in games]
    return found


def in_a_home(path: Path) -> bool:
    rel = path.relative_to(PACKAGE).parts
    return rel[0] in MAY_NAME_GAMES or (rel[0] == "games" and len(rel) > 2 and rel[1] in game_names())


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_a_games_home_names_a_game(path: Path) -> None:
    if in_a_home(path) or str(path.relative_to(ROOT)) in {REGISTRY, *GAME_COMMAND}:
        return
    named = names_of_games(path)
    assert not named, f"{path.relative_to(ROOT)} names {named}: ask the registry (controller.games) instead"


def code_strings(path: Path) -> list[tuple[str, int]]:
    """The strings of ``path``'s code with their lines: not its docstrings, nor dict keys (the
    published JSON's names are words, not a dispatch)."""
    tree = ast.parse(path.read_text())
    words = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    words |= {id(key) for node in ast.walk(tree) if isinstance(node, ast.Dict) for key in node.keys if key is not None}
    return [(node.value, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in words]


@pytest.mark.parametrize("path", sorted((PACKAGE / "core").glob("*.py")), ids=lambda p: p.name)
def test_the_core_spells_no_flow_state(path: Path) -> None:
    """The core compares the flows' states through their constants (controller.flow, a game's
    flow), never by the state's spelling."""
    from controller.games import GAMES

    states = {state for spec in GAMES for state in spec.flow.machine_states}
    spelled = [f"{text!r} (line {line})" for text, line in code_strings(path) if text in states]
    assert not spelled, f"{path.name} spells the flow states {spelled}: use the flow's constants"


def flow_attributes_set(path: Path) -> list[str]:
    """The attributes of a flow (``flow.x``, ``self.flow.x``) that ``path`` sets, with their lines."""
    def is_flow(node: ast.expr) -> bool:
        return (isinstance(node, ast.Name) and node.id == "flow") or (isinstance(node, ast.Attribute) and node.attr == "flow")

    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else [])
        found += [f"{target.attr} (line {node.lineno})" for target in targets
                  if isinstance(target, ast.Attribute) and is_flow(target.value)]
    return found


@pytest.mark.parametrize("path", sorted((PACKAGE / "core").glob("*.py")), ids=lambda p: p.name)
def test_the_core_sets_no_attribute_of_a_flow(path: Path) -> None:
    """The core tells a flow what it must know through the flow's methods (the board's level:
    ``use_board_level``), never by setting its attributes from several places."""
    assert not flow_attributes_set(path), f"{path.name} sets {flow_attributes_set(path)}: call a method of the flow"


def test_the_check_for_flow_attributes_sees_them(tmp_path: Path) -> None:
    fake = tmp_path / "core.py"
    fake.write_text("self.level = self.flow.board_level = 1\nflow.board_level = 2\nself.flow.repairs += 1\n"
                    "self.flow = flow\n")
    assert flow_attributes_set(fake) == ["board_level (line 1)", "board_level (line 2)", "repairs (line 3)"]


def test_the_check_for_game_names_sees_each_kind(tmp_path: Path) -> None:
    """The check above finds each way of naming a game (so it cannot pass by seeing nothing)."""
    assert names_of_games(PACKAGE / "core" / "core.py") == []
    fake = tmp_path / "controller" / "core" / "names_a_game.py"
    fake.parent.mkdir(parents=True)
    fake.write_text('"""Triple is named here in words only: "triple"."""\n'
                    "from ..games.triple import SPEC\nfrom ..rules import TripleGame\n"
                    "from ..rules.puzzle import Phase\nGAME = \"puzzle\"\nKEYS = {\"classic\": 1}\n")
    assert names_of_games(fake, tmp_path) == ["controller.games.triple", "TripleGame", "controller.rules.puzzle",
                                              "'puzzle' (line 5)"]


SCRIPTS = sorted(PACKAGE.glob("**/static/*.js"))  # the board's page and the classroom console's
QUOTED = re.compile(r"""(["'`])([^"'`\n]*)\1""")


def names_of_games_in_script(path: Path) -> list[str]:
    """A game's name as a string in a page's script (``game === "puzzle"``): the page asks the
    state or the games' specs (their options, /api/games) instead."""
    games = game_names()
    return [f"{m.group(2)!r} (line {path.read_text()[:m.start()].count(chr(10)) + 1})"
            for m in QUOTED.finditer(path.read_text()) if m.group(2) in games]


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_page_script_names_a_game(path: Path) -> None:
    named = names_of_games_in_script(path)
    assert not named, f"{path.relative_to(ROOT)} names {named}: ask the state or the games' options instead"


def test_the_check_for_game_names_in_scripts_sees_them(tmp_path: Path) -> None:
    assert len(SCRIPTS) >= 3
    fake = tmp_path / "page.js"
    fake.write_text('const fields = $("puzzle-fields");\nif (game === "puzzle" || name == \'triple\') go(`classic`);\n')
    assert names_of_games_in_script(fake) == ["'puzzle' (line 2)", "'triple' (line 2)", "'classic' (line 2)"]


# The error hierarchy's base class lives in rules/errors.py (rules import nothing of ours), so
# loading controller.errors loads the rules package; besides the vocabulary every layer shares
# (errors, events, colour names, the log's repeats) the drivers must load nothing.
LOADED = """
import sys, pkgutil, importlib
import controller.errors, controller.events, controller.colours, controller.repeats
before = set(sys.modules)
import controller.drivers
for info in pkgutil.walk_packages(controller.drivers.__path__, 'controller.drivers.'):
    if info.name.split('.')[-1] not in ('neopixel', 'serial_link', 'inputs'):  # hardware libraries
        importlib.import_module(info.name)
print(sorted({m.split('.')[1] for m in set(sys.modules) - before if m.startswith('controller.')}))
"""


def test_the_drivers_load_nothing_of_games() -> None:
    done = subprocess.run([sys.executable, "-c", LOADED], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['drivers']"
