"""Commands arriving on the board's command topic, checked before anything reaches the core.

A payload is a JSON object ``{"name": ..., "args": {...}}`` exactly as ``POST /api/command``
takes it, and checked by the same code (:func:`controller.daemon.requests.checked`), so a
command is refused here for the same reasons as there. MQTT adds two optional keys: ``board_name``
(a command naming another board is refused: a console addressing boards by name must not start
a game on the wrong one) and ``id`` (echoed in the answer event, so the sender can match it).
A retained command is refused too: the broker would hand it over again at every reconnect.
A new game's options are checked for the board's size as the web console checks them, so a
game, a picture or a number of players the board cannot play is a ``refused`` event naming it
(with the request's ``id`` whenever the payload named one), never a ``command`` the core then
refuses in a notice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import shown
from ...games import SHIPPED, Catalogue
from ..web.api import MAX_BODY_BYTES, BadRequest, field, parse_json, short_text, text
from ..requests import checked, command

MAX_ID_CHARS = 64


class Refused(ValueError):
    """A command that is not carried out; the message says why (for the log and the sender),
    ``id`` the request's when the payload named one."""

    def __init__(self, reason: str, id: str | int | None = None) -> None:
        super().__init__(reason)
        self.id = id


@dataclass(frozen=True)
class Request:
    name: str
    args: Mapping[str, Any]  # a new game's checked options (a GameOptions) when checked for the size
    id: str | int | None = None


def parse_request(payload: bytes, board: str, *, retained: bool = False, size: int | None = None,
                  games: Catalogue = SHIPPED) -> Request:
    """The checked command in ``payload`` for board ``board`` (of ``size``: a new game's options
    are checked for it, as its ``games`` offer them; None: by the core alone); raises Refused
    saying why."""
    if not payload:
        raise Refused("an empty command does nothing (it is how a retained message is cleared)")
    if retained:
        raise Refused("a retained command is refused: it would run again at every reconnect; "
                      "publish commands without the retain flag")
    if len(payload) > MAX_BODY_BYTES:
        raise Refused(f"the command is {len(payload)} bytes; at most {MAX_BODY_BYTES}")
    request_id = None
    try:
        data = parse_json(payload)
        if not isinstance(data, dict):
            raise BadRequest(f"a command must be a JSON object, not {type(data).__name__}")
        addressed = text(data, "board_name", 32, board)
        if addressed != board:
            raise BadRequest(f"the command is for board {shown(addressed)}, and this is board {board!r}")
        request_id = _request_id(data)
        name, args = checked(data, size, games) if size is not None else command(data, games)
    except BadRequest as error:
        raise Refused(str(error).replace("the request body", "the command"), request_id) from None
    return Request(name, args, request_id)


def _request_id(data: dict[str, Any]) -> str | int | None:
    value: str | int | None = field(data, "id", (str, int, type(None)), None)
    return short_text("id", value, MAX_ID_CHARS) if isinstance(value, str) else value
