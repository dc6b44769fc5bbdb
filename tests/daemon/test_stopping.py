"""Stop must always stop (issue 9, items 10 and 11): a SIGTERM that arrives while the event loop
is busy and its wake-up pipe is full, and a stop with a browser tab's WebSocket open."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import textwrap
import time

import aiohttp
import pytest

from .daemon_proc import ROOT, DaemonProcess

# A daemon (fake runtime, no web console) whose loop is kept busy by a blocking callback while
# another thread floods call_soon_threadsafe (as the core thread's state updates do) until the
# loop's self-pipe is full, then sends SIGTERM. Before the fix the signal's wake-up byte was
# lost with a BlockingIOError and the daemon ran on for ever.
BUSY_LOOP_SCRIPT = textwrap.dedent("""
    import asyncio, os, signal, threading, time
    from types import SimpleNamespace
    from controller.daemon import service
    from controller.daemon.config import Config
    from tests.daemon.fakes import FakeJournal, FakeNotifier

    from controller.daemon.health import live
    runtime = SimpleNamespace(start=lambda: None, stop=lambda: None, notifier=FakeNotifier(),
                              journal=FakeJournal(), tape=None, failed=False,
                              health=live, health_listeners=[], core_gone=lambda: False)
    daemon = SimpleNamespace(config=Config(), runtime=runtime, profile=SimpleNamespace(name="fake"), urls=[])

    def flood_then_terminate(loop):
        for _ in range(400_000):
            loop.call_soon_threadsafe(lambda: None)
        os.kill(os.getpid(), signal.SIGTERM)

    def busy(loop):
        thread = threading.Thread(target=flood_then_terminate, args=(loop,))
        thread.start()
        thread.join()  # the loop is stuck here, as in a long request, while the pipe fills
        time.sleep(0.2)

    async def main():
        loop = asyncio.get_running_loop()
        return await service.serve(daemon, on_listening=lambda urls: loop.call_soon(busy, loop))

    print("exit", asyncio.run(main()), flush=True)
""")


def test_sigterm_while_the_loop_is_busy_and_its_wakeup_pipe_full_still_stops():
    assert _run_with_deadline(BUSY_LOOP_SCRIPT, 30) == "exit 0"


def _run_with_deadline(script: str, timeout_s: float) -> str:
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return f"still running after {timeout_s}s; stderr:\n{err[-2000:]}"
    return out.strip() or err[-2000:]


@pytest.fixture
def daemon(tmp_path):
    d = DaemonProcess(tmp_path)
    yield d
    d.close()


def test_sigterm_with_a_browser_tab_open_stops_within_about_a_second(daemon):
    daemon.start().ready()

    async def open_tab_then_stop() -> tuple[float, aiohttp.WSMessage]:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"http://127.0.0.1:{daemon.port}/api/live")
            await ws.receive()  # the first state: the tab is live
            started = time.monotonic()
            daemon.signal(signal.SIGTERM)
            closing = await ws.receive(timeout=30)
            return started, closing

    started, closing = asyncio.run(open_tab_then_stop())
    assert daemon.wait(timeout_s=30) == 0
    took_s = time.monotonic() - started
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    assert took_s < 3, f"stopping took {took_s:.1f}s with a tab open"


def test_a_tab_that_never_answers_the_close_does_not_hold_the_stop_up(daemon):
    daemon.start().ready()
    with socket.create_connection(("127.0.0.1", daemon.port), timeout=10) as sock:
        sock.sendall(f"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:{daemon.port}\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        assert sock.recv(4096).startswith(b"HTTP/1.1 101")  # then it reads and answers nothing
        started = time.monotonic()
        daemon.signal(signal.SIGTERM)
        assert daemon.wait(timeout_s=30) == 0
    took_s = time.monotonic() - started
    assert took_s < 3, f"stopping took {took_s:.1f}s with a silent tab open"
