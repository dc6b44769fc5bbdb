"""kill -9 of a real daemon process at random points of scripted games, a handful of times
(the full run is bench/robustness/kill_resume.py): every start succeeds and the journal holds
exactly what was acknowledged, plus at most the action in flight."""

from __future__ import annotations

from bench.robustness.kill_resume import run


def test_a_handful_of_kills_lose_duplicate_and_invent_nothing(tmp_path):
    figures = run(6, seed=3, workdir=tmp_path)
    assert figures["kills"] == 6 and figures["starts"] == 7
    assert figures["failed_starts"] == 0, figures["problems"]
    assert (figures["lost"], figures["duplicated"], figures["invented"]) == (0, 0, 0), figures["problems"]
    assert figures["unacknowledged"] == 0, figures["problems"]
    assert figures["set_aside"] == 0
    assert figures["acknowledged"] > 0
