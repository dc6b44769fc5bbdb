"""constraints.txt pins every dependency that pyproject.toml declares, to a version its
specifier allows, and both the installer and CI install from it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")


def pins() -> dict[str, Version]:
    found: dict[str, Version] = {}
    for number, line in enumerate((ROOT / "constraints.txt").read_text().splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"constraints.txt line {number} is not name==version: {line!r}"
        name = canonicalize_name(match.group(1))
        assert name not in found, f"constraints.txt pins {name} twice"
        found[name] = Version(match.group(2))
    return found


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = [project["dependencies"], *project["optional-dependencies"].values()]
    return [Requirement(text) for group in groups for text in group]


def test_every_declared_dependency_is_pinned_to_a_version_it_allows():
    pinned = pins()
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), \
            f"constraints.txt pins {name}=={pinned[name]}, outside pyproject's {requirement}"


def test_the_installer_and_ci_install_from_the_constraints():
    installer = re.sub(r"\\\n\s*", " ", (ROOT / "systemd/install.sh").read_text())  # join continued lines
    assert re.search(r'pip install [^\n]*--constraint "\$CHECKOUT/constraints.txt"', installer)
    ci = (ROOT / ".ci/run").read_text()
    assert re.search(r"pip install [^\n]*--constraint constraints.txt -e '\.\[test,mqtt,fast\]'", ci)
