"""The docs by audience: a short README that links the rest, and links that lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_the_readme_stays_a_front_page():
    """What it is, try it, play, install, links: the rest lives in docs/ (issue 24, item 5)."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= 8 * 1024
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/pentago-board sim" in readme
    assert "bash .ci/run" in readme


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc):
    targets = re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", doc.read_text())
    missing = [t for t in targets if not (doc.parent / t).exists()]
    assert missing == []


def _defines(path: Path, dotted: str) -> bool:
    """Whether ``path`` defines ``dotted``: a function, class or constant at its top, or
    ``Class.method``."""
    import ast

    body = ast.parse(path.read_text()).body
    for name in dotted.split("."):
        found = [node for node in body if getattr(node, "name", None) == name
                 or isinstance(node, ast.Assign | ast.AnnAssign) and name in {
                     getattr(t, "id", None) for t in (node.targets if isinstance(node, ast.Assign) else [node.target])}]
        if not found:
            return False
        body = getattr(found[0], "body", [])
    return True


def test_every_hop_of_the_code_flow_exists():
    """docs/CODE_FLOW.md names each hop as file:function; when a hop moves, the page must too."""
    text = (ROOT / "docs" / "CODE_FLOW.md").read_text()
    hops = set(re.findall(r"`((?:controller|firmware)/[\w/]+\.py):([\w.]+)`", text))
    assert len(hops) > 40
    missing = [f"{path}:{name}" for path, name in sorted(hops)
               if not (ROOT / path).exists() or not _defines(ROOT / path, name)]
    assert missing == []


BESIDES_THE_SOURCE = {"browser", "firmware", "robustness", "system", "data"}  # CONTRIBUTING.md says why


def test_the_tests_mirror_the_source():
    """tests/<package>/ tests controller/<package>/ (tests/daemon/web, controller/daemon/web) or
    its module (tests/profile, controller/profile.py), so a module's tests are found where its
    path says; the few others are named in CONTRIBUTING.md, and data folders hold data."""
    tests = ROOT / "tests"
    folders = [p for p in tests.rglob("*") if p.is_dir() and not {"node_modules", "__pycache__", "data"} & set(p.parts)
               and p.relative_to(tests).parts[0] not in BESIDES_THE_SOURCE]
    assert folders
    source = [ROOT / "controller" / p.relative_to(tests) for p in folders]
    strays = [str(p.relative_to(tests)) for p, s in zip(folders, source) if not (s.is_dir() or s.with_suffix(".py").is_file())]
    assert strays == []
