"""`pentago-board sim`: prints its address with this run's token (only there, never in the log),
serves the chosen board, stops cleanly leaving no temporary folder, and names a busy port."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

from ..daemon.daemon_proc import ROOT


def sim(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "controller", "sim", "--no-browser", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})


def test_sim_on_any_port_serves_the_9x9_board_and_stops_on_sigint_leaving_no_temp_folder(tmp_path):
    proc = sim("--port", "0", "--board", "9x9", env={"TMPDIR": str(tmp_path)})
    try:
        line = proc.stdout.readline()
        found = re.fullmatch(r"Virtual board: (http://127\.0\.0\.1:\d+/)\?token=([\w-]+)  \(Ctrl-C to stop\)\n", line)
        assert found, line
        base, token = found.groups()
        assert "shown only here" in proc.stdout.readline()
        with urllib.request.urlopen(f"{base}api/layout?token={token}", timeout=10) as response:
            layout = json.loads(response.read())["layout"]
        assert (layout["size"], layout["virtual"], len(layout["blocks"])) == (9, True, 9)
        with urllib.request.urlopen(base, timeout=10) as response:  # the page itself needs no token
            assert b"<svg id=\"board\"" in response.read()
        assert list(tmp_path.glob("pentago-sim-*"))  # the game's journal lives there while it runs
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0
    finally:
        proc.kill()
    log = proc.stderr.read()
    assert token not in log and "token=\"the address sim printed on its terminal\"" in log
    assert list(tmp_path.glob("pentago-sim-*")) == []


def test_the_sim_api_wants_the_printed_token():
    proc = sim("--port", "0")
    try:
        base = proc.stdout.readline().split()[2].split("?")[0]
        try:
            urllib.request.urlopen(base + "api/state", timeout=10)
            raise AssertionError("answered without the token")
        except urllib.error.HTTPError as error:
            assert error.code == 401 and "needs its token" in json.loads(error.read())["error"]
    finally:
        proc.kill()
        proc.wait(15)


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


def test_sim_with_presence_sensing_confirms_chosen_colours_with_the_buttons(tmp_path):
    from controller.commands.sim import profile_for
    from controller.profile import load_profile

    assert profile_for("9x9", "colour", tmp_path) == "virtual-9x9"
    profile = load_profile(profile_for("6x6", "presence", tmp_path))
    assert (profile.name, profile.sensing, profile.driver) == ("virtual-6x6-presence", "presence", "virtual")
    assert (profile.colour_input.method, profile.colour_input.cycle, profile.colour_input.confirm) == ("confirm", "back", "ok")


def _started(proc: subprocess.Popen[str]) -> tuple[str, str]:
    found = re.fullmatch(r"Virtual board: (http://127\.0\.0\.1:\d+/)\?token=([\w-]+)  \(Ctrl-C to stop\)\n",
                         proc.stdout.readline())
    assert found
    return found.groups()


def _api(base: str, token: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}?token={token}", data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _until(check, seconds: float = 10.0):
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if (found := check()):
            return found
        time.sleep(0.1)
    return check()


def test_a_journalled_sim_comes_back_with_its_marbles_and_prints_one_address(tmp_path):
    """Issue 22, items 13 and 10: `sim --journal FILE` resumed the game on an empty virtual
    board (every marble back through repair); and the log printed a second address, without
    the token, just above the one to open."""
    journal = tmp_path / "journal.jsonl"
    proc = sim("--port", "0", "--journal", str(journal))
    try:
        base, token = _started(proc)
        _api(base, token, "api/command", {"name": "new_game", "args": {"game": "classic"}})
        assert _until(lambda: _api(base, token, "api/state")["state"]["state"] == "awaiting_placement")
        for verb, body, then in (("place", {"hole": "b5", "colour": "white"}, "awaiting_twist"),
                                 ("quarter", {"block": 1, "clockwise": True}, "awaiting_placement"),
                                 ("place", {"hole": "e2", "colour": "black"}, "awaiting_twist")):
            _api(base, token, f"api/board/{verb}", body)
            assert _until(lambda: _api(base, token, "api/state")["state"]["state"] == then)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0
    finally:
        proc.kill()
    assert "url=" not in proc.stderr.read()
    proc = sim("--port", "0", "--journal", str(journal))
    try:
        base, token = _started(proc)
        message = _until(lambda: (m := _api(base, token, "api/state"))["state"].get("moves") == ["b5 1R"] and m)
        assert message["state"]["state"] == "awaiting_twist" and message["state"]["repair"] == []
        assert message["marbles"] == {"25": "white", "10": "black"}  # b5 (block 1's centre) and e2
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(15)
        proc.kill()
