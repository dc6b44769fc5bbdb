"""Physical truth: sensed readings and encoder counts, compared with the expected position.

:class:`Physical` keeps the raw inputs, :func:`compare` turns a settled snapshot into a
:class:`Diff`, and :func:`repair_steps` orders what to do to get back to the expected board.
Pure: no clock reads (times come from events), no I/O.
"""

from .diff import Diff, compare
from .physical import BoardInputError, Physical
from .repair import Step, repair_steps

__all__ = ["BoardInputError", "Diff", "Physical", "Step", "compare", "repair_steps"]
