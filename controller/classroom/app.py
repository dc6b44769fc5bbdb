"""The classroom console's web app: the teacher's page and its API.

GET  /                 the page (static/classroom.html)
GET  /api/games        the games and the Picture-Puzzle pictures, for the page's form
GET  /api/boards       every board's row (see :func:`.boards.row`) and whether the broker is connected
POST /api/command      ``{"boards": [...] | "all", "name": ..., "args": {...}}``: the same command to
                       each board named (``"all"``: every board online), checked as a board checks
                       it; answers the boards it was sent to
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
from ..daemon.web.verbs import command
from ..errors import shown
from .boards import Boards
from .link import Link, NotConnected

STATIC = Path(__file__).parent / "static"
LINK = web.AppKey("link", Link)
STOP_S = 2.0


def make_app(link: Link, bind: str, token: str) -> web.Application:
    app = web.Application(middlewares=[guard(bind, token)], client_max_size=MAX_BODY_BYTES)
    app[LINK] = link
    app.router.add_get("/", _page)
    app.router.add_get("/classroom.js", _script)
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


async def _games(request: web.Request) -> web.Response:
    from ..games import GAMES
    from ..rules.pictures import library_names

    pictures = list(dict.fromkeys((*library_names(9), *library_names(6))))
    return web.json_response({"games": [{"name": g.name, "title": g.title} for g in GAMES], "pictures": pictures})


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
        name, args = command({"name": data.get("name"), "args": data.get("args", {})})
    except BadRequest as error:
        return error_response(400, str(error))
    try:
        for board in targets:
            await link.command(board, name, args)
    except NotConnected as error:
        return error_response(503, str(error))
    return web.json_response({"sent": targets})


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
