"""The teacher's summary of a Picture-Puzzle game: every round, the order of elimination, each
restore's time and the fastest restorer, as a value and as CSV for a spreadsheet.

The CSV is one table, a round a row, then the order of elimination and the fastest restorer as
rows of their own (a spreadsheet opens it as it is; no cell needs quoting rules beyond CSV's):

>>> from controller.rules.puzzle.pictures import library_picture
>>> from controller.rules.puzzle import PuzzleGame, PuzzleOptions
>>> game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=2))
>>> for step, t in (("-c2", 0), ("5R", 1), ("c2", 2), ("5L", 9.5)):
...     _ = game.push_text(step, t)
>>> print(summary_csv(game, ["Ada", "Bo"]), end="")
round,stage,k,restorer,dismantler,result,seconds,out
1,1,1,Ada,Bo,passed,8.5,
<BLANKLINE>
order of elimination
<BLANKLINE>
fastest restorer,Ada,8.5 s a stone
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ...rules.puzzle import PuzzleGame, Round


def summary(game: PuzzleGame, names: Sequence[str]) -> dict[str, Any]:
    """The summary as a value: ``rounds`` (each round's seats, k, result and seconds),
    ``eliminated`` (names in the order they went out), ``fastest`` (names) and ``winner``."""
    outcome = game.outcome
    return {
        "picture": game.picture.title,
        "rounds": [_round(r, names) for r in game.rounds],
        "eliminated": [names[seat - 1] for seat in game.eliminated],
        "fastest": [names[seat - 1] for seat in game.fastest()],
        "fastest_s_per_stone": game.stopwatch()[0][1] if game.stopwatch() else None,
        "winner": names[outcome.winners[0] - 1] if outcome else None,
    }


def _round(r: Round, names: Sequence[str]) -> dict[str, Any]:
    return {"round": r.number, "stage": r.stage, "k": r.k, "restorer": names[r.restorer - 1],
            "dismantler": names[r.dismantler - 1], "result": _result(r), "seconds": r.restore_s,
            "out": names[r.out - 1] if r.out else None}


def _result(r: Round) -> str:
    return "passed" if r.passed else r.reason.value


def summary_csv(game: PuzzleGame, names: Sequence[str]) -> str:
    """The summary as CSV text (see the module doc)."""
    done = summary(game, names)
    out = io.StringIO()
    rows = csv.writer(out, lineterminator="\n")
    rows.writerow(["round", "stage", "k", "restorer", "dismantler", "result", "seconds", "out"])
    for r in done["rounds"]:
        seconds = "" if r["seconds"] is None else f"{r['seconds']:g}"
        rows.writerow([r["round"], r["stage"], r["k"], r["restorer"], r["dismantler"], r["result"], seconds,
                       r["out"] or ""])
    rows.writerow([])
    rows.writerow(["order of elimination", *done["eliminated"]])
    if done["winner"]:
        rows.writerow(["winner", done["winner"]])
    rows.writerow([])
    if done["fastest"]:
        rows.writerow(["fastest restorer", *done["fastest"], f"{done['fastest_s_per_stone']:g} s a stone"])
    return out.getvalue()
