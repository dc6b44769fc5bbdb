"""The aiohttp application: the page, the JSON API and the live WebSocket.

Routes (every /api route answers JSON; a malformed request gets a 4xx ``{"error": ...}``):

==========================  ==========================================================
GET  /                      the page (board, LEDs, game panel); /static/* its files
GET  /api/layout            holes, blocks and LED chain of the profile (see layout.py)
GET  /api/state             the newest state message (as sent on the WebSocket); its "health"
                            says whether the referee answers: {"status": "live" | "paused"
                            (cannot save) | "stopped", "words"} (see health.py)
GET  /api/live              WebSocket: a state message after every change (and of health)
POST /api/command           {"name": "new_game" | "take_back" | "menu" | "hint" | "save_picture",
                            "args": {...}};
                            new_game's options are checked by the games' registry (a bad
                            game, seat list or level is a 400 naming it); hint asks for the
                            best move of the player to move, lit on the board;
                            save_picture {"title"} saves the board as it stands as a
                            Picture-Puzzle picture (a bad or taken title is a 400);
                            a board whose referee is stopped answers 503 in words
POST /api/board/<verb>      virtual board only: place {hole, colour?}, lift {hole},
                            turn {block, steps}, quarter {block, clockwise}, press {button},
                            clear {} (lift every marble); see verbs.py for the bounds
GET  /api/record            the game record as a text file download
GET  /api/summary           the game's summary as a CSV download, where its flow keeps one
                            (Picture-Puzzle: the rounds, the order out, the fastest restorer)
==========================  ==========================================================

Every request must come from this console's own page or from a script on an allowed host, and
carry the token when one is set (see guard.py). On shutdown every WebSocket is closed at once,
so stopping never waits for an open browser tab.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from ...errors import PentagoError, shown
from ...events import Command
from ...games import offered
from ...profile import Profile
from ..config import GameDefaults
from ..health import STOPPED
from ..runtime import Runtime
from .api import BadRequest, body, cut, error_response
from .guard import guard
from .hub import Hub
from .layout import games_offered, layout, marble_colours, menu_pages
from .record import game_record
from ..requests import checked
from .verbs import VERBS, Limits

STATIC = Path(__file__).parent / "static"
SHUTDOWN_TIMEOUT_S = 1.0  # how long a request in hand may finish once stopping
CLOSE_WAIT_S = 0.5  # how long a closing WebSocket waits for the page's answer
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
log = logging.getLogger("pentago_board")

RUNTIME = web.AppKey("runtime", Runtime)
HUB = web.AppKey("hub", Hub)
BOARD = web.AppKey("board", object)
SETTINGS = web.AppKey("settings", dict)
LIMITS = web.AppKey("limits", Limits)
SOCKETS = web.AppKey("sockets", set[web.WebSocketResponse])  # the pages following live


def build_app(runtime: Runtime, profile: Profile, *, board: Any = None, token: str = "",
              defaults: GameDefaults = GameDefaults(), bind: str = "127.0.0.1") -> web.Application:
    """The console for ``runtime``; ``board`` is the VirtualBoard in the simulator, else None.
    ``bind`` is the configured listening address (see guard.py for the hosts it allows)."""
    app = web.Application(middlewares=[_errors, guard(bind, token)])
    app[RUNTIME], app[BOARD], app[SOCKETS] = runtime, board, set()
    app[HUB] = Hub(extra=lambda: {"marbles": _marbles(board), "offsets": _offsets(board),
                                  "health": runtime.health().to_json()})
    board_layout = layout(profile, virtual=board is not None, games=runtime.games)
    app[SETTINGS] = {"layout": board_layout, "defaults": defaults.command_args(),
                     "games": [spec.name for spec in offered(profile.size)]}
    app[LIMITS] = _limits(board_layout)
    app.on_startup.append(_attach_hub)
    app.on_shutdown.append(_close_sockets)
    app.router.add_get("/", _index)
    app.router.add_get("/static/{name}", _static)
    app.router.add_get("/api/layout", _layout)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/live", _live)
    app.router.add_post("/api/command", _command)
    app.router.add_post("/api/board/{verb}", _board_verb)
    app.router.add_get("/api/record", _record)
    app.router.add_get("/api/summary", _summary)
    return app


async def _attach_hub(app: web.Application) -> None:
    hub, runtime = app[HUB], app[RUNTIME]
    hub.attach(asyncio.get_running_loop())
    hub.publish(runtime.snapshot)
    runtime.listeners.append(hub.publish_threadsafe)
    runtime.health_listeners.append(lambda _: hub.publish(runtime.snapshot))  # on this loop: "stopped" too


async def _close_sockets(app: web.Application) -> None:
    """Close every live page's socket now: a page left open must not hold up a stop."""
    sockets = app[SOCKETS]
    await asyncio.gather(*[ws.close(code=WSCloseCode.GOING_AWAY, message=b"the board is stopping")
                           for ws in list(sockets)])


