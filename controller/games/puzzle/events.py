"""Picture-Puzzle's events, read from the difference of two states' ``detail`` (see
:meth:`controller.games.puzzle.flow.PuzzleFlow.detail`), as :mod:`.messages` reads moves.

In the order they happen between two states:

- for each round that ended since the old state, oldest first: ``dismantled`` (``round``,
  ``restorer``) if the old state had not seen its restore begin, then ``restore`` (``round``,
  ``restorer``, ``dismantler``, ``k``, ``passed``, ``reason``, ``seconds``: the restore's time,
  null unless it passed with times kept) when a restore was judged (passed, failed, or out of
  time), and ``out`` (``round``, ``seat``, ``name``, ``reason``) when the round put a player out
  (the restorer, or a dismantler whose time ran out: that round has no ``restore`` event);
- ``stage`` (``stage``, ``k``, ``picture``): a stage begins, the first one with the game; k
  rises with every stage after it (never past the picture's stones, where it stays);
- ``round`` (``round``, ``stage``, ``k``, ``picture``, ``restorer``, ``dismantler``): the round
  in hand began, that is its dismantle (the restorer looks away); then ``dismantled`` once its
  restore begins.

Seats are numbers, as in the state; ``out`` adds the seat's name. The winner is the ``outcome``
event every game has. A round that both begins and ends between two states the bridge reads
(it cannot within one event: the restore takes steps of its own) has no ``round`` event, only its
result. The building of the picture and the steps within a round are not events: the teacher
follows a round by its start, its dismantle done and its result.
"""

from __future__ import annotations

from typing import Any

ACTIVE_STEPS = ("dismantle", "restore")  # the flow's steps while a round is in hand


def puzzle_events(old: dict[str, Any] | None, new: dict[str, Any]) -> list[dict[str, Any]]:
    """The puzzle events from state ``old`` (None: a new game began) to state ``new``.

    >>> detail = {"picture": "H", "step": "dismantle", "k": 1, "stage": 1, "restorer": 1,
    ...           "dismantler": 2, "rounds": []}
    >>> [e["type"] for e in puzzle_events(None, {"detail": detail})]
    ['stage', 'round']
    """
    after = puzzle_detail(new)
    if after is None:
        return []
    before = puzzle_detail(old) if old is not None else None
    names = {seat.get("seat"): seat.get("name", "") for seat in new.get("seats") or [] if isinstance(seat, dict)}
    return [*_ended(before, after, names), *_stage(before, after), *_in_hand(before, after)]


def puzzle_detail(state: dict[str, Any]) -> dict[str, Any] | None:
    """The state's Picture-Puzzle detail (a detail with a picture), else None."""
    detail = state.get("detail")
    return detail if isinstance(detail, dict) and "picture" in detail else None


def _rounds(detail: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in detail.get("rounds") or [] if isinstance(r, dict)]


def _stage(before: dict[str, Any] | None, after: dict[str, Any]) -> list[dict[str, Any]]:
    if before is not None and before.get("stage") == after.get("stage"):
        return []
    return [{"type": "stage", "stage": after.get("stage"), "k": after.get("k"), "picture": after["picture"]}]


def _progress(detail: dict[str, Any] | None, number: int) -> int:
    """How far ``detail`` has seen round ``number``: 0 not begun, 1 dismantling, 2 restoring, 3 ended."""
    if detail is None:
        return 0
    done = len(_rounds(detail))
    if number <= done:
        return 3
    in_hand = number == done + 1 and detail.get("restorer") is not None
    return 1 + ACTIVE_STEPS.index(detail["step"]) if in_hand and detail.get("step") in ACTIVE_STEPS else 0


def _ended(before: dict[str, Any] | None, after: dict[str, Any], names: dict[Any, str]) -> list[dict[str, Any]]:
    rounds = _rounds(after)
    first = len(_rounds(before)) if before is not None else 0
    found: list[dict[str, Any]] = []
    for number, done in enumerate(rounds[first:], start=first + 1):
        if _progress(before, number) < 2 and done.get("passed") is not None:
            found.append({"type": "dismantled", "round": number, "restorer": done.get("restorer")})
        found += _result(number, done, names)
    return found


def _result(number: int, done: dict[str, Any], names: dict[Any, str]) -> list[dict[str, Any]]:
    passed, reason = done.get("passed"), done.get("reason")
    found: list[dict[str, Any]] = []
    if passed is not None:
        found.append({"type": "restore", "round": number, "restorer": done.get("restorer"),
                      "dismantler": done.get("dismantler"), "k": done.get("k"), "passed": passed,
                      "reason": reason, "seconds": done.get("seconds")})
    if passed is not True:
        seat = done.get("restorer") if passed is False else done.get("dismantler")
        found.append({"type": "out", "round": number, "seat": seat, "name": names.get(seat, ""), "reason": reason})
    return found


def _in_hand(before: dict[str, Any] | None, after: dict[str, Any]) -> list[dict[str, Any]]:
    number = len(_rounds(after)) + 1
    seen, now = _progress(before, number), _progress(after, number)
    found: list[dict[str, Any]] = []
    if seen < 1 <= now:
        found.append({"type": "round", "round": number, "stage": after.get("stage"), "k": after.get("k"),
                      "picture": after["picture"], "restorer": after.get("restorer"),
                      "dismantler": after.get("dismantler")})
    if seen < 2 <= now:
        found.append({"type": "dismantled", "round": number, "restorer": after.get("restorer")})
    return found
