"""Daemons on virtual boards publishing to a real Mosquitto broker started on a free port:
their state, events and Home Assistant configs, commands for one board only, the last will,
a broker restarted mid-game, and bad commands refused without changing anything."""

from __future__ import annotations

import json
import signal
import time

import pytest

from ..daemon_proc import DaemonProcess
from ..mosquitto import Broker, Watcher

BOARDS = ("b1", "b2", "b3")
# No watchdog pings: nobody reads the test's notify socket after READY, and a full socket would
# block the pinging core thread (these tests run longer than the socket's dozen datagrams last).
NO_WATCHDOG = 0


def board(tmp_path, broker: Broker, name: str) -> DaemonProcess:
    (tmp_path / name).mkdir()
    return DaemonProcess(tmp_path / name, watchdog_usec=NO_WATCHDOG,
                         more=f'[mqtt]\nenabled = true\nport = {broker.port}\nboard = "{name}"\n')


@pytest.fixture
def broker(tmp_path):
    made = Broker(tmp_path).start()
    yield made
    made.stop()


@pytest.fixture
def watcher(broker):
    made = Watcher(broker.port, "pentago-board/#", "homeassistant/#")
    yield made
    made.close()


@pytest.fixture
def boards(tmp_path, broker):
    made = {name: board(tmp_path, broker, name).start() for name in BOARDS}
    for d in made.values():
        d.ready()
    yield made
    for d in made.values():
        d.close()


def status(name: str) -> str:
    return f"pentago-board/{name}/status"


def command(watcher: Watcher, name: str, body: dict | bytes, retain: bool = False) -> None:
    payload = body if isinstance(body, bytes) else json.dumps(body)
    watcher.publish(f"pentago-board/{name}/command", payload, retain=retain)


def published_state(watcher: Watcher, name: str) -> dict:
    return json.loads(watcher.last(f"pentago-board/{name}/state") or b"{}")


def events(watcher: Watcher, name: str, kind: str) -> list[dict]:
    return [e for e in watcher.json_on(f"pentago-board/{name}/event") if e["type"] == kind]


def play(d: DaemonProcess, *actions: tuple[str, dict]) -> None:
    for verb, body in actions:
        code, answer = d.api(f"/api/board/{verb}", body)
        assert code == 200, answer


MOVES = [("b5", 4, True), ("e2", 1, False), ("a1", 3, True), ("f6", 2, False)]


def move(d: DaemonProcess, number: int) -> None:
    hole, block, clockwise = MOVES[number - 1]
    play(d, ("place", {"hole": hole}))
    d.wait_state(lambda s: s["state"] == "awaiting_twist")  # the placement is judged before the twist
    play(d, ("quarter", {"block": block, "clockwise": clockwise}))
    d.wait_state(lambda s: len(s["moves"]) == number)


def test_three_boards_publish_their_state_status_and_home_assistant_device(boards, watcher):
    for name in BOARDS:
        watcher.wait(lambda n=name: watcher.last(status(n)) == b"online", f"{name} online")
        state = watcher.wait(lambda n=name: published_state(watcher, n), f"{name}'s state")
        assert state["board_name"] == name and state["state"] == "choosing" and "frame" not in state
        button = watcher.wait(lambda n=name: watcher.last(f"homeassistant/button/pentago_{n}/new_game/config"),
                              f"{name}'s new game button")
        assert json.loads(button)["command_topic"] == f"pentago-board/{name}/command"


