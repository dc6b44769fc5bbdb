"""The project's error hierarchy. Each class also inherits the built-in that fits, so callers
can catch either ours or the standard one."""

from .rules.errors import IllegalMoveError, NotationError, PentagoError

__all__ = [
    "ConfigError", "DriverUnavailable", "IllegalMoveError", "LinkError", "NotationError",
    "PentagoError", "ProfileError", "TapeError",
]


class ProfileError(PentagoError, ValueError):
    """A hardware profile that does not load: names the file, the key and the problem."""


class ConfigError(PentagoError, ValueError):
    """A daemon config value that is wrong: names the key and the allowed values."""


class TapeError(PentagoError, ValueError):
    """A malformed tape line: names the line number and the problem."""


class LinkError(PentagoError, ConnectionError):
    """The serial link to the microcontroller failed or speaks another protocol."""


class DriverUnavailable(PentagoError, ImportError):
    """No driver could be loaded for the hardware the profile names."""
