"""`pentago-board sim`: prints its address, serves the chosen board, stops cleanly, and names a
busy port."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import urllib.request

from .daemon_proc import ROOT


def sim(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "controller", "sim", "--no-browser", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_sim_on_any_port_serves_the_9x9_board_and_stops_on_sigint():
    proc = sim("--port", "0", "--board", "9x9")
    try:
        line = proc.stdout.readline()
        assert line.startswith("Virtual board: http://127.0.0.1:") and line.rstrip().endswith("/  (Ctrl-C to stop)")
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/layout", timeout=10) as response:
            layout = json.loads(response.read())["layout"]
        assert (layout["size"], layout["virtual"], len(layout["blocks"])) == (9, True, 9)
        with urllib.request.urlopen(url, timeout=10) as response:
            assert b"<svg id=\"board\"" in response.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0
    finally:
        proc.kill()


def test_a_busy_port_is_named_with_what_to_do():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = sim("--port", str(port))
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert f"web.port = {port}: cannot listen on 127.0.0.1" in err
    assert "choose another port (sim: --port N, 0 for any)" in err
