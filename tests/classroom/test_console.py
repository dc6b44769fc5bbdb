"""The classroom console against a real Mosquitto and three `pentago-board run` daemons on
virtual boards: it lists all three live, a command from it starts a game on one board only (or on
every board online), a stopped board shows offline, and the web console's guard keeps its API;
plus the rows and the combined summary read from published states (no broker)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import re
from types import SimpleNamespace

import pytest

from controller.classroom.boards import Boards
from controller.classroom.words import DOING
from controller.daemon.requests import COMMANDS
from tests.daemon.mqtt.test_daemons import BOARDS, boards, broker, move  # noqa: F401 (fixtures)

from ..daemon.daemon_proc import ROOT
from ..daemon.mosquitto import Watcher


def run_console(broker_port: int, *more: str, env: dict | None = None, host: str = "127.0.0.1"):
    proc = subprocess.Popen([sys.executable, "-m", "controller", "classroom", "--port", str(broker_port),
                             "--web-port", "0", *more],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})
    line = proc.stdout.readline()
    assert line.startswith(f"Classroom console: http://{host}:"), line + proc.stderr.read()
    yield SimpleNamespace(url=line.split()[2], proc=proc)
    proc.terminate()  # SIGTERM, as a service manager stops it: the console keeps nothing to save
    assert proc.wait(15) == -signal.SIGTERM


@pytest.fixture
def console(broker):  # noqa: F811 (broker: the imported fixture)
    yield from run_console(broker.port)


def call(url: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def wait_rows(console, check, what: str, seconds: float = 20) -> dict[str, dict]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        code, data = call(console.url + "api/boards")
        assert code == 200, data
        rows = {row["board"]: row for row in data["boards"]}
        if check(rows):
            return rows
        time.sleep(0.1)
    raise AssertionError(f"the console never showed {what}: {rows}")


def all_online(rows: dict) -> bool:
    return set(rows) == set(BOARDS) and all(row["online"] for row in rows.values())


def test_the_console_lists_all_three_boards_online(boards, console):  # noqa: F811
    rows = wait_rows(console, all_online, "three boards online")
    assert [rows[name]["state"] for name in BOARDS] == ["choosing"] * 3
    page = urllib.request.urlopen(console.url, timeout=10).read().decode()
    assert "<h1>Classroom console</h1>" in page


def test_a_command_from_the_console_starts_a_game_on_one_board_only(boards, console):  # noqa: F811
    wait_rows(console, all_online, "three boards online")
    code, answer = call(console.url + "api/command",
                        {"boards": ["b2"], "name": "new_game", "args": {"game": "classic", "names": ["Ann", "Bo"]}})
    assert (code, answer) == (200, {"sent": ["b2"], "refused": {}})
    boards["b2"].wait_state(lambda s: s["state"] == "awaiting_placement")
    rows = wait_rows(console, lambda r: r["b2"]["game"] == "classic", "b2's game")
    assert rows["b2"]["players"] == ["Ann", "Bo"] and rows["b2"]["turn"] == "Ann"
    time.sleep(0.3)
    for other in ("b1", "b3"):
        assert boards[other].state()["state"] == "choosing"


def test_a_round_on_every_board_online_and_bad_commands_refused(broker, boards, console):  # noqa: F811
    wait_rows(console, all_online, "three boards online")
    watcher = Watcher(broker.port, "pentago-board/+/event")
    for body, said in [({"boards": ["b9"], "name": "new_game"}, "no board 'b9' has published here"),
                       ({"boards": "b1", "name": "new_game"}, "must be \"all\" or a list"),
                       ({"boards": "all", "name": "fly"}, "unknown command 'fly'"),
                       ({"boards": "all", "name": "new_game", "args": {"colour": "red"}}, "takes no argument 'colour'")]:
        code, answer = call(console.url + "api/command", body)
        assert code == 400 and said in answer["error"], answer
    args = {"game": "puzzle", "players": 2, "names": ["Ada", "Bo"], "picture": "h", "start_k": 2}
    code, answer = call(console.url + "api/command", {"boards": "all", "name": "new_game", "args": args})
    assert (code, answer) == (200, {"sent": list(BOARDS), "refused": {}})
    rows = wait_rows(console, lambda r: all(row.get("puzzle") for row in r.values()), "a round on every board")
    for row in rows.values():
        assert row["game"] == "puzzle" and row["puzzle"]["k"] == 2 and row["players"] == ["Ada", "Bo"]
    try:  # each board says on its event topic that the round's first stage began, with k and picture
        for name in BOARDS:
            stages = watcher.wait(lambda n=name: [e for e in watcher.json_on(f"pentago-board/{n}/event")
                                                  if e["type"] == "stage"], f"{name}'s stage event")
            assert [(e["stage"], e["k"], e["picture"]) for e in stages] == [(1, 2, "H")]
    finally:
        watcher.close()
    with urllib.request.urlopen(console.url + "api/summary", timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/csv")
        assert answer.read().decode().startswith("board,")


def connected(console) -> bool:
    return call(console.url + "api/boards")[1]["connected"]


def test_a_broker_restarted_mid_game_the_console_reconnects_and_shows_every_move(broker, boards, console):  # noqa: F811
    wait_rows(console, all_online, "three boards online")
    code, _ = call(console.url + "api/command", {"boards": "all", "name": "new_game", "args": {"game": "classic"}})
    assert code == 200
    for d in boards.values():
        d.wait_state(lambda s: s["state"] == "awaiting_placement")
    move(boards["b1"], 1)
    move(boards["b2"], 1)
    wait_rows(console, lambda r: r["b1"]["moves"] == 1 and r["b2"]["moves"] == 1, "the first moves")

    broker.stop()
    wait_rows(console, lambda r: not connected(console), "the broker gone")
    for name, numbers in (("b1", (2, 3)), ("b2", (2,)), ("b3", (1, 2))):  # every board plays on at once
        for number in numbers:
            move(boards[name], number)
    broker.start()  # it forgot every retained message: only what the boards publish again is there

    def caught_up(rows: dict) -> bool:
        return connected(console) and all_online(rows) and all(
            rows[name]["moves"] == len(d.state()["moves"]) for name, d in boards.items())

    rows = wait_rows(console, caught_up, "every board's moves after the reconnect", 40)
    for name, d in boards.items():
        state = d.state()
        assert state["moves"] == ["b5 4R", "e2 1L", "a1 3R"][:len(state["moves"])]  # none lost on the board
        assert (rows[name]["last_move"], rows[name]["state"]) == (state["moves"][-1], state["state"])
    assert [rows[name]["moves"] for name in BOARDS] == [3, 2, 2]
    assert rows["b1"]["turn"] == "Seat 2" and rows["b3"]["turn"] == "Seat 1"
    move(boards["b3"], 3)  # and it follows on live
    wait_rows(console, lambda r: r["b3"]["moves"] == 3, "a move after the reconnect")


def test_a_stopped_board_shows_offline(boards, console):  # noqa: F811
    wait_rows(console, all_online, "three boards online")
    boards["b3"].signal(signal.SIGKILL)  # the broker publishes its last will
    rows = wait_rows(console, lambda r: not r["b3"]["online"], "b3 offline", 30)
    assert rows["b1"]["online"] and rows["b2"]["online"]


def test_the_console_keeps_the_web_consoles_guard(broker):  # noqa: F811
    for made in run_console(broker.port, env={"PENTAGO_BOARD_TOKEN": "sesame"}):
        url = made.url
        assert url.endswith("/?token=sesame")
        base = url.split("?")[0]
        assert call(base + "api/boards")[0] == 401
        assert call(base + "api/boards", headers={"Authorization": "Bearer sesame"})[0] == 200
        code, answer = call(base + "api/boards?token=sesame", headers={"Origin": "http://evil.example"})
        assert code == 403 and "may not use this console" in answer["error"]


STATE = {"state": "awaiting_placement", "game": "puzzle", "moves": [],
         "seats": [{"seat": 1, "name": "Ada"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}],
         "standings": [[2], [1, 3]], "summary": {"turn": "Ada", "last_move": "", "winner": ""},
         "detail": {"picture": "House", "k": 3, "stage": 2, "restorer": 1, "dismantler": 2, "left_s": 12.5,
                    "eliminated": [3], "rounds": [{"passed": True}, {"passed": False}],
                    "summary_csv": "round,k,restorer\n1,1,Ada\n2,2,Bo\n"}}


def test_a_puzzle_row_and_the_combined_summary_from_published_states():
    seen = Boards("pentago-board")
    seen.take("pentago-board/t2/state", json.dumps(STATE).encode())
    seen.take("pentago-board/t2/status", b"online")
    seen.take("pentago-board/t1/state", json.dumps({**STATE, "detail": {**STATE["detail"],
                                                                        "summary_csv": "round,k,restorer\n1,1,Cy\n"}}).encode())
    seen.take("pentago-board/t3/state", json.dumps({"state": "choosing", "game": None}).encode())
    for ignored in [("pentago-board/t4/state", b"{not json"), ("pentago-board/t5/event", b"{}"),
                    ("other/t6/state", b"{}"), ("pentago-board/t7/state", b"[1]")]:
        seen.take(*ignored)
    rows = {row["board"]: row for row in seen.rows()}
    assert set(rows) == {"t1", "t2", "t3", "t4", "t7"}  # a board known by a bad state still shows
    t2 = rows["t2"]
    assert t2["online"] and not rows["t1"]["online"]
    assert t2["standings"] == ["Bo", "Ada & Cy"]
    assert t2["puzzle"] == {"picture": "House", "k": 3, "stage": 2, "restorer": "Ada", "dismantler": "Bo",
                            "left_s": 12.5, "out": ["Cy"], "passed": 1, "rounds": 2}
    assert "puzzle" not in rows["t3"] and rows["t3"]["game"] == ""  # at the menu: no game adds its keys
    assert seen.summary_csv() == "board,round,k,restorer\nt1,1,1,Cy\nt2,1,1,Ada\nt2,2,2,Bo\n"
    # Issue 22, item 15: a board's blank separator lines made rows holding only a board name.
    seen.take("pentago-board/t2/state", json.dumps({**STATE, "detail": {**STATE["detail"], "summary_csv":
              "round,k,restorer\n1,1,Ada\n\norder of elimination,Cy\n\nfastest restorer,Ada,8.5 s a stone\n"}}).encode())
    rows = [line.split(",") for line in seen.summary_csv().splitlines()]
    assert all(len(row) > 1 for row in rows), rows
    assert ["t2", "order of elimination", "Cy"] in rows


def test_a_token_on_the_command_line_is_refused_and_a_tablet_gets_an_address_it_can_open(broker):  # noqa: F811
    """Issue 22, item 15: `--token` was taken on the command line (every user reads it in the
    process list; run refuses it), and `--listen 0.0.0.0` printed 127.0.0.1, which a tablet cannot open."""
    from controller.commands.classroom import network_address

    refused = subprocess.run([sys.executable, "-m", "controller", "classroom", "--port", str(broker.port),
                              "--token", "sesame"], check=False, cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "--token is not taken: every user can read it in the process list" in refused.stderr
    address = network_address()
    for made in run_console(broker.port, "--listen", "0.0.0.0", host=address):
        assert re.fullmatch(rf"http://{re.escape(address)}:\d+/\?token=[\w-]+", made.url), made.url
        assert call(made.url.replace("/?", "/api/boards?"))[0] == 200


def test_the_console_checks_each_board_as_it_checks_and_shows_each_board_s_refusal(broker, boards, console):  # noqa: F811
    """Issue 22, item 14: the console said "sent" for commands the boards refused (a 9x9-only
    picture on 6x6 boards, an unknown picture, game "chess", 7 players)."""
    wait_rows(console, lambda r: all_online(r) and all(row["size"] == 6 for row in r.values()), "three 6x6 boards online")
    for args, said in [({"game": "puzzle", "picture": "four-w"}, "no picture 'four-w' for the 6x6 board"),
                       ({"game": "puzzle", "picture": "starfish"}, "picture 'starfish': the pictures are"),
                       ({"game": "chess"}, "game 'chess' is not available"),
                       ({"game": "puzzle", "players": 7}, "players 7: Picture-Puzzle is for 2 to 4 players")]:
        code, answer = call(console.url + "api/command", {"boards": "all", "name": "new_game", "args": args})
        # Issue 31, item 3: in the teacher's words, not the API's ("no board would take it: b1, b2, b3: new_game: ")
        assert code == 400 and answer["error"].startswith("Could not start a new game on boards b1, b2, b3: "), answer
        assert answer["error"].removeprefix("Could not start a new game on boards b1, b2, b3: ").startswith(said)
        assert set(answer["refused"]) == set(BOARDS) and said in answer["refused"]["b2"]
        assert answer["refused"]["b2"].startswith("Could not start a new game on board b2: ")
        rows = wait_rows(console, lambda r: all(row["answer"] and row["answer"]["answer"] == "refused" for row in r.values()),
                         "every board's refusal")
        assert said in rows["b3"]["answer"]["reason"]
    for d in boards.values():
        assert d.state()["state"] == "choosing"  # nothing was sent
    code, answer = call(console.url + "api/command", {"boards": ["b1"], "name": "new_game",
                                                      "args": {"game": "classic", "names": ["Ann", "Bo"]}})
    assert code == 200 and answer == {"sent": ["b1"], "refused": {}}
    rows = wait_rows(console, lambda r: r["b1"]["answer"]["answer"] == "taken", "b1's answer")  # from its event topic
    assert rows["b1"]["answer"]["id"].startswith("classroom-")
    rows = wait_rows(console, lambda r: r["b1"]["game"] == "classic", "b1's game")
    assert rows["b1"]["doing"] == "Ann to place a marble" and rows["b2"]["doing"] == "at the menu"


def test_a_taken_port_is_refused_with_a_message(broker):  # noqa: F811
    for made in run_console(broker.port):
        port = made.url.split(":")[2].split("/")[0]
        taken = subprocess.run([sys.executable, "-m", "controller", "classroom", "--port", str(broker.port),
                                "--web-port", port], check=False, cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert taken.returncode == 2 and "Traceback" not in taken.stderr
        assert f"the console cannot listen on 127.0.0.1 port {port}" in taken.stderr


def test_a_board_s_own_refusal_is_said_in_the_teacher_s_words():
    """Issue 31, item 3: a board's ``refused`` event carries its API's words ("new_game: ..."),
    shown as they came; and an answer to a command this console did not send is not its own."""
    seen = Boards("pentago-board")
    seen.take("pentago-board/b2/state", json.dumps({"state": "choosing", "game": None}).encode())
    seen.take("pentago-board/b2/event", json.dumps({"type": "refused", "id": "classroom-1", "reason": "new_game: x"}).encode())
    assert seen.rows()[0]["answer"] is None  # an earlier console's command: this one sent none
    seen.asks("b2", "classroom-1", "new_game")
    seen.take("pentago-board/b2/event", json.dumps({"type": "refused", "id": "classroom-1",
                                                    "reason": "new_game: players 7: Picture-Puzzle is for 2 to 4 players"}).encode())
    assert seen.rows()[0]["answer"] == {"id": "classroom-1", "answer": "refused", "reason":
                                        "Could not start a new game on board b2: players 7: Picture-Puzzle is for 2 to 4 players"}
    seen.asks("b2", "classroom-2", "new_game")
    seen.take("pentago-board/b2/event", json.dumps({"type": "refused", "id": "classroom-2",
                                                    "reason": "the board is busy: 32 commands wait"}).encode())
    assert seen.rows()[0]["answer"]["reason"] == "Could not start a new game on board b2: the board is busy: 32 commands wait"


def test_every_command_has_the_teacher_s_words():
    assert set(DOING) == set(COMMANDS)


def test_a_board_paused_or_stopped_is_shown_so_in_its_own_words():
    seen = Boards("pentago-board")
    paused = {"status": "paused", "words": "cannot save: the board is paused (No space left on device); ..."}
    seen.take("pentago-board/t1/state", json.dumps({"state": "awaiting_placement", "health": paused}).encode())
    seen.take("pentago-board/t1/status", b"online")
    seen.take("pentago-board/t2/status", b"stopped")
    seen.take("pentago-board/t3/status", b"offline")
    rows = {row["board"]: row for row in seen.rows()}
    assert (rows["t1"]["status"], rows["t1"]["status_words"], rows["t1"]["online"]) == ("paused", paused["words"], True)
    assert (rows["t2"]["status"], rows["t2"]["online"]) == ("stopped", False)
    assert rows["t2"]["status_words"] == "stopped: the referee does not answer"
    assert (rows["t3"]["status"], rows["t3"]["status_words"]) == ("offline", "")


def test_the_teachers_guide_walks_a_whole_class_through_with_commands_that_run():
    """Issue 22, item 16: docs/teachers-guide.md never mentioned the classroom console."""
    from pathlib import Path

    from controller.cli import build_parser

    guide = (Path(ROOT) / "docs" / "teachers-guide.md").read_text()
    section = guide[guide.index("## Running a whole class"):]
    commands = re.findall(r"`(pentago-board classroom[^`]*)`", section)
    assert commands and "--listen 0.0.0.0" in section and "Last command" in section
    for text in commands:
        args = build_parser().parse_args(text.split()[1:])
        assert args.command == "classroom"


def test_a_game_s_row_comes_from_its_home_and_boards_py_names_no_game(monkeypatch):
    """The classroom's rows know games only through the registry: a new game's home that gives
    its part of the row (its spec's classroom_row) shows on the page with boards.py unchanged."""
    from dataclasses import replace
    from pathlib import Path

    from controller import games
    from controller.classroom import boards as boards_module

    relay = replace(games.get("classic"), name="relay", title="Relay Pentago",
                    classroom_row=lambda detail, names: {"leg": f"leg {detail['leg']}: {names[detail['runner']]}"})
    monkeypatch.setattr(games, "GAMES", (*games.GAMES, relay))
    seen = Boards("pentago-board")
    seen.take("pentago-board/t1/state", json.dumps({**STATE, "game": "relay", "detail": {"leg": 2, "runner": 3}}).encode())
    seen.take("pentago-board/t2/state", json.dumps({**STATE, "game": "relay", "detail": {"leg": 2}}).encode())
    seen.take("pentago-board/t3/state", json.dumps({**STATE, "detail": {**STATE["detail"], "eliminated": 5}}).encode())
    seen.take("pentago-board/t4/state", json.dumps({**STATE, "game": "chess"}).encode())
    rows = {row["board"]: row for row in seen.rows()}
    assert rows["t1"]["leg"] == "leg 2: Cy" and "puzzle" not in rows["t1"]
    # a detail its home cannot read, or a game the console does not know: the row without the game's part
    assert "leg" not in rows["t2"] and "puzzle" not in rows["t3"] and rows["t3"]["players"] == ["Ada", "Bo", "Cy"]
    assert "puzzle" not in rows["t4"] and rows["t4"]["game"] == "chess"
    source = Path(boards_module.__file__).read_text().lower()
    named = [word for spec in games.GAMES for word in (spec.name, spec.title.lower())
             if re.search(rf"\b{re.escape(word)}\b", source)]
    assert named == [], f"boards.py names {named}: a game's part of the row comes from its home"
