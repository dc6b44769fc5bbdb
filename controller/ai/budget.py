"""How long a search may run: a node budget, an injected deadline, or both.

The search never reads a clock itself (rules-layer purity); the caller passes ``deadline``, a
function that returns True once time is up, and/or a fixed node count, which makes a search
exactly repeatable. The deadline is polled every :data:`POLL_EVERY` nodes to keep it cheap.

>>> budget = Budget(nodes=2)
>>> budget.tick(); budget.tick()
>>> budget.tick()
Traceback (most recent call last):
...
controller.ai.budget.OutOfBudget: node budget of 2 spent
"""

from __future__ import annotations

from collections.abc import Callable

POLL_EVERY = 128


class OutOfBudget(Exception):
    """Raised inside the search when the budget is spent; the root catches it."""


class Budget:
    """Counts search nodes and stops the search when the budget or the deadline runs out."""

    def __init__(self, nodes: int | None = None, deadline: Callable[[], bool] | None = None) -> None:
        if nodes is not None and nodes < 1:
            raise ValueError(f"node budget must be at least 1, not {nodes}")
        self.limit = nodes
        self.deadline = deadline
        self.nodes = 0
        self.armed = True  # off while the first (always complete) iteration runs

    def tick(self) -> None:
        """Count one node; raise :class:`OutOfBudget` when the search must stop."""
        self.nodes += 1
        if not self.armed:
            return
        if self.limit is not None and self.nodes > self.limit:
            raise OutOfBudget(f"node budget of {self.limit} spent")
        if self.deadline is not None and self.nodes % POLL_EVERY == 0 and self.deadline():
            raise OutOfBudget(f"deadline reached after {self.nodes} nodes")

    def tick_costly(self) -> None:
        """Count one node that costs as much as many (a family seat's expansion): the deadline
        is asked at each, not every :data:`POLL_EVERY`."""
        self.tick()
        if self.deadline is not None and self.deadline():
            raise OutOfBudget("deadline reached")
