"""The log of the requests aiohttp refuses before any handler sees them (malformed HTTP).

aiohttp answers a request it cannot parse (a NUL in the request line, a duplicate Host, a line
too long, TLS on the HTTP port) with a 400 and logs "Error handling request" with a traceback
whose message quotes the request: its address with the ``?token=`` in it, or a header line.
300 such requests once wrote 141 KB of log in 0.43 s, the console's token included. Given to
the runner as its ``logger``, :class:`RefusalLog` writes instead one short line per client and
per :data:`QUIET_S` at most, naming the kind of error only (never its text, which may hold the
request), and how many more that client sent since its last line.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..logs import event as log

QUIET_S = 60.0  # one line per client this often at most
CLIENTS = 1024  # clients remembered; the longest quiet is forgotten first
WORDS = {  # aiohttp's parser errors in words (their own messages may quote the request)
    "InvalidURLError": "a character no address may hold",
    "LineTooLong": "a line too long",
    "InvalidHeader": "a malformed header",
    "BadHttpMethod": "not an HTTP request (TLS on the HTTP port?)",
    "BadStatusLine": "not an HTTP request line",
    "ContentLengthError": "a body of another length than it said",
    "TransferEncodingError": "a malformed chunked body",
    "BadHttpMessage": "a malformed request (a duplicate Host header, say)",
}


class RefusalLog:
    """Stands in for aiohttp's server logger (``AppRunner(..., logger=RefusalLog())``)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, quiet_s: float = QUIET_S) -> None:
        self.clock, self.quiet_s = clock, quiet_s
        self.refused = 0  # every refusal, logged or not
        self._clients: OrderedDict[str, tuple[float, int]] = OrderedDict()  # last line, refusals since

    def exception(self, message: str, *args: Any, exc_info: Any = None, **kwargs: Any) -> None:
        """aiohttp's "Error handling request from %s" (args: the client's address)."""
        self.refused += 1
        client = str(args[0]) if args else "unknown"
        error = exc_info if isinstance(exc_info, BaseException) else None
        now = self.clock()
        last, since = self._clients.pop(client, (None, 0))
        if last is not None and now - last < self.quiet_s:
            self._remember(client, last, since + 1)
            return
        self._remember(client, now, 0)
        kind = type(error).__name__ if error is not None else "error"
        log("malformed HTTP request refused", logging.WARNING, client=client,
            reason=WORDS.get(kind, kind), **({"more": since} if since else {}))

    error = exception  # aiohttp's other complaint about a request reads the same

    def warning(self, message: str, *args: Any, **kwargs: Any) -> None:
        """aiohttp's own misconfiguration notes: the text alone (its arguments are the runner's)."""
        log(message, logging.WARNING)

    def debug(self, *args: Any, **kwargs: Any) -> None:
        """aiohttp's debug notes (a client gone early, TLS on the HTTP port): not for the log."""

    info = debug

    def _remember(self, client: str, last: float, since: int) -> None:
        self._clients[client] = (last, since)
        while len(self._clients) > CLIENTS:
            self._clients.popitem(last=False)
