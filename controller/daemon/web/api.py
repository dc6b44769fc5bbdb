"""Reading and checking request bodies: every problem is a 400 with a message naming the field."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


class BadRequest(Exception):
    """A malformed request; the message is sent back to the client as ``{"error": ...}``."""


async def body(request: web.Request) -> dict[str, Any]:
    """The JSON object in the request body."""
    try:
        data = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the request body is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise BadRequest(f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    """``data[name]`` if it has the right type (bools are not numbers here)."""
    if name not in data:
        if default is ...:
            raise BadRequest(f"missing field {name!r}")
        return default
    value = data[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise BadRequest(f"field {name!r} = {value!r} has the wrong type")
    if not isinstance(value, kind):
        raise BadRequest(f"field {name!r} = {value!r} has the wrong type")
    return value


def error_response(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
