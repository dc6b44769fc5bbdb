"""How long to wait before reopening the port after a failure."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff: ``initial_s``, times ``factor`` per failed attempt, at most ``max_s``.

    A replugged Pico shows up again within a second or two; the cap keeps a missing one from
    being polled more than every few seconds.

    >>> [Backoff(0.2, 2.0, 1.0).delay_s(n) for n in range(5)]
    [0.2, 0.4, 0.8, 1.0, 1.0]
    """

    initial_s: float = 0.2
    factor: float = 2.0
    max_s: float = 5.0

    def delay_s(self, attempt: int) -> float:
        """The wait before attempt ``attempt + 1`` (``attempt`` failures so far, from 0)."""
        return min(self.max_s, self.initial_s * self.factor ** attempt)
