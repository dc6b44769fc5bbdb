"""The project's checking kit: one error type for an input that fails a check, and the checks
every reader of outside input shares (the hardware profile, the daemon config, web and MQTT
request bodies, a new game's options, journal records, tapes).

Each reader keeps its own sentence (a person reads a config message, a client a request's:
tests pin them), so the kit holds what the sentences are about, not the sentences themselves:

- :class:`CheckError` names where the input came from (``source``) and which value (``key``);
  :class:`~controller.errors.ProfileError`, :class:`~controller.errors.ConfigError` and the web
  API's ``BadRequest`` derive from it;
- :func:`is_number` and :func:`is_whole`: a bool is not a number (``True == 1`` to Python, not
  to a person who wrote ``true``);
- :func:`within`: a number from ``low`` to ``high``;
- :func:`among`: one of a few values (``True`` is not the level 1);
- :func:`close_match`: the known name a typo was meant to be (difflib), and :func:`key_hint`,
  how every reader says so of an unknown key;
- :func:`text_fault`: text of bounded length without control characters;
- :func:`read_toml`: a TOML file named from outside, read bounded and decoded, every failure
  a CheckError naming the file.

>>> is_number(1.5), is_number(True), within(3, 1, 4, whole=True), within(2.5, 1, 4, whole=True)
(True, False, True, False)
>>> among(2, (0, 1, 2, 3)), among(True, (0, 1, 2, 3)), among(True, (False, True)), among([1], ("a",))
(True, False, True, False)
>>> close_match("sensnig", ("size", "sensing", "driver"))
'sensing'
>>> key_hint("levle", ("game", "level")), key_hint("host", ("bind", "port"), "web.")
("did you mean 'level'?", 'known keys: web.bind, web.port')
>>> text_fault("ab\\x1b[2J", 40), text_fault("x" * 41, 40), text_fault("fine", 40)
('holds a control character (0x1b)', 'is too long (at most 40 characters)', None)
"""

from __future__ import annotations

import difflib
import os
import unicodedata
from collections.abc import Iterable
from typing import Any, TypeGuard

from .files import read_bounded
from .rules.errors import PentagoError
from .tomlfile import decode_toml


class CheckError(PentagoError, ValueError):
    """An input that fails a check. The message is the whole sentence for the person (naming
    the source and the key in its reader's words); ``source`` (a file, ``"request"``) and
    ``key`` (a dotted key, a field) say the same for code and logs."""

    def __init__(self, message: str, source: str = "", key: str = "") -> None:
        super().__init__(message)
        self.source, self.key = source, key


def is_number(value: object) -> TypeGuard[int | float]:
    """An int or a float, never a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_whole(value: object) -> TypeGuard[int]:
    """An int, never a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def within(value: object, low: float, high: float, *, whole: bool = False) -> bool:
    """A number (a whole one with ``whole``) from ``low`` to ``high``, both included."""
    if whole:
        return is_whole(value) and low <= value <= high
    return is_number(value) and low <= value <= high


def among(value: object, choices: Iterable[object]) -> bool:
    """``value`` is one of ``choices``, a bool only where a choice is that bool (Python holds
    ``True == 1``; a person choosing a level does not)."""
    return any(value == choice and isinstance(value, bool) == isinstance(choice, bool) for choice in choices)


def close_match(name: str, known: Iterable[str]) -> str | None:
    """The name among ``known`` that ``name`` most likely misspells, if one is close."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return close[0] if close else None


def key_hint(name: str, keys: Iterable[str], prefix: str = "") -> str:
    """What to say of the unknown key ``name`` of a table that holds ``keys``: the key it most
    likely misspells, else every key it may hold; ``prefix`` (the table's dotted path, as the
    reader names its keys) is shown but not matched, lest every key of the table look close."""
    keys = list(keys)
    close = close_match(name, keys)
    return f"did you mean {prefix + close!r}?" if close else f"known keys: {', '.join(prefix + k for k in keys)}"


def text_fault(value: str, max_chars: int) -> str | None:
    """What is wrong with ``value`` as a short piece of text, or None: more than ``max_chars``
    characters, or a control character (a newline, an escape: text that goes into a log line,
    a topic, a page)."""
    if len(value) > max_chars:
        return f"is too long (at most {max_chars} characters)"
    bad = next((c for c in value if unicodedata.category(c) == "Cc"), None)
    return None if bad is None else f"holds a control character (0x{ord(bad):02x})"


def read_toml(path: str | os.PathLike[str], max_bytes: int, source: str, error: type[CheckError],
              unreadable: str = "cannot read it") -> dict[str, Any]:
    """The TOML document in the file at ``path`` (at most ``max_bytes``), or ``error``:
    ``"<source>: <unreadable> (<why>)"`` for a file that cannot be read, ``"<source>: <why>"``
    for bytes that are no TOML."""
    try:
        return decode_toml(read_bounded(path, max_bytes))
    except OSError as exc:
        raise error(f"{source}: {unreadable} ({exc.strerror})", source) from exc
    except ValueError as exc:
        raise error(f"{source}: {exc}", source) from None
