"""GET /api/summary: the game's summary as a CSV download where its flow keeps one (a
Picture-Puzzle game: see tests/core/test_puzzle_tape.py for the summary itself), a 404 naming
why for a game that keeps none."""

from __future__ import annotations

from controller.daemon.web.app import RUNTIME
from tests.daemon.web.test_app import console

CSV = "round,stage,k,restorer,dismantler,result,seconds,out\n1,1,1,Ada,Bo,passed,4.5,\n"


def test_the_summary_downloads_as_csv_when_the_game_keeps_one():
    async def check(client, board):
        runtime = client.server.app[RUNTIME]
        state = runtime.core.state
        runtime.core.state = lambda: {**state(), "detail": {"summary_csv": CSV}}  # as a puzzle's state has it
        runtime.snapshot = runtime.core.state()  # every snapshot from now on carries it
        response = await client.get("/api/summary")
        assert response.status == 200 and response.content_type == "text/csv"
        assert response.headers["Content-Disposition"].startswith('attachment; filename="pentago-summary-')
        assert await response.text() == CSV

    console()(check)


def test_a_game_without_a_summary_is_a_404_saying_so():
    async def check(client, board):
        response = await client.get("/api/summary")
        assert response.status == 404
        assert (await response.json()) == {"error": "the game in play keeps no summary (a Picture-Puzzle game does)"}

    console()(check)
