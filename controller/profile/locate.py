"""Where profiles are found: a shipped name in the profile folder, or a path.

The shipped profiles live in ``hardware/profiles/*.toml`` of the git checkout. They are found,
in this order: in ``$PENTAGO_BOARD_PROFILES``; next to the package when it runs from the checkout
(``pip install -e``, tests); in the checkout a non-editable install was made from (pip records it
in the installed metadata, PEP 610), which is how the Pi installer in systemd/ installs. Any other
profile is loaded by its path.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import urllib.parse
import urllib.request
from pathlib import Path

from ..errors import ProfileError, shown

PROFILES_ENV = "PENTAGO_BOARD_PROFILES"
CHECKOUT = Path(__file__).resolve().parents[2]  # the checkout, when the package runs from one
IN_CHECKOUT = Path("hardware") / "profiles"


def installed_from(direct_url: str | None) -> Path | None:
    """The local directory a package was pip-installed from, given its ``direct_url.json``.

    >>> installed_from('{"url": "file:///home/pi/pentago-board", "dir_info": {}}')
    PosixPath('/home/pi/pentago-board')
    >>> installed_from(None) is None, installed_from('{"url": "https://x/y.whl"}') is None
    (True, True)
    """
    try:
        url = json.loads(direct_url or "null")["url"]
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(url, str) or not url.startswith("file://"):
        return None
    return Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))


def profile_dir() -> Path:
    """The folder of the shipped profiles (see the module's docstring for the order)."""
    if os.environ.get(PROFILES_ENV):
        return Path(os.environ[PROFILES_ENV])
    if (CHECKOUT / IN_CHECKOUT).is_dir():
        return CHECKOUT / IN_CHECKOUT
    try:
        source = installed_from(importlib.metadata.distribution("pentago-board")
                                .read_text("direct_url.json"))
    except importlib.metadata.PackageNotFoundError:
        source = None
    return (source or CHECKOUT) / IN_CHECKOUT


PROFILE_DIR = profile_dir()


def shipped_profiles() -> list[str]:
    """The names of the profiles shipped in hardware/profiles, sorted."""
    return sorted(path.stem for path in PROFILE_DIR.glob("*.toml"))


def shown_path(path: Path) -> str:
    """The file name errors show: relative to the checkout when inside it, else as given."""
    try:
        return str(path.resolve().relative_to(CHECKOUT))
    except (ValueError, OSError, RuntimeError):  # outside the checkout; a NUL; a symlink loop
        return str(path).replace("\0", "\\0")


def locate(name_or_path: str | Path) -> Path:
    """The file of a shipped profile's name, or the path given; ProfileError for an unknown name."""
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or "/" in text or text.endswith(".toml"):
        return Path(name_or_path)
    if text in shipped_profiles():
        return PROFILE_DIR / f"{text}.toml"
    if not os.access(PROFILE_DIR, os.R_OK | os.X_OK):
        raise ProfileError(
            f"no shipped profile named {shown(text)}: the profile folder {PROFILE_DIR} is missing or "
            f"unreadable (checkout moved, or a private home directory?); set {PROFILES_ENV} to "
            "a readable copy of hardware/profiles, or give the path of a .toml file"
        )
    raise ProfileError(
        f"no shipped profile named {shown(text)} (shipped: {', '.join(shipped_profiles())}); "
        f"give one of those or the path of a .toml file"
    )
