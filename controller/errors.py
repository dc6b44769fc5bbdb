"""The project's error hierarchy. Each class also inherits the built-in that fits, so callers
can catch either ours or the standard one."""

import reprlib
from typing import Any

from .checks import CheckError
from .rules.errors import IllegalMoveError, NotationError, PentagoError

__all__ = [
    "CheckError", "ConfigError", "DriverUnavailable", "IllegalMoveError", "LinkError", "NotationError",
    "PentagoError", "ProfileError", "TapeError", "shown",
]


class ProfileError(CheckError):
    """A hardware profile that does not load: names the file, the key and the problem."""


class ConfigError(CheckError):
    """A daemon config value that is wrong: names the key and the allowed values."""


class TapeError(CheckError):
    """A malformed tape line: names the line number and the problem (``key``: ``"line N"``;
    ``source``: the tape's file, when read from one)."""


class LinkError(PentagoError, ConnectionError):
    """The serial link to the microcontroller failed or speaks another protocol."""


class DriverUnavailable(PentagoError, ImportError):
    """No driver could be loaded for the hardware the profile names."""


def shown(value: Any) -> str:
    """``repr(value)`` cut short: a message quotes what was wrong, never a whole megabyte of it
    (every input from outside may be huge: a config value, a tape field, a web request).

    >>> shown("two words"), len(shown("x" * 10_000)), shown(list(range(20)))
    ("'two words'", 80, '[0, 1, 2, 3, 4, 5, 6, 7, ...]')
    """
    return _SHORT.repr(value)


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 80
_SHORT.maxlist = _SHORT.maxdict = 8
