"""When the board answered: for each move of the game in play, the time of the last sensor event
it rests on and the time the core accepted it (``pentago-board replay --json``'s ``accepted``).

A move is accepted when its last half is: the twist, or for a move without one, the placement
that ends the game or the next marble that shows the twist was skipped. Its ``last_change_t``
is the last change, before that acceptance, of the readings and counts the acceptance rests
on: the new marble's hole, the turned block's holes and steps. Moves taken back (by the
players or withdrawn by the referee) lose their entry; moves the core resumed from a journal
have none (their times are null).

>>> timing = Timing()
>>> timing.moves
[]
"""

from __future__ import annotations

from typing import Any

from ..games import Flow

NO_TIME: dict[str, Any] = {"last_change_t": None, "accepted_t": None}


class Timing:
    """The accepted moves' times, and each placement's and twist's (``halves``: by move number
    and kind, ``(last_change_t, accepted_t)`` of its latest acceptance, for the benchmark), for
    the game in play."""

    def __init__(self) -> None:
        self.game: Any = None
        self.moves: list[dict[str, Any]] = []
        self.halves: dict[tuple[int, str], tuple[float, float]] = {}

    def update(self, flow: Flow, before: list[str], actions: tuple[Any, ...], times: list[float | None],
               now: float, placed_t: float | None = None) -> None:
        """``actions`` (their evidence last changed at ``times``) were applied at ``now``; the
        flow's move texts were ``before``, and ``placed_t`` is when the hole of the placement
        awaiting its twist then last changed."""
        if flow.game is not self.game:  # a new game, the next of a match, a resume
            self.game, self.moves, self.halves = flow.game, [], {}
        after = flow.move_texts()
        self.moves += [{"move": text, **NO_TIME} for text in before[len(self.moves):]]
        kept = _common(before, after, len(self.moves))
        completes = _completes(actions, len(after) - kept)
        ends = _ends(actions, times, placed_t, completes)
        if len(ends) != len(after) - kept:  # moves the actions do not split into (a puzzle's rounds)
            ends = [max((t for t in times if t is not None), default=None)] * (len(after) - kept)
        self.moves = self.moves[:kept] + [{"move": text, "last_change_t": t, "accepted_t": now}
                                          for text, t in zip(after[kept:], ends)]
        number = len(before)  # the move the next action belongs to
        for action, t, done in zip(actions, times, completes):
            if action.kind in ("place", "twist") and t is not None:
                self.halves[(number, action.kind)] = (t, now)
            number += done


def _completes(actions: tuple[Any, ...], moves: int) -> list[bool]:
    """Which of ``actions`` complete one of the ``moves`` moves they complete: a twist or a
    skip, and a placement followed by another (or the last action, while moves are still to
    complete: a five on placement). A take-back completes none."""
    done: list[bool] = []
    for index, action in enumerate(actions):
        following = actions[index + 1].kind if index + 1 < len(actions) else None
        placing = action.kind in ("place", "drop")
        done.append(action.kind in ("twist", "skip") or (placing and (
            following in ("place", "drop") or (following is None and sum(done) < moves))))
    return done


def _ends(actions: tuple[Any, ...], times: list[float | None], placed_t: float | None,
          completes: list[bool]) -> list[float | None]:
    """For each move the actions complete, the last change it rests on (``placed_t``: the
    placement's, when it came before them)."""
    ends: list[float | None] = []
    last = placed_t
    for action, t, done in zip(actions, times, completes):
        if action.kind == "take_back":
            last = None
            continue
        last = t if last is None or (t is not None and t > last) else last
        if done:
            ends.append(last)
            last = None
    return ends


def _common(before: list[str], after: list[str], limit: int) -> int:
    """How many moves from the start ``before`` and ``after`` share (at most ``limit``)."""
    n = 0
    while n < min(len(before), len(after), limit) and before[n] == after[n]:
        n += 1
    return n
