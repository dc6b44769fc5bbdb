"""The classroom console's web app: the teacher's page and its API.

GET  /                 the page (static/classroom.html), with the board page's stylesheet (/style.css)
GET  /api/games        the games (their titles, board sizes, players and options) and the pictures of
                       each board size (names and titles with their difficulty), for the page's form
GET  /api/boards       every board's row (see :func:`.boards.row`) and whether the broker is connected
POST /api/command      ``{"boards": [...] | "all", "name": ..., "args": {...}}``: the same command to
                       each board named (``"all"``: every board online), checked for each board as
                       that board checks it (its size from its state): answers the boards it was
                       sent to and, by board, why the others would refuse it (a 400 when every
                       board would)
GET  /api/summary      every board's game summary in one CSV (see :meth:`.boards.Boards.summary_csv`)

Requests pass the web console's guard (:mod:`controller.daemon.web.guard`): this console's Host,
no foreign Origin, and the token (when one is set) on every /api route.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from aiohttp import web

from ..daemon.web.api import (
    MAX_BODY_BYTES,
    BadRequest,
    error_response,
    field,
    parse_json,
)
from ..daemon.web.guard import guard
from ..daemon.web.app import STATIC as BOARD_PAGE
from ..daemon.requests import CommandRefused, checked, command
from ..errors import shown
from .boards import Boards
from .link import Link, NotConnected
from .words import refusal

STATIC = Path(__file__).parent / "static"
LINK = web.AppKey("link", Link)
STOP_S = 2.0


def make_app(link: Link, bind: str, token: str) -> web.Application:
    app = web.Application(middlewares=[guard(bind, token)], client_max_size=MAX_BODY_BYTES)
    app[LINK] = link
    app.router.add_get("/", _page)
    app.router.add_get("/classroom.js", _script)
    app.router.add_get("/style.css", _style)
    app.router.add_get("/api/games", _games)
    app.router.add_get("/api/boards", _boards)
    app.router.add_post("/api/command", _command)
    app.router.add_get("/api/summary", _summary)
    app.cleanup_ctx.append(_linked)
    return app


async def _linked(app: web.Application) -> AsyncIterator[None]:
    task = asyncio.create_task(app[LINK].run())
    yield
    task.cancel()
    await asyncio.wait([task], timeout=STOP_S)  # a broker that never answers must not hold up the exit


async def _page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "classroom.html")


async def _script(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "classroom.js")


async def _style(request: web.Request) -> web.FileResponse:
    return web.FileResponse(BOARD_PAGE / "style.css")  # the board page's look, one stylesheet for both


async def _games(request: web.Request) -> web.Response:
    from ..games import GAMES

    picture = next(choice for g in GAMES if (choice := g.choice("picture")) is not None)  # Picture-Puzzle's
    pictures = {str(size): [{"name": name, "means": picture.means(name)} for name in picture.menu_values(size)]
                for size in (9, 6)}
    games = [{"name": g.name, "title": g.title, "sizes": list(g.sizes), "players": list(g.choice("players").values),
              "default_players": g.choice("players").default, "options": [c.name for c in g.choices]} for g in GAMES]
    return web.json_response({"games": games, "pictures": pictures})


async def _boards(request: web.Request) -> web.Response:
    link = request.app[LINK]
    return web.json_response({"connected": link.client is not None, "boards": link.boards.rows()})


async def _command(request: web.Request) -> web.Response:
    link = request.app[LINK]
    try:
        data = parse_json(await request.read())
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object")
        targets = _targets(field(data, "boards", (list, str)), link.boards)
        asked = {"name": data.get("name"), "args": data.get("args", {})}
        name, args = command(asked)
    except BadRequest as error:
        return error_response(400, str(error))
    refused, reasons = _refusals(asked, targets, link.boards)
    if len(refused) == len(targets):
        return web.json_response({"error": _grouped(name, reasons), "refused": refused}, status=400)
    sent = []
    try:
        for board in targets:
            if board not in refused:
                await link.command(board, name, args)
                sent.append(board)
    except NotConnected as error:
        return error_response(503, str(error))
    return web.json_response({"sent": sent, "refused": refused})


def _grouped(name: str, reasons: dict[str, str]) -> str:
    """The boards' refusals of command ``name`` (their reasons by board) in one sentence, boards
    refusing for the same reason together: "Could not start a new game on boards b1, b2: ..."."""
    boards: dict[str, list[str]] = {}
    for board, why in reasons.items():
        boards.setdefault(why, []).append(board)
    return "; ".join(refusal(name, why, named) for why, named in boards.items())


def _refusals(asked: dict[str, Any], targets: list[str], known: Boards) -> tuple[dict[str, str], dict[str, str]]:
    """Why each board among ``targets`` would refuse the command, checked as it checks it (for
    its size; a board that has published no state yet is left to check it itself), and kept as
    the board's answer for the page: in the teacher's words by board, and the bare reasons."""
    refused, reasons = {}, {}
    for board in targets:
        size = known.boards[board].size
        if size is None:
            continue
        try:
            checked(asked, size)
        except CommandRefused as error:
            reasons[board], refused[board] = error.reason, refusal(error.command, error.reason, [board])
            known.said(board, None, "refused", refused[board])
    return refused, reasons


def _targets(boards: Any, known: Boards) -> list[str]:
    """The boards a command goes to: those named (each one the console knows), or ``"all"``: every
    board online (an offline board would get it on reconnecting, long after the class moved on)."""
    if boards == "all":
        online = [row["board"] for row in known.rows() if row["online"]]
        if not online:
            raise BadRequest("no board is online")
        return online
    if isinstance(boards, str) or not boards:
        raise BadRequest("field 'boards' must be \"all\" or a list of board names")
    unknown = [b for b in boards if not isinstance(b, str) or b not in known.boards]
    if unknown:
        raise BadRequest(f"no board {shown(unknown[0])} has published here")
    return list(dict.fromkeys(boards))


async def _summary(request: web.Request) -> web.Response:
    text = request.app[LINK].boards.summary_csv()
    if not text:
        return error_response(404, "no board's game keeps a summary yet (a Picture-Puzzle game does)")
    name = f"classroom-summary-{datetime.datetime.now():%Y%m%d-%H%M}.csv"
    return web.Response(text=text, content_type="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