def test_a_command_starts_a_game_on_its_board_only(boards, watcher):
    watcher.wait(lambda: all(watcher.last(status(n)) == b"online" for n in BOARDS), "all online")
    command(watcher, "b2", {"name": "new_game", "args": {"game": "classic", "names": ["Ann", "Bo"]}, "id": 7})
    boards["b2"].wait_state(lambda s: s["state"] == "awaiting_placement")
    state = watcher.wait(lambda: published_state(watcher, "b2").get("state") == "awaiting_placement"
                         and published_state(watcher, "b2"), "b2 playing")
    assert state["summary"]["turn"] == "Ann"
    assert events(watcher, "b2", "command") == [
        {**events(watcher, "b2", "command")[0], "type": "command", "name": "new_game", "id": 7}]
    assert [e["game"] for e in events(watcher, "b2", "game")] == ["classic"]
    move(boards["b2"], 1)
    watcher.wait(lambda: events(watcher, "b2", "move"), "b2's move")
    assert [e["move"] for e in events(watcher, "b2", "move")] == ["b5 4R"]
    for other in ("b1", "b3"):
        assert boards[other].state()["state"] == "choosing"
        assert published_state(watcher, other)["state"] == "choosing"
        assert not events(watcher, other, "command")


def test_a_board_that_stops_is_shown_offline(broker, boards, watcher):
    watcher.wait(lambda: all(watcher.last(status(n)) == b"online" for n in BOARDS), "all online")
    boards["b3"].signal(signal.SIGKILL)  # no goodbye: the broker publishes the last will
    watcher.wait(lambda: watcher.last(status("b3")) == b"offline", "b3's last will")
    boards["b1"].signal(signal.SIGTERM)  # a clean stop says offline itself
    assert boards["b1"].wait() == 0
    watcher.wait(lambda: watcher.last(status("b1")) == b"offline", "b1 offline")
    assert watcher.last(status("b2")) == b"online"
    late = Watcher(broker.port, "pentago-board/+/status")  # a late subscriber sees it retained
    try:
        late.wait(lambda: late.last(status("b3")) == b"offline" and late.last(status("b1")) == b"offline",
                  "retained offline")
    finally:
        late.close()


def test_a_broker_restart_mid_game_loses_and_delays_no_move(tmp_path, broker, watcher):
    d = board(tmp_path, broker, "b1")
    try:
        d.start().ready()
        watcher.wait(lambda: watcher.last(status("b1")) == b"online", "online")
        command(watcher, "b1", {"name": "new_game", "args": {"game": "classic"}})
        d.wait_state(lambda s: s["state"] == "awaiting_placement")
        move(d, 1)
        watcher.wait(lambda: events(watcher, "b1", "move"), "the first move")

        broker.stop()
        for number in (2, 3):  # the board plays on at once with the broker gone
            move(d, number)
        assert d.state()["moves"] == ["b5 4R", "e2 1L", "a1 3R"]
        broker.start()  # forgets every retained message: the board must publish them again

        fresh = Watcher(broker.port, "pentago-board/#")
        try:
            state = fresh.wait(lambda: len(published_state(fresh, "b1").get("moves", [])) == 3
                               and published_state(fresh, "b1"), "the retained state after the restart", 30)
            assert state["moves"] == ["b5 4R", "e2 1L", "a1 3R"] and state["unsent"] == 0
            assert fresh.last(status("b1")) == b"online"
            # the events of the moves made while the broker was away arrive after the reconnect
            numbers = fresh.wait(lambda: [e["number"] for e in events(fresh, "b1", "move")] == [2, 3]
                                 and [2, 3], "the queued move events", 30)
            assert numbers == [2, 3]
            move(d, 4)
            fresh.wait(lambda: [e["number"] for e in events(fresh, "b1", "move")] == [2, 3, 4], "a move after")
        finally:
            fresh.close()
        assert "mqtt connection lost; the board plays on and reconnects" in d.log
    finally:
        d.close()


