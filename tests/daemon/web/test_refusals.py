"""What the web console answers and logs for requests from outside that are not what they should
be (issue 19, item 14): bytes that are not UTF-8 in the token header, a file name longer than any
file's, and malformed HTTP that aiohttp refuses before our handlers see it."""

from __future__ import annotations

import asyncio
import json
import logging
import socket

import pytest
from aiohttp.test_utils import TestServer

from controller.core import Core
from controller.daemon.runtime import Runtime
from controller.daemon.web.app import build_app
from controller.daemon.web.refusals import RefusalLog
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.profile import load_profile

from ..fakes import FakeJournal, FakeNotifier

PROFILE = load_profile("virtual-6x6")
TOKEN = "s3cret-token-XYZ"


def exchange(port: int, raw: bytes) -> bytes:
    """Send ``raw`` on a fresh connection; the status line of the answer."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(raw)
        sock.settimeout(5)
        answer = b""
        while b"\r\n\r\n" not in answer and (chunk := sock.recv(4096)):
            answer += chunk
    return answer


def serve(requests):
    """Answers to each raw request (``{port}`` filled in) from a console with a token."""
    board = VirtualBoard.from_profile(PROFILE, buttons=("ok", "back"))
    runtime = Runtime(Core(PROFILE), inputs=board, pixels=VirtualPixels(PROFILE.leds.length),
                      journal=FakeJournal(), notifier=FakeNotifier())

    async def main():
        server = TestServer(build_app(runtime, PROFILE, board=board, token=TOKEN))
        await server.start_server(logger=RefusalLog(), access_log=None)  # as service._start_web runs it
        try:
            loop = asyncio.get_running_loop()
            return [await loop.run_in_executor(None, exchange, server.port,
                                               raw.replace(b"{port}", str(server.port).encode()))
                    for raw in requests]
        finally:
            await server.close()

    return asyncio.run(main())


HOST = b"Host: 127.0.0.1:{port}\r\n"


def test_a_token_header_that_is_not_utf8_is_refused_as_no_token_not_a_500():
    answer, = serve([b"GET /api/state HTTP/1.1\r\n" + HOST + b"Authorization: Bearer \xff\xfe\r\n\r\n"])
    assert answer.startswith(b"HTTP/1.1 401 ")
    assert b"this console needs its token" in answer


@pytest.mark.parametrize("length", [300, 5000])
def test_a_file_name_longer_than_any_file_s_is_a_404(length):
    answer, = serve([b"GET /static/" + b"a" * length + b" HTTP/1.1\r\n" + HOST + b"\r\n"])
    assert answer.startswith(b"HTTP/1.1 404 ")
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body["error"].startswith("no file 'aaaa") and "app.js" in body["error"] and len(body["error"]) < 200


def test_the_page_s_own_files_are_still_served():
    answer, = serve([b"GET /static/app.js HTTP/1.1\r\n" + HOST + b"\r\n"])
    assert answer.startswith(b"HTTP/1.1 200 ")


def test_malformed_http_is_answered_400_and_logged_once_per_client_without_the_token(caplog):
    with_token = b"?token=" + TOKEN.encode()
    nul = b"GET /api/st\x00ate" + with_token + b" HTTP/1.1\r\n" + HOST + b"\r\n"
    twice = b"GET /api/state" + with_token + b" HTTP/1.1\r\n" + HOST + HOST + b"\r\n"
    long_line = b"GET /api/state" + with_token + b"&" + b"x" * 9000 + b" HTTP/1.1\r\n" + HOST + b"\r\n"
    with caplog.at_level(logging.DEBUG):
        answers = serve([nul, twice, long_line] * 50)
    assert all(a.startswith(b"HTTP/1.0 400 ") or a.startswith(b"HTTP/1.1 400 ") for a in answers)
    text = "\n".join(r.getMessage() + str(getattr(r, "fields", "")) + str(r.exc_info or "") for r in caplog.records)
    assert TOKEN not in text and "Traceback" not in text
    refused = [r for r in caplog.records if r.getMessage() == "malformed HTTP request refused"]
    assert len(refused) == 1 and refused[0].fields["client"] == "127.0.0.1"
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == refused


def test_a_client_refused_again_after_the_quiet_time_is_logged_with_how_many_came_between(caplog):
    now = [0.0]
    refusals = RefusalLog(clock=lambda: now[0])
    with caplog.at_level(logging.WARNING):
        for t in (0.0, 1.0, 30.0, 61.0, 62.0):
            now[0] = t
            refusals.exception("Error handling request from %s", "10.0.0.7", exc_info=ValueError("GET /?token=x"))
        refusals.exception("Error handling request from %s", "10.0.0.8", exc_info=None)
    assert [r.fields for r in caplog.records] == [
        {"client": "10.0.0.7", "reason": "ValueError"},
        {"client": "10.0.0.7", "reason": "ValueError", "more": 2},
        {"client": "10.0.0.8", "reason": "error"}]
    assert refusals.refused == 6
