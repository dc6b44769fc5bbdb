"""The errors of the rules layer, and the base error of the whole project.

The base lives here because `rules` imports nothing of ours; every other layer's errors derive from
`PentagoError` through :mod:`controller.errors`.
"""


class PentagoError(Exception):
    """Base class of every error pentago-board raises on purpose."""


class NotationError(PentagoError, ValueError):
    """Text that is not a hole, twist, move, board or record in our notation."""


class IllegalMoveError(PentagoError, ValueError):
    """A well-formed move that the rules forbid in the current position."""
