"""Match play: best of five games, first to three wins, starts alternating game by game.

Drawn games count as played games, so a match can end after five games without anyone reaching
three wins: then the seat with more wins takes it, and equal wins draw the match.

>>> from controller.rules.outcome import Termination
>>> m = Match()
>>> m.starter()
1
>>> m.record(Outcome(Termination.FIVE_AFTER_TWIST, (2,)))
>>> m.starter(), m.wins
(2, {1: 0, 2: 1})
"""

from __future__ import annotations

from .outcome import Outcome


class Match:
    """A running tally of games between two seats."""

    def __init__(self, best_of: int = 5, players: int = 2) -> None:
        if best_of < 1 or best_of % 2 == 0:
            raise ValueError(f"best_of must be an odd number of games, not {best_of}")
        self.best_of = best_of
        self.players = players
        self.outcomes: list[Outcome] = []

    @property
    def wins(self) -> dict[int, int]:
        tally = {seat: 0 for seat in range(1, self.players + 1)}
        for outcome in self.outcomes:
            for seat in outcome.winners:
                tally[seat] += 1
        return tally

    @property
    def needed(self) -> int:
        """Wins that take the match: 3 of 5."""
        return self.best_of // 2 + 1

    def starter(self) -> int:
        """The seat that opens the next game: seat 1 first, then each seat in turn."""
        return len(self.outcomes) % self.players + 1

    def record(self, outcome: Outcome) -> None:
        if self.is_over():
            raise ValueError("the match is over; no more games are recorded")
        self.outcomes.append(outcome)

    def take_back(self) -> Outcome:
        """Forget the last game's outcome (its last move was taken back: it goes on)."""
        if not self.outcomes:
            raise ValueError("no game of the match has ended")
        return self.outcomes.pop()

    def is_over(self) -> bool:
        return max(self.wins.values()) >= self.needed or len(self.outcomes) >= self.best_of

    def winner(self) -> int | None:
        """The seat that won the match, or None while it runs or when it is drawn."""
        if not self.is_over():
            return None
        ranked = sorted(self.wins.items(), key=lambda item: item[1], reverse=True)
        return ranked[0][0] if ranked[0][1] > ranked[1][1] else None
