"""The aiohttp application: the page, the JSON API and the live WebSocket.

Routes (every /api route answers JSON; a malformed request gets a 4xx ``{"error": ...}``):

==========================  ==========================================================
GET  /                      the page (board, LEDs, game panel); /static/* its files
GET  /api/layout            holes, blocks and LED chain of the profile (see layout.py)
GET  /api/state             the newest state message (as sent on the WebSocket)
GET  /api/live              WebSocket: a state message after every change
POST /api/command           {"name": "new_game" | "take_back" | "menu", "args": {...}}
POST /api/board/<verb>      virtual board only: place {hole, colour?}, lift {hole},
                            turn {block, steps}, quarter {block, clockwise}, press {button}
GET  /api/record            the game record as a text file download
==========================  ==========================================================

When a token is set, every /api route wants it as ``Authorization: Bearer <token>`` or
``?token=<token>`` (the page passes on the one in its own address).
"""

from __future__ import annotations

import asyncio
import datetime
import hmac
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from ...errors import PentagoError
from ...events import Command
from ...flow import GAMES
from ...profile import Profile
from ..config import GameDefaults
from ..runtime import Runtime
from .api import BadRequest, body, error_response, field
from .hub import Hub
from .layout import layout
from .record import game_record

STATIC = Path(__file__).parent / "static"
COMMANDS = ("new_game", "take_back", "menu")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
log = logging.getLogger("pentago_board")

RUNTIME = web.AppKey("runtime", Runtime)
HUB = web.AppKey("hub", Hub)
BOARD = web.AppKey("board", object)
SETTINGS = web.AppKey("settings", dict)


def build_app(runtime: Runtime, profile: Profile, *, board: Any = None, token: str = "",
              defaults: GameDefaults = GameDefaults()) -> web.Application:
    """The console for ``runtime``; ``board`` is the VirtualBoard in the simulator, else None."""
    app = web.Application(middlewares=[_errors, _token_check(token)])
    app[RUNTIME], app[BOARD] = runtime, board
    app[HUB] = Hub(extra=lambda: {"marbles": _marbles(board)})
    app[SETTINGS] = {"layout": layout(profile, virtual=board is not None),
                     "defaults": defaults.command_args(), "games": list(GAMES)}
    app.on_startup.append(_attach_hub)
    app.router.add_get("/", _index)
    app.router.add_static("/static/", STATIC)
    app.router.add_get("/api/layout", _layout)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/live", _live)
    app.router.add_post("/api/command", _command)
    app.router.add_post("/api/board/{verb}", _board_verb)
    app.router.add_get("/api/record", _record)
    return app


async def _attach_hub(app: web.Application) -> None:
    hub, runtime = app[HUB], app[RUNTIME]
    hub.attach(asyncio.get_running_loop())
    hub.publish(runtime.snapshot)
    runtime.listeners.append(hub.publish_threadsafe)


def _marbles(board: Any) -> dict[str, str | None]:
    """The virtual board's physical truth for the page (hole index as text -> colour)."""
    return {} if board is None else {str(h): c for h, c in board.marbles().items()}


# -- middleware --------------------------------------------------------------------------------

@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every failure becomes a JSON error; nothing a client sends can take the daemon down."""
    try:
        return await handler(request)
    except BadRequest as exc:
        return error_response(400, str(exc))
    except PentagoError as exc:  # e.g. a hole name that is not one, a marble on a full hole
        return error_response(409, str(exc))
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return error_response(exc.status, f"{exc.reason}: {request.method} {request.path}")
    except Exception:
        log.exception("web request failed", extra={"fields": {"path": request.path}})
        return error_response(500, "internal error; see the daemon's log")


def _token_check(token: str) -> Callable[..., Awaitable[web.StreamResponse]]:
    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if token and request.path.startswith("/api/"):
            header = request.headers.get("Authorization", "")
            given = header.removeprefix("Bearer ") if header.startswith("Bearer ") else \
                request.query.get("token", "")
            if not hmac.compare_digest(given.encode(), token.encode()):
                return error_response(401, "this console needs its token: open the address "
                                      "`pentago-board run` printed, with ?token=...")
        return await handler(request)

    return check


# -- handlers ----------------------------------------------------------------------------------

async def _index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html")


async def _layout(request: web.Request) -> web.Response:
    return web.json_response(request.app[SETTINGS])


async def _state(request: web.Request) -> web.Response:
    return web.Response(text=request.app[HUB].message, content_type="application/json")


async def _live(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    sender = asyncio.create_task(_follow(request.app[HUB], ws))
    try:
        async for message in ws:  # the page only listens; reading notices the close
            if message.type == WSMsgType.ERROR:
                break
    finally:
        sender.cancel()
    return ws


async def _follow(hub: Hub, ws: web.WebSocketResponse) -> None:
    seen = -1
    while not ws.closed:
        seen, message = await hub.next_message(seen)
        try:
            await ws.send_str(message)
        except ConnectionError:
            return


async def _command(request: web.Request) -> web.Response:
    data = await body(request)
    name = field(data, "name", str)
    if name not in COMMANDS:
        raise BadRequest(f"unknown command {name!r}; one of {', '.join(COMMANDS)}")
    args = field(data, "args", dict, {})
    runtime = request.app[RUNTIME]
    runtime.put(Command(runtime.clock(), name, args))
    return web.json_response({"queued": name}, status=202)


async def _board_verb(request: web.Request) -> web.Response:
    board = request.app[BOARD]
    if board is None:
        return error_response(404, "there is no virtual board: this daemon runs real hardware")
    verb = request.match_info["verb"]
    if verb not in VERBS:
        return error_response(404, f"unknown board action {verb!r}; one of {', '.join(VERBS)}")
    VERBS[verb](board, await body(request))
    return web.json_response({"done": verb})


def _hole(data: dict[str, Any]) -> int | str:
    hole: int | str = field(data, "hole", (int, str))
    return hole


VERBS: dict[str, Callable[[Any, dict[str, Any]], Any]] = {
    "place": lambda b, d: b.place(_hole(d), field(d, "colour", (str, type(None)), None)),
    "lift": lambda b, d: b.lift(_hole(d)),
    "turn": lambda b, d: b.turn(field(d, "block", int), field(d, "steps", int)),
    "quarter": lambda b, d: b.quarter(field(d, "block", int), field(d, "clockwise", bool)),
    "press": lambda b, d: b.press(field(d, "button", str)),
}


async def _record(request: web.Request) -> web.Response:
    text = game_record(request.app[RUNTIME].snapshot, datetime.date.today().isoformat())
    name = f"pentago-{datetime.datetime.now():%Y%m%d-%H%M}.txt"
    return web.Response(text=text, content_type="text/plain",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
