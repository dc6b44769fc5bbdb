"""Who may use the console: the right Host, no foreign Origin, and the token when one is set.

A web page the user happens to visit can make the browser send requests to 127.0.0.1 (a form
or a ``text/plain`` POST needs no permission) and can rename itself to it (DNS rebinding). So:

- every request must name this console in its Host header: 127.0.0.1, localhost, [::1] or the
  configured bind address, with the port it came in on. On a wildcard bind (0.0.0.0, ::) the
  board is reached from other machines by its address or host name, so any IP literal and this
  machine's host name are accepted too (a rebinding attack always arrives with a DNS name);
- a request carrying an Origin (every browser POST and WebSocket does) must come from a page
  this console served; requests without one (curl, scripts) pass on the Host check;
- with a token set, every /api route wants it as ``Authorization: Bearer <token>`` or
  ``?token=<token>``.

A refusal is a 403 (401 for the token) with a message saying what to do instead.
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web

from .api import cut, error_response

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::")


class HostNames:
    """The host names this console answers to (without ports)."""

    def __init__(self, bind: str) -> None:
        self.wildcard = bind in WILDCARDS
        names = {*LOCAL_NAMES, f"[{bind}]" if ":" in bind else bind}
        if self.wildcard:
            host = socket.gethostname().lower()
            names |= {host, f"{host}.local", socket.getfqdn().lower()}
        self.names = frozenset(names)

    def described(self) -> str:
        """The names, for a message: ``127.0.0.1, [::1] or localhost``."""
        names = sorted(self.names - {"0.0.0.0", "[::]"}) + (["an IP address of this machine"] if self.wildcard else [])
        return ", ".join(names[:-1]) + " or " + names[-1]

    def allows(self, host: str, port: int) -> bool:
        """True when ``host`` (a Host header or an Origin's netloc) names this console."""
        name, given_port = _split_port(host.lower())
        if given_port is None:
            given_port = 80
        if given_port != port:
            return False
        return name in self.names or (self.wildcard and _is_ip_literal(name))


def _split_port(host: str) -> tuple[str, int | None]:
    """``("name", port)`` from ``name:port`` or ``[v6]:port``; port None when absent, -1 when bad."""
    if host.startswith("["):
        name, _, rest = host.partition("]")
        name, port = name + "]", rest.removeprefix(":")
        if not rest:
            return name, None
        if not rest.startswith(":"):
            return host, -1
    elif host.count(":") == 1:
        name, _, port = host.partition(":")
    else:
        return host, None
    return (name, int(port)) if port.isdigit() and len(port) <= 5 else (name, -1)


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return True


def guard(bind: str, token: str) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The middleware refusing requests from anywhere but this console's own pages."""
    hosts = HostNames(bind)

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        problem = _foreign(request, hosts) or _missing_token(request, token)
        return problem or await handler(request)

    return check


def _foreign(request: web.Request, hosts: HostNames) -> web.Response | None:
    port = _local_port(request)
    host = request.headers.get("Host", "")
    if not hosts.allows(host, port):
        return error_response(403, f"refused: Host {cut(host)!r} is not this console; open it "
                                   f"as {hosts.described()} with port {port}")
    origin = request.headers.get("Origin")
    if origin is not None and not _same_origin(origin, hosts, port):
        return error_response(403, f"refused: a page from {cut(origin)!r} may not use this console; "
                                   "only its own page (or a script without an Origin) may")
    return None


def _same_origin(origin: str, hosts: HostNames, port: int) -> bool:
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and hosts.allows(parts.netloc, port)


def _local_port(request: web.Request) -> int:
    """The port the request came in on (the configured one, or the one picked for port 0)."""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    return int(sockname[1]) if isinstance(sockname, tuple) and len(sockname) >= 2 else 0


def _missing_token(request: web.Request, token: str) -> web.Response | None:
    if not token or not request.path.startswith("/api/"):
        return None
    header = request.headers.get("Authorization", "")
    given = header.removeprefix("Bearer ") if header.startswith("Bearer ") else request.query.get("token", "")
    # Bytes that are not UTF-8 reach us as surrogates: they can be no token, but must not raise.
    if hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode()):
        return None
    return error_response(401, "this console needs its token: open the address with ?token=... "
                               "that `pentago-board sim` printed, or the one set as web.token "
                               "or PENTAGO_BOARD_TOKEN for `pentago-board run`")
