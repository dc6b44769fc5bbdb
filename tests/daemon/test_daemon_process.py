"""The daemon as systemd runs it, in a subprocess on the virtual profile: READY and watchdog
pings on a notify socket, SIGTERM with the journal intact, SIGKILL and resume, SIGHUP reload,
config errors at start-up, and the console's token."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from controller.journal import Journal

from .daemon_proc import ROOT, DaemonProcess


@pytest.fixture
def daemon(tmp_path):
    made: list[DaemonProcess] = []

    def make(**kw) -> DaemonProcess:
        made.append(DaemonProcess(tmp_path, **kw))
        return made[-1]

    yield make
    for d in made:
        d.close()


def play(d: DaemonProcess, *actions: tuple[str, dict]) -> None:
    for verb, body in actions:
        status, answer = d.api(f"/api/board/{verb}", body)
        assert status == 200, answer


def new_game(d: DaemonProcess) -> None:
    assert d.api("/api/command", {"name": "new_game", "args": {"game": "classic"}})[0] == 202
    d.wait_state(lambda s: s["state"] == "awaiting_placement")


def test_ready_then_watchdog_pings_then_sigterm_exits_0_with_the_journal_intact(daemon):
    d = daemon().start()
    assert "READY=1" in "".join(d.messages("READY=1"))
    pings = [m for m in d.messages("WATCHDOG=1") + d.messages("WATCHDOG=1") if m == "WATCHDOG=1"]
    assert len(pings) >= 2
    new_game(d)
    play(d, ("place", {"hole": "b5"}), ("quarter", {"block": 4, "clockwise": True}))
    d.wait_state(lambda s: s["moves"] == ["b5 4R"])
    d.signal(signal.SIGTERM)
    assert d.wait() == 0
    assert "STOPPING=1" in d.messages("STOPPING=1")
    records = Journal(d.journal).read()
    assert [r["kind"] for r in records][-2:] == ["place", "twist"]


def test_a_killed_daemon_resumes_the_game_and_guides_the_board_back(daemon):
    d = daemon().start().ready()
    new_game(d)
    play(d, ("place", {"hole": "b5"}), ("quarter", {"block": 4, "clockwise": True}))
    d.wait_state(lambda s: s["moves"] == ["b5 4R"])
    play(d, ("place", {"hole": "e2"}))
    d.wait_state(lambda s: s["state"] == "awaiting_twist" and s["board"][4][4] == "o")
    d.signal(signal.SIGKILL)
    assert d.wait() == -signal.SIGKILL

    d.restart().ready()
    # The virtual board came back empty: the game resumes and repair mode asks for the marbles.
    state = d.wait_state(lambda s: s["state"] == "repair")
    assert state["moves"] == ["b5 4R"] and state["board"][4][4] == "o"
    play(d, ("place", {"hole": "b5"}), ("place", {"hole": "e2"}))
    state = d.wait_state(lambda s: s["state"] == "awaiting_twist")
    assert state["to_move"] == 2 and state["moves"] == ["b5 4R"]


def test_the_tape_records_the_physical_input(daemon, tmp_path):
    from controller.tape import read_tape

    tape = tmp_path / "input.tape.jsonl"
    d = daemon(storage=f'tape = "{tape}"\n').start().ready()
    new_game(d)
    play(d, ("place", {"hole": "b5"}), ("quarter", {"block": 4, "clockwise": True}), ("press", {"button": "back"}))
    d.wait_state(lambda s: s["moves"] == ["b5 4R"])
    d.signal(signal.SIGTERM)
    assert d.wait() == 0
    recorded = read_tape(tape)
    assert (recorded.header.size, recorded.header.detents_per_quarter) == (6, 6)
    names = [type(e).__name__ for e in recorded.events]
    assert names.count("EncoderSteps") == 6 and names[-1] == "ButtonPress"
    marbles = [e.hole for e in recorded.events if getattr(e, "reading", "") == "marble"]
    assert marbles[0] == 25  # b5, as the core saw it (the start-up readings come first)


def test_sighup_reloads_the_brightness_and_refuses_a_bad_config(daemon):
    d = daemon().start().ready()
    d.config.write_text(d.config.read_text().replace("brightness = 1.0", "brightness = 0.25"))
    d.signal(signal.SIGHUP)
    _wait_for_log(d, 'msg="config reloaded" brightness=0.25 computer_level=2')
    d.config.write_text(d.config.read_text().replace("brightness = 0.25", "brightness = 7"))
    d.signal(signal.SIGHUP)
    _wait_for_log(d, "reload refused")
    assert "lights.brightness = 7 is not allowed" in d.log
    d.signal(signal.SIGTERM)
    assert d.wait() == 0


def _wait_for_log(d: DaemonProcess, text: str) -> None:
    end = time.monotonic() + 10
    while text not in d.log and time.monotonic() < end:
        time.sleep(0.05)
    assert text in d.log


def test_a_public_console_makes_a_token_once_keeps_it_private_and_never_logs_it(daemon):
    d = daemon(web='bind = "0.0.0.0"\n').start().ready()
    kept = d.journal.parent / "web-token"
    d.token = kept.read_text().strip()
    assert d.token and kept.stat().st_mode & 0o777 == 0o600
    assert d.token not in d.log and f"token={kept}" in d.log
    assert d.api("/api/state", token="")[0] == 401
    assert d.api("/api/state", token="wrong")[0] == 401
    assert d.api("/api/state")[0] == 200


def test_the_token_comes_from_the_environment_and_stays_out_of_the_log(daemon, monkeypatch):
    monkeypatch.setenv("PENTAGO_BOARD_TOKEN", "s3cret-from-env")
    d = daemon(web='token = "from-the-file"\n').start().ready()
    assert d.api("/api/state", token="from-the-file")[0] == 401
    assert d.api("/api/state", token="s3cret-from-env")[0] == 200
    assert "s3cret" not in d.log and "from-the-file" not in d.log and "token=PENTAGO_BOARD_TOKEN" in d.log


def test_a_token_on_the_command_line_is_refused_with_where_to_put_it(tmp_path):
    result = subprocess.run([sys.executable, "-m", "controller", "run", "--token", "abc"],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--token is not taken: every user can read it in the process list; set " \
           "PENTAGO_BOARD_TOKEN or web.token in the config instead" in result.stderr


def test_malformed_requests_get_clear_errors_and_the_daemon_lives_on(daemon):
    d = daemon().start().ready()
    assert d.api("/api/board/place", {"hole": "z9"}) == (
        409, {"error": "'z9' is not a hole on the 6x6 board (columns a-f, rows 1-6, or block/position such as 2/5)"})
    assert d.api("/api/board/place", {"hole": True})[0] == 400
    assert d.api("/api/board/turn", {"block": 9, "steps": 1}) == (400, {"error": "field 'block' = 9 is out of range; from 1 to 4"})
    assert d.api("/api/board/turn", {"block": 1, "steps": 500000})[0] == 400  # issue 9 item 6
    assert d.api("/api/board/lift", {"hole": "a1"}) == (409, {"error": "hole a1 is empty"})
    assert d.api("/api/command", {"name": "explode"})[1]["error"] == \
        "unknown command 'explode'; one of new_game, take_back, menu, hint, save_picture"
    status, body = d.api("/api/command", {"name": "new_game", "args": {"game": "chess"}})  # the registry's refusal
    assert status == 400 and body["error"].startswith("new_game: game 'chess' is not available")
    assert d.api("/api/state")[0] == 200


@pytest.mark.parametrize("config, message", [
    ('[web]\nport = 0', "web.port = 0 is not allowed; expected a whole number from 1 to 65535"),
    ('profile = "C-7x7"', "no shipped profile named 'C-7x7'"),
    ('[lights]\nbrightness = "max"', "lights.brightness = 'max' is not allowed; expected a number from 0.0 to 1.0"),
    ('[storage]\njournal = "/proc/nope/journal.jsonl"', "storage.journal = '/proc/nope/journal.jsonl': cannot use it"),
    ('[game]\ngame = "go"', "game.game = 'go' is not allowed; expected one of classic"),
    ('[web]\nbind = "everywhere"', "web.bind = 'everywhere' is not allowed"),
    ("profile = [", "not valid TOML"),
    ('[storage]\ntape = "/proc/nope/tape.jsonl"', "storage.tape = '/proc/nope/tape.jsonl': cannot write it"),
])
def test_bad_config_stops_start_up_with_exit_2_and_names_the_key(tmp_path, config, message):
    path = tmp_path / "config.toml"
    path.write_text(config)
    result = subprocess.run([sys.executable, "-m", "controller", "run", "--config", str(path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert 'msg="cannot start"' in result.stderr


def test_missing_config_file_is_named(tmp_path):
    result = subprocess.run([sys.executable, "-m", "controller", "run", "--config", str(tmp_path / "nope.toml")],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "nope.toml: cannot read it (No such file or directory)" in result.stderr
