"""Robustness: a real daemon's web console flooded, and what that costs the log and a stop.

Starts ``pentago-board run`` on the virtual board with a token, then:

1. malformed HTTP: ``--malformed`` requests over fresh connections, each of one kind (a NUL in the
   request line, a duplicate Host, a request line too long, TLS on the HTTP port, a token header
   that is not UTF-8, a file name longer than any file's), the token in each address. Prints the
   answers by status, the requests per second, the bytes the log grew by and how often the
   token appears in it (must be 0), and the log lines per 100 requests;
2. commands: ``--commands`` ``new_game`` posts from 8 threads at once; prints how many were
   taken (202) and refused busy (503), then how long a SIGTERM takes to stop the daemon (the
   queue it leaves behind is dropped, never worked through).

    .venv/bin/python bench/robustness/web_floods.py [--malformed 3000] [--commands 3000]
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.daemon.daemon_proc import DaemonProcess  # noqa: E402

TOKEN = "flood-token-7f3a9c"
KINDS = ("nul", "duplicate_host", "long_line", "tls", "auth_not_utf8", "long_file_name")


def request_bytes(kind: str, port: int) -> bytes:
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    query = b"?token=" + TOKEN.encode()
    return {
        "nul": b"GET /api/st\x00ate" + query + b" HTTP/1.1\r\n" + host + b"\r\n",
        "duplicate_host": b"GET /api/state" + query + b" HTTP/1.1\r\n" + host + host + b"\r\n",
        "long_line": b"GET /api/state" + query + b"&" + b"x" * 9000 + b" HTTP/1.1\r\n" + host + b"\r\n",
        "tls": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(64),
        "auth_not_utf8": b"GET /api/state HTTP/1.1\r\n" + host + b"Authorization: Bearer \xff\xfe\r\n\r\n",
        "long_file_name": b"GET /static/" + b"a" * 5000 + b" HTTP/1.1\r\n" + host + b"\r\n",
    }[kind]


def status_of(port: int, raw: bytes) -> str:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(raw)
            answer = sock.recv(64)
    except OSError as error:
        return type(error).__name__
    return answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/") else "no answer"


def malformed(daemon: DaemonProcess, count: int) -> dict[str, object]:
    log = daemon.tmp_path / "daemon.log"
    while b"board live" not in log.read_bytes():  # READY=1 comes just before that last start-up line
        time.sleep(0.02)
    before = log.stat().st_size
    began = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        answers = Counter(pool.map(lambda n: f"{KINDS[n % len(KINDS)]} {status_of(daemon.port, request_bytes(KINDS[n % len(KINDS)], daemon.port))}",
                                   range(count)))
    seconds = time.monotonic() - began
    time.sleep(0.3)  # the last lines reach the log
    grown = log.read_bytes()[before:]
    return {"requests": count, "answers": dict(sorted(answers.items())), "per_s": round(count / seconds),
            "log_bytes": len(grown), "log_lines": grown.count(b"\n"), "token_in_log": grown.count(TOKEN.encode()),
            "tracebacks": grown.count(b"Traceback")}


def post(port: int, body: dict) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/command", data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def commands(daemon: DaemonProcess, count: int) -> dict[str, object]:
    body = {"name": "new_game", "args": {"game": "classic"}}
    began = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        statuses = Counter(pool.map(lambda n: post(daemon.port, body), range(count)))
    posted_s = time.monotonic() - began
    stopping = time.monotonic()
    daemon.signal(signal.SIGTERM)
    status = daemon.wait(60)
    return {"posted": count, "statuses": dict(statuses), "post_s": round(posted_s, 2),
            "stop_s": round(time.monotonic() - stopping, 2), "exit": status}


def run(malformed_count: int = 3000, command_count: int = 3000) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="web-floods-") as tmp:
        daemon = DaemonProcess(Path(tmp), web=f'token = "{TOKEN}"\n', watchdog_usec=0)
        daemon.token = TOKEN
        try:
            daemon.start().ready()
            figures = {"malformed": malformed(daemon, malformed_count)}
            figures["commands"] = commands(daemon, command_count)
        finally:
            daemon.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--malformed", type=int, default=3000, help="malformed requests (default 3000)")
    parser.add_argument("--commands", type=int, default=3000, help="new_game commands (default 3000)")
    args = parser.parse_args()
    figures = run(args.malformed, args.commands)
    print(json.dumps(figures, indent=2))
    bad = figures["malformed"]
    return 1 if bad["token_in_log"] or bad["tracebacks"] or figures["commands"]["exit"] != 0 else 0  # type: ignore[index]


if __name__ == "__main__":
    sys.exit(main())