def _limits(board_layout: dict[str, Any]) -> Limits:
    return Limits(len(board_layout["holes"]), len(board_layout["blocks"]),
                  board_layout["detents_per_quarter"], marble_colours(board_layout))


def _marbles(board: Any) -> dict[str, str | None]:
    """The virtual board's physical truth for the page (hole index as text -> colour)."""
    return {} if board is None else {str(h): c for h, c in board.marbles().items()}


def _offsets(board: Any) -> dict[str, int]:
    """The virtual board's blocks left part-way through a turn (block as text -> detents), which
    the page draws turned that far."""
    return {} if board is None else {str(b): d for b, d in board.offsets().items()}


# -- middleware --------------------------------------------------------------------------------

@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every failure becomes a JSON error; nothing a client sends can take the daemon down."""
    try:
        return await handler(request)
    except BadRequest as exc:  # a PentagoError too (a CheckError): caught first
        return error_response(400, str(exc))
    except PentagoError as exc:  # e.g. a hole name that is not one, a marble on a full hole
        return error_response(409, str(exc))
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return error_response(exc.status, f"{exc.reason}: {request.method} {cut(request.path)}")
    except Exception:
        log.exception("web request failed", extra={"fields": {"path": cut(request.path)}})
        return error_response(500, "internal error; see the daemon's log")


# -- handlers ----------------------------------------------------------------------------------

async def _index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html")


PAGE_FILES = frozenset(path.name for path in STATIC.iterdir() if path.is_file())  # the page's own


async def _static(request: web.Request) -> web.StreamResponse:
    """One of the page's files; any other name is a 404 without touching the file system (a
    name longer than a file name may be once made the open fail with a 500)."""
    name = request.match_info["name"]
    if name not in PAGE_FILES:
        return error_response(404, f"no file {cut(name)!r}; the page's files: {', '.join(sorted(PAGE_FILES))}")
    return web.FileResponse(STATIC / name)


async def _layout(request: web.Request) -> web.Response:
    """The settings, the games' options read afresh: a picture saved since start-up is offered."""
    settings, catalogue = request.app[SETTINGS], request.app[RUNTIME].games
    board_layout = settings["layout"]
    games = games_offered(tuple(board_layout["colours"]), board_layout["size"], catalogue)
    return web.json_response({**settings, "layout": {**board_layout, "games": games,
                                                     "menu": menu_pages(board_layout["size"], catalogue)}})


async def _state(request: web.Request) -> web.Response:
    return web.Response(text=request.app[HUB].message, content_type="application/json")


async def _live(request: web.Request) -> web.WebSocketResponse:
    # A tab that never answers the close (asleep, frozen) holds a stop up at most CLOSE_WAIT_S;
    # the page only listens, so nothing it sends needs to be big.
    ws = web.WebSocketResponse(heartbeat=30, timeout=CLOSE_WAIT_S, max_msg_size=4096)
    await ws.prepare(request)
    sockets = request.app[SOCKETS]
    sockets.add(ws)
    sender = asyncio.create_task(_follow(request.app[HUB], ws))
    try:
        async for message in ws:  # the page only listens; reading notices the close
            if message.type == WSMsgType.ERROR:
                break
    finally:
        sender.cancel()
        sockets.discard(ws)
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
    runtime = request.app[RUNTIME]
    name, args = checked(await body(request), request.app[SETTINGS]["layout"]["size"], runtime.games)
    if runtime.health().status == STOPPED:
        return error_response(503, runtime.health().words)
    if not runtime.offer(Command(runtime.clock(), name, args)):
        return error_response(503, runtime.queue.busy_reason())
    return web.json_response({"queued": name}, status=202)


async def _board_verb(request: web.Request) -> web.Response:
    board = request.app[BOARD]
    if board is None:
        return error_response(404, "there is no virtual board: this daemon runs real hardware")
    verb = request.match_info["verb"]
    if verb not in VERBS:
        return error_response(404, f"unknown board action {shown(verb)}; one of {', '.join(VERBS)}")
    if request.app[RUNTIME].queue.is_busy():
        return error_response(503, request.app[RUNTIME].queue.busy_reason())
    done = VERBS[verb](board, await body(request), request.app[LIMITS])
    return web.json_response(done if isinstance(done, dict) else {"done": verb})


async def _summary(request: web.Request) -> web.Response:
    detail = request.app[RUNTIME].snapshot.get("detail") or {}
    text = detail.get("summary_csv")
    if not isinstance(text, str):
        return error_response(404, "the game in play keeps no summary (a Picture-Puzzle game does)")
    name = f"pentago-summary-{datetime.datetime.now():%Y%m%d-%H%M}.csv"
    return web.Response(text=text, content_type="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def _record(request: web.Request) -> web.Response:
    text = game_record(request.app[RUNTIME].snapshot, datetime.date.today().isoformat())
    if text is None:
        return error_response(404, "no game has been started yet: there is no record to download")
    name = f"pentago-{datetime.datetime.now():%Y%m%d-%H%M}.txt"
    return web.Response(text=text, content_type="text/plain",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
