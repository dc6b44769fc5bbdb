"""A power cut at any journal record boundary, or mid-record, loses nothing.

The runtime writes each record durably before showing its frame, so after a cut the journal
holds the records up to some point and the board holds whatever the players had done by then.
A new core resumes from those records and the board as the driver reports it on start; the rest
of the game goes on, and the moves and outcome must be those of the game played without a cut.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.commands.replay import core_for, drive, result, start, tick_until
from controller.events import EMPTY, HoleReading
from controller.journal import Journal
from controller.rules import ClassicGame
from controller.tape import read_tape

TAPES = Path(__file__).resolve().parents[1] / "data" / "tapes"


def crash_points(tape):
    """Every moment a record was written: (records so far, time, readings, events still to come)."""
    core = core_for(tape.header)
    records = list(start(core, tape.header).records)
    points = []
    for i, event in enumerate(tape.events):
        for effects in tick_until(core, event.t):
            points += _points(records, effects.records, core, tape.events[i:])
        points += _points(records, core.handle(event).records, core, tape.events[i + 1:])
    for effects in drive(core, []):  # the final settle, as replay does it
        points += _points(records, effects.records, core, [])
    return core, points


def _points(records: list[dict], new: tuple, core, rest: list) -> list:
    points = []
    for record in new:
        records.append(record)
        points.append((list(records), core.now, list(core.physical.readings), rest))
    return points


def resume(tape, records: list[dict], t: float, readings: list[str], rest: list) -> dict:
    core = core_for(tape.header, journal_records=records, start_time=t)
    for hole, reading in enumerate(readings):  # the driver reports every hole on start
        if reading != EMPTY:
            core.handle(HoleReading(t, hole, reading))
    drive(core, rest)
    return result(core)


@pytest.mark.parametrize("name", ["take_back", "skip_with_and_without_neutral", "half_and_180_twists",
                                  "polarity_wrong_colour", "wrong_block_then_back", "triple_three_players_to_a_winner"])
def test_cut_at_every_record_boundary_loses_nothing(name: str) -> None:
    tape = read_tape(TAPES / f"{name}.jsonl")
    whole, points = crash_points(tape)
    want = result(whole)
    assert len(points) > 20
    for records, t, readings, rest in points:
        got = resume(tape, records, t, readings, rest)
        assert (got["moves"], got["outcome"]) == (want["moves"], want["outcome"]), f"cut after {records[-1]}"


def test_torn_last_record_is_dropped_and_the_board_brings_the_move_back(tmp_path: Path) -> None:
    tape = read_tape(TAPES / "take_back.jsonl")
    whole, points = crash_points(tape)
    want = result(whole)
    for records, t, readings, rest in points[5::7]:
        path = tmp_path / f"journal-{len(records)}"
        with Journal(path) as journal:
            for record in records:
                journal.append(record)
        path.write_bytes(path.read_bytes()[:-7])  # the cut tore the last line
        survived = Journal(path).read()
        assert survived == records[:-1]
        got = resume(tape, survived, t, readings, rest)
        assert got["outcome"] == want["outcome"]
        assert positions(got["moves"]) == positions(want["moves"])


def positions(moves: list[str]) -> list[str]:
    """The position after each move. A torn twist of a neutral block (empty, or only its centre
    filled) leaves no trace on the board, so it comes back as a skipped twist: same positions."""
    game = ClassicGame()
    out = []
    for move in moves:
        game.push_text(move)
        out.append(game.position.text())
    return out


def test_resume_on_a_different_board_enters_repair_at_once() -> None:
    tape = read_tape(TAPES / "take_back.jsonl")
    _, points = crash_points(tape)
    records, t, readings, _ = points[12]
    core = core_for(tape.header, journal_records=records, start_time=t)
    effects = [core.handle(HoleReading(t, h, r)) for h, r in enumerate(readings) if r != EMPTY]
    wrong = next(h for h, r in enumerate(readings) if r == EMPTY)
    core.handle(HoleReading(t, wrong, "marble"))
    core.handle(HoleReading(t + 0.01, next(h for h, r in enumerate(readings) if r != EMPTY and h != wrong), EMPTY))
    tick_until(core, t + 1.0)
    assert effects and core.state()["state"] == "repair"
    assert core.state()["repair"][0].startswith("remove the marble on")


def test_resume_with_an_unusable_record_keeps_the_records_before_it() -> None:
    from controller.core import Core
    from controller.profile import load_profile
    core = Core(load_profile("virtual-6x6"), journal_records=[{"kind": "start", "game": "classic", "players": 2},
                                                                {"kind": "place", "hole": "zz"}])
    assert core.state()["state"] == "awaiting_placement"
    assert core.resume.used == 1
