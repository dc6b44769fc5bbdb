"""Phase-1 aliases (removed with the core split)."""

from .steps import next_colour  # noqa: F401
