"""The classic search compiled with numba: the same search as :mod:`.search`, many times the nodes.

Optional (the ``fast`` extra; numba has wheels for 64-bit Raspberry Pi OS and PCs): the
pure-Python search stays the default of the library and the reference. :mod:`.kernels` compiles
the part below the root (negamax with the same moves, judging, scores and evaluation as
:mod:`.moves`, :mod:`.evaluate` and :mod:`.search`, on 64-bit integers: a 6x6 colour fits in 36
bits); the root, iterative deepening and the budget stay in :mod:`.search`, with
:class:`CompiledSearcher` in place of its ``Searcher``. The differences are of speed, none of
judgment: every node builds all its children (the Python search first tries the move its table
remembers, and its frontier goes twist by twist until a cut-off), children are ordered by history
and evaluation at every depth, each child's evaluation is computed whole (in Python, from one
board per twist), and the transposition table is a fixed array (a slot is overwritten). Tests
check that both give the same scores at the same depth.

The compiled code never reads a clock: it stops after a node limit or a limit of work (the nodes
and the children they built: a node's cost follows its children, which are many in the opening
and few in the endgame), and the searcher calls it in chunks of :data:`CHUNK` work, asking the
deadline after each. A chunk runs on across the root's children (a child searched inside what is
left of it leaves the rest to the next child), so the deadline is asked every chunk however
small the children are; a child cut short is searched again from its start (the table keeps
every subtree it finished, so each chunk goes further; the chunk is large enough that searching
the way back down costs about 1% more nodes).
The first call compiles for some seconds; numba caches the build beside the module (or in
``NUMBA_CACHE_DIR``), and :func:`warm_up` does it ahead of play.

:func:`engine_in_use` turns an engine name of :data:`ENGINES` into what will search.

>>> engine_in_use("python"), engine_in_use("auto", size=9)  # 9x9 always searches in Python
('python', 'python')
>>> engine_in_use("turbo")
Traceback (most recent call last):
...
ValueError: engine 'turbo' is not one of auto, python, compiled
"""

from __future__ import annotations

from importlib.util import find_spec

from .budget import Budget, OutOfBudget
from .moves import Child
from .search import search, terminal_score
from .tables import COMPILED_SIZE, SearchTables

CHUNK = 100_000  # work per compiled call between looks at the deadline: 10-40 ms here, a Pi about 4 times that
NO_LIMIT = 1 << 62
ENGINES = ("auto", "python", "compiled")
FAST_EXTRA = "the compiled search needs numba: pip install 'pentago-board[fast]' (64-bit Raspberry Pi OS or a PC)"


def available() -> bool:
    """True if numba is installed, so the compiled search can run."""
    return find_spec("numba") is not None


def engine_in_use(engine: str, size: int = COMPILED_SIZE) -> str:
    """``"python"`` or ``"compiled"``: what ``engine`` searches with on a ``size`` board (auto:
    compiled when installed; other boards always Python). ValueError for an unknown engine, or
    ``"compiled"`` without the ``fast`` extra."""
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not one of {', '.join(ENGINES)}")
    if engine == "compiled" and not available():
        raise ValueError(FAST_EXTRA)
    if engine == "python" or size != COMPILED_SIZE or not available():
        return "python"
    return "compiled"


class CompiledSearcher:
    """:class:`~controller.ai.search.Searcher`'s ``child_score`` on the compiled negamax."""

    def __init__(self, budget: Budget, tables: SearchTables) -> None:
        from . import kernels  # numba: imported only when the compiled search plays

        if tables.geometry.size != COMPILED_SIZE:
            raise ValueError("the compiled search plays 6x6 only")
        self.budget = budget
        self.negamax = kernels.negamax
        self.state = kernels.new_state()
        self.counters = self.state[3]
        self.counters[0] = budget.nodes
        self.chunk_end = CHUNK  # the work after which the deadline is asked next

    @property
    def work(self) -> int:
        """The nodes searched so far and the children they built."""
        return int(self.counters[4])

    def child_score(self, child: Child, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score for the parent of playing ``child`` (``alpha``, ``beta`` from the child's view)."""
        result = child[4]
        if result is not None:
            return terminal_score(result, ply)
        budget, counters = self.budget, self.counters
        while True:
            counters[1] = budget.limit if budget.armed and budget.limit is not None else NO_LIMIT
            counters[2], counters[5] = 0, self.chunk_end
            score = -self.negamax(child[3], child[2], depth - 1, alpha, beta, ply + 1, self.state)
            budget.nodes = int(counters[0])
            if not counters[2]:
                return int(score)  # the rest of the chunk goes to the next child
            self.chunk_end = self.work + CHUNK
            if budget.armed and budget.limit is not None and budget.nodes >= budget.limit:
                raise OutOfBudget(f"node budget of {budget.limit} spent")
            if budget.armed and budget.deadline is not None and budget.deadline():
                raise OutOfBudget(f"deadline reached after {budget.nodes} nodes")
            # Again from this child: the table holds every subtree the cut-short chunk finished,
            # so each chunk goes further, and none overruns the deadline by more than one chunk.


def warm_up() -> None:
    """Compile the search now (seconds the first time; numba caches it) rather than at the first move."""
    from .tables import search_tables

    me, opp = 0b111, 0b111 << 30
    search(me, opp, Budget(nodes=2000), tables=search_tables(COMPILED_SIZE), searcher=CompiledSearcher)
