"""Build tests/data/tapes/puzzle_three_players.jsonl: a whole three-player Picture-Puzzle game
on a 9x9 presence board (the H), with k rising from 1 to 2, and its expected replay result.

Run ``python -m tests.core.make_puzzle_tape`` from the repository root to rebuild it. The
expected result comes from the scenario (who passes and fails, so who is out and who wins),
never from running the core: the tape test checks the core against the truth.

Stage 1 (k = 1): seat 1 restores (seat 2 dismantles) and passes, seat 2 (3) passes, seat 3 (1)
puts the stone one hole off and is out; the lights guide the picture back. Stage 2 (k = 2):
seat 1 (2) passes after two removals and the middle block twisted twice, seat 2 (1) puts a
stone one hole off and is out: seat 1, the last player in, wins.
"""

from __future__ import annotations

import json
from pathlib import Path

from controller.rules.puzzle.pictures import library_picture
from controller.rules.puzzle import PuzzleGame, PuzzleOptions

from .tapebuilder import TapeBuilder

TAPE = Path(__file__).resolve().parents[1] / "data" / "tapes" / "puzzle_three_players.jsonl"
OPTIONS = {"game": "puzzle", "players": 3, "picture": "h", "show_s": 0, "check": "presence"}
STAGE_1 = [("-c2", "5R", "c2", "5L"), ("-c2", "5R", "c2", "5L"), ("-c2", "5R", "d2", "5L")]
STAGE_2 = [("-c2", "-g2", "5R", "5R", "c2", "5L", "g2", "5L"), ("-c2", "-g2", "5R", "5R", "c2", "5L", "h2", "5L")]


def build() -> TapeBuilder:
    b = TapeBuilder(size=9, seed=12, options={k: v for k, v in OPTIONS.items() if k != "game"} | {"game": "puzzle"})
    for hole, _ in library_picture("h", 9).holes():  # the build: the H, stone by stone
        b.put(hole, 0).pause(0.3)
    b.pause()
    for steps in STAGE_1 + STAGE_2:
        for step in steps:
            if step.startswith("-"):
                b.lift(step[1:])
            elif step[0].isdigit():
                b.turn(int(step[0]), 1 if step[1] == "R" else -1)
            else:
                b.put(step, 0)
            b.pause()
        if steps[-2] == "d2":  # seat 3's failed restore: the picture guided back, as the lights say
            b.lift("d2").pause().put("c2", 0).pause()
    return b


def expected() -> dict:
    """The replay result the scenario means, from the rules alone."""
    game = PuzzleGame(library_picture("h", 9), PuzzleOptions(players=3))
    for steps in STAGE_1 + STAGE_2:
        for step in steps:
            game.push_text(step)
    assert game.outcome is not None and game.outcome.winners == (1,)
    return {
        "moves": [" ".join(steps) for steps in STAGE_1 + STAGE_2],
        "outcome": {"result": "win", "winners": [1]},
        "repairs": 1,  # the failed restore before the last guides the picture back in repair mode
        "standings": [list(place) for place in game.outcome.standings],
        "eliminated": game.eliminated,
    }


if __name__ == "__main__":
    build().write(TAPE)
    TAPE.with_name(TAPE.stem + ".expected.json").write_text(json.dumps(expected(), indent=1) + "\n")
    print(f"wrote {TAPE}")
