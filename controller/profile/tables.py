"""Reading TOML tables with exact, keyed error messages: every problem is a
:class:`~controller.errors.ProfileError` naming the file, the dotted key and what is wrong."""

from __future__ import annotations

from typing import Any, TypeVar, cast

from ..checks import among, is_number, is_whole, key_hint
from ..errors import NotationError, ProfileError, shown
from ..rules import Geometry, hole_name, parse_hole
from .model import HEADER_PINS

_MISSING: Any = object()
T = TypeVar("T")
_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}


def is_type(value: Any, kind: type) -> bool:
    """``value`` is of TOML's ``kind`` (a float may be written as an integer; a boolean is not
    a number, whatever Python thinks)."""
    if kind is float:
        return is_number(value)
    if kind is int:
        return is_whole(value)
    return isinstance(value, kind)


class Table:
    """One TOML table being read, with its dotted key prefix for error messages.

    ``keys`` are the keys this table may hold; any other key is rejected up front, with the
    closest known key as a hint, so a typo is reported as the typo and not as a missing key.
    """

    def __init__(self, source: str, prefix: str, data: dict[str, Any],
                 keys: tuple[str, ...] | None) -> None:
        self.source, self.prefix, self.data = source, prefix, data
        unknown = [name for name in data if name not in keys] if keys is not None else []
        if keys is not None and unknown:
            raise self.error(unknown[0], f"unknown key ({key_hint(unknown[0], keys)})")

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def error(self, name: str, problem: str) -> ProfileError:
        return ProfileError(f"{self.source}: {self.key(name)}: {problem}", self.source, self.key(name))

    def get(self, name: str, kind: type[T], default: T = _MISSING) -> T:
        """The value at ``name``, of TOML's ``kind`` (a float may be written as an integer),
        or ``default``; a missing key without one is an error."""
        if name not in self.data:
            if default is _MISSING:
                raise self.error(name, "missing key")
            return default
        value = self.data[name]
        if not is_type(value, kind):
            raise self.error(name, f"expected {_TYPE_NAMES[kind]}, got {shown(value)}")
        return cast(T, value)

    def choice(self, name: str, choices: tuple[str, ...], default: str = _MISSING) -> str:
        value = self.get(name, str, default)
        if not among(value, choices):
            raise self.error(name, f"{shown(value)} is not one of {', '.join(map(repr, choices))}")
        return value

    def sub(self, name: str, keys: tuple[str, ...] | None) -> Table | None:
        """The table at ``name``, or None when the key is absent."""
        return self.child(name, self.data[name], keys) if name in self.data else None

    def child(self, name: str, value: Any, keys: tuple[str, ...] | None) -> Table:
        if not isinstance(value, dict):
            raise self.error(name, f"expected {_TYPE_NAMES[dict]}, got {shown(value)}")
        return Table(self.source, f"{self.key(name)}.", value, keys)

    def items(self, name: str, kind: type, value: list[Any]) -> list[Any]:
        """Check every item of the list ``value`` read from key ``name``."""
        for i, item in enumerate(value):
            if not is_type(item, kind):
                raise self.error(f"{name}[{i}]", f"expected {_TYPE_NAMES[kind]}, got {shown(item)}")
        return value


class Pins:
    """The BCM pins claimed so far, so that a pin used twice names both uses."""

    def __init__(self) -> None:
        self.users: dict[int, str] = {}

    def claim(self, table: Table, name: str, pin: Any) -> int:
        if not is_type(pin, int):
            raise table.error(name, f"expected a BCM pin number, got {shown(pin)}")
        if pin not in HEADER_PINS:
            raise table.error(name, f"GPIO {pin} is not on the Pi's 40-pin header (GPIO 0-27)")
        if pin in self.users:
            raise table.error(name, f"GPIO {pin} is already used by {self.users[pin]}")
        self.users[pin] = table.key(name)
        return int(pin)


def check_each_hole_once(table: Table, name: str, placed: list[tuple[str, int]],
                          g: Geometry) -> None:
    """Every hole of ``g`` must appear exactly once among the (key, hole) pairs."""
    seen: dict[int, str] = {}
    for key, hole in placed:
        if hole in seen:
            raise table.error(key, f"hole {hole_name(hole, g)} is already at {seen[hole]}; "
                              "every hole needs exactly one")
        seen[hole] = table.key(key)
    missing = [hole_name(h, g) for h in range(g.hole_count) if h not in seen]
    if missing:
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise table.error(name, f"no entry for hole(s) {', '.join(missing[:8])}{more}; "
                          "every hole needs exactly one")


def read_hole(table: Table, key: str, text: Any, g: Geometry) -> int:
    if not isinstance(text, str):
        raise table.error(key, f"expected a hole name like 'a1', got {shown(text)}")
    try:
        return parse_hole(text, g)
    except NotationError as exc:
        raise table.error(key, str(exc)) from None
