"""How far a hand can turn a block, so that the link never believes an impossible encoder count.

A flipped bit behind a good CRC, a replayed frame or an MCU whose count jumped may report
thousands of detents at once (32767, 3006, -1206, a count jumping by 2^31 - 1); the referee
reads a block's count modulo a full turn, so such a count would pass for a quarter twist
nobody made. A block turned by hand moves at most :data:`TURNS_PER_S` full turns a second,
after a burst of at most :data:`BURST_QUARTERS` quarter turns (a quick flick whose detents
reach the Pi in one USB packet); more than that between two frames is a fault, and the link
asks for a snapshot instead of passing it on.

>>> hand = HandLimit(blocks=4, detents_per_quarter=6)
>>> hand.allows(1, 6, now=0.0), hand.allows(1, 6, now=0.0)  # a quick half turn
(True, True)
>>> hand.allows(1, 1, now=0.0)  # and one more detent at that very moment: no hand does that
False
>>> hand.allows(1, 12, now=0.25), hand.allows(2, 3006, now=0.25)
(True, False)
"""

from __future__ import annotations

TURNS_PER_S = 4.0  # no hand spins a block faster, even a child flicking it
BURST_QUARTERS = 2  # the most one moment may bring: a half turn


class HandLimit:
    """A budget of detents per block that refills at a hand's fastest pace (a token bucket)."""

    def __init__(self, blocks: int, detents_per_quarter: int) -> None:
        self.burst = BURST_QUARTERS * detents_per_quarter
        self.rate = TURNS_PER_S * 4 * detents_per_quarter  # detents per second
        self._left = [float(self.burst)] * blocks
        self._at: list[float | None] = [None] * blocks

    def allows(self, block: int, steps: int, now: float) -> bool:
        """True if a hand can have turned ``block`` (1-based) by ``steps`` detents since the
        last count; the steps are then spent from its budget (an impossible count spends none)."""
        i = block - 1
        at = self._at[i]
        left = self._left[i] if at is None else min(self.burst, self._left[i] + self.rate * max(0.0, now - at))
        self._at[i] = now
        possible = abs(steps) <= left
        self._left[i] = left - abs(steps) if possible else left
        return possible
