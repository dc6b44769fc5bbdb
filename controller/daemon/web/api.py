"""Reading and checking request bodies: every problem is a 400 with a message naming the field.

Bodies are small JSON objects; anything else (too big, too deep, a number longer than any the
board uses, NaN) is refused here, before a handler does any work with it.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from ...checks import CheckError, text_fault, within
from ...errors import shown

MAX_BODY_BYTES = 16 * 1024  # the largest real request is under 200 bytes
MAX_INT_DIGITS = 18  # no count, hole or block on any board needs more
SHOWN_CHARS = 40  # how much of a bad value a message quotes


class BadRequest(CheckError):
    """A malformed request; the message is sent back to the client as ``{"error": ...}``. A
    ValueError (and a PentagoError) as every CheckError is: a handler catching those catches
    BadRequest first (see the middleware in app.py)."""

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message, "request", key)


async def body(request: web.Request) -> dict[str, Any]:
    """The JSON object in the request body."""
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise BadRequest(f"the request body is {request.content_length} bytes; at most {MAX_BODY_BYTES}")
    raw = await request.content.read(MAX_BODY_BYTES + 1)
    if len(raw) > MAX_BODY_BYTES:
        raise BadRequest(f"the request body is over {MAX_BODY_BYTES} bytes")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise BadRequest(f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def parse_json(raw: bytes) -> Any:
    """``raw`` as JSON, or BadRequest saying what is wrong with it."""
    try:
        return json.loads(raw.decode("utf-8"), parse_int=_small_int, parse_constant=_no_constant)
    except RecursionError:
        raise BadRequest("the request body nests too deeply") from None
    except BadRequest:
        raise
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        raise BadRequest(f"the request body is not JSON ({cut(str(exc), 80)})") from None


def _small_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadRequest(f"the number {cut(text)} is too long (at most {MAX_INT_DIGITS} digits)")
    return int(text)


def _no_constant(text: str) -> float:
    raise BadRequest(f"{text} is not a number the board accepts")


def field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    """``data[name]`` if it has the right type (bools are not numbers here)."""
    if name not in data:
        if default is ...:
            raise BadRequest(f"missing field {name!r}", name)
        return default
    value = data[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)) \
            or not isinstance(value, kind):
        raise BadRequest(f"field {name!r} = {shown(value)} has the wrong type", name)
    return value


def bounded(data: dict[str, Any], name: str, low: int, high: int) -> int:
    """The whole number ``data[name]``, from ``low`` to ``high``."""
    value: int = field(data, name, int)
    if not within(value, low, high, whole=True):
        raise BadRequest(f"field {name!r} = {value} is out of range; from {low} to {high}", name)
    return value


def text(data: dict[str, Any], name: str, max_chars: int, default: Any = ...) -> Any:
    """The string ``data[name]`` of at most ``max_chars`` characters, none a control character
    (or ``default``)."""
    value = field(data, name, str, default)
    return short_text(name, value, max_chars) if isinstance(value, str) else value


def short_text(name: str, value: str, max_chars: int) -> str:
    """``value``, the text of field ``name``, or BadRequest if it is too long or holds a
    control character."""
    fault = text_fault(value, max_chars)
    if fault is not None:
        raise BadRequest(f"field {name!r} = {shown(value)} {fault}", name)
    return value


def cut(text: str, limit: int = SHOWN_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def error_response(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
