"""Debian's mirror, as this machine's apt is configured: never written into the repo.

Reads the deb822 ``*.sources`` files and the one-line ``sources.list`` format, the same files
apt reads, and gives the first ``deb`` URI serving the suite (Debian 12: bookworm).
Run it to see what the benches will use: ``python3 bench/pi_vm/mirror.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

APT = Path("/etc/apt")
SUITE = "bookworm"


def debian_mirror(suite: str = SUITE, apt: Path = APT) -> str:
    """The URI of the first ``deb`` source for ``suite`` (``main`` component); ValueError
    naming the files read when there is none."""
    files = [apt / "sources.list", *sorted((apt / "sources.list.d").glob("*.list")),
             *sorted((apt / "sources.list.d").glob("*.sources"))]
    for path in files:
        if path.is_file():
            read = _deb822 if path.suffix == ".sources" else _one_line
            for uri, suites, components in read(path.read_text()):
                if suite in suites and "main" in components:
                    return uri.rstrip("/")
    raise ValueError(f"no 'deb' source for {suite} main in {', '.join(map(str, files))}")


def _one_line(text: str):
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words[:1] != ["deb"]:
            continue
        words = words[1:]
        if words and words[0].startswith("["):  # [arch=amd64 signed-by=...]
            while words and not words[0].endswith("]"):
                words.pop(0)
            words = words[1:]
        if len(words) >= 3:
            yield words[0], words[1:2], words[2:]


def _deb822(text: str):
    for stanza in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if line and not line.startswith(("#", " ", "\t")) and ":" in line:
                key, value = line.split(":", 1)
                fields[key.strip().lower()] = value.strip()
        if "deb" in fields.get("types", "").split() and fields.get("enabled", "yes") != "no":
            for uri in fields.get("uris", "").split():
                yield uri, fields.get("suites", "").split(), fields.get("components", "").split()


if __name__ == "__main__":
    try:
        print(debian_mirror())
    except ValueError as error:
        sys.exit(f"mirror: {error}")