BAD_COMMANDS = [
    (b"{not json", "the command is not JSON"),
    (json.dumps({"name": "fly"}).encode(), "unknown command 'fly'; one of new_game"),
    (json.dumps({"name": "new_game", "board_name": "b2"}).encode(), "the command is for board 'b2', and this is board 'b1'"),
    (json.dumps({"name": "new_game", "args": {"game": "classic", "pad": "x" * 20_000}}).encode(),
     "bytes; at most 16384"),
    (json.dumps({"name": "new_game", "args": {"colour": "red"}}).encode(), "new_game takes no argument 'colour'"),
    # Issue 22, item 14: what the board's game registry refuses is a refused event too, with its id
    # (they were "command" events, and the core's notice said no later).
    (json.dumps({"name": "new_game", "id": "c-1", "args": {"game": "chess"}}).encode(),
     "new_game: game 'chess' is not available (games: classic, triple, puzzle)"),
    (json.dumps({"name": "new_game", "id": "c-2", "args": {"game": "puzzle", "picture": "four-w"}}).encode(),
     "new_game: no picture 'four-w' for the 6x6 board"),
    (json.dumps({"name": "new_game", "id": "c-3", "args": {"game": "puzzle", "players": 7}}).encode(),
     "new_game: players 7: Picture-Puzzle is for 2 to 4 players (1 in practice)"),
]


def test_bad_commands_are_refused_with_a_logged_reason_and_change_nothing(tmp_path, broker, watcher):
    d = board(tmp_path, broker, "b1")
    try:
        d.start().ready()
        watcher.wait(lambda: watcher.last(status("b1")) == b"online", "online")
        command(watcher, "b1", {"name": "new_game", "args": {"game": "classic"}})
        d.wait_state(lambda s: s["state"] == "awaiting_placement")
        move(d, 1)
        before, journal = d.state(), d.journal.read_bytes()
        for payload, _ in BAD_COMMANDS:
            command(watcher, "b1", payload)
        command(watcher, "b1", {"name": "new_game", "args": {"game": "classic"}}, retain=True)
        command(watcher, "b1", b"", retain=True)  # clears the retained command
        refused = watcher.wait(lambda: len(events(watcher, "b1", "refused")) == len(BAD_COMMANDS) + 2
                               and events(watcher, "b1", "refused"), "every refusal")
        reasons = [e["reason"] for e in refused]
        for (_, reason), said in zip(BAD_COMMANDS, reasons, strict=False):
            assert reason in said
        assert [e["id"] for e in refused[-5:-2]] == ["c-1", "c-2", "c-3"]
        assert not events(watcher, "b1", "command")[1:]  # only the first new game was taken
        assert "a retained command is refused" in reasons[-2]
        assert "an empty command does nothing" in reasons[-1]
        time.sleep(0.3)
        after = d.state()
        assert {k: v for k, v in after.items() if k != "frame"} == {k: v for k, v in before.items() if k != "frame"}
        assert d.journal.read_bytes() == journal
        refusals = [line for line in d.log.splitlines() if 'msg="mqtt command refused"' in line]
        assert len(refusals) == len(BAD_COMMANDS) + 2
        assert all("reason=" in line for line in refusals)
    finally:
        d.close()


def test_a_restart_with_the_same_settings_mid_game_is_a_game_event_not_a_take_back(tmp_path, broker, watcher):
    d = board(tmp_path, broker, "b1")
    try:
        d.start().ready()
        watcher.wait(lambda: watcher.last(status("b1")) == b"online", "online")
        for _ in range(2):  # the same settings twice, the second time in the middle of a game
            play(d, ("clear", {}))  # the marbles of the first game leave the board
            command(watcher, "b1", {"name": "new_game", "args": {"game": "classic", "names": ["Ann", "Bo"]}})
            d.wait_state(lambda s: s["state"] == "awaiting_placement" and not s["moves"])
            move(d, 1)
        watcher.wait(lambda: len(events(watcher, "b1", "move")) == 2, "the second game's move")
        assert [e["game"] for e in events(watcher, "b1", "game")] == ["classic", "classic"]
        assert [e["number"] for e in events(watcher, "b1", "move")] == [1, 1]
        assert events(watcher, "b1", "take_back") == []
    finally:
        d.close()
