"""What a board publishes over MQTT, without a broker: the state, the events read from two
states, commands checked like the web's, Home Assistant's discovery configs and the inbox."""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.core import Core
from controller.daemon.config import TOPIC_NAME
from controller.daemon.mqtt.commands import Refused, parse_request
from controller.daemon.mqtt.discovery import discovery_messages
from controller.daemon.mqtt.inbox import Inbox
from controller.daemon.mqtt.messages import events_between, notice_events, public_state, summary
from controller.daemon.mqtt.topics import Topics
from controller.events import Command, LinkChange, Tick
from controller.profile import load_profile

TOPICS = Topics("pentago-board", "b1")


class Board:
    """A real core on the virtual 6x6 profile, played through the virtual board; ``step`` runs
    what happened since the last step and returns the events between the two states."""

    def __init__(self) -> None:
        from controller.drivers.virtual import VirtualBoard

        profile = load_profile("virtual-6x6")
        self.core = Core(profile, start_time=0.0)
        self.t = 0.0
        self.hands = VirtualBoard.from_profile(profile)
        self.records: list[dict] = []  # what the core wrote since the last step
        self.hands.start(lambda event: self.records.extend(self.core.handle(_at(event, self.t)).records))
        self.states = [self.core.state()]

    def step(self, *commands: tuple) -> list[dict]:
        for name, args in commands:
            self.records += self.core.handle(Command(self.t, name, args)).records
        self.t += 1.0
        self.records += self.core.handle(Tick(self.t)).records  # the settle time passes: the board is judged
        records, self.records = self.records, []
        before, after = self.states[-1], self.core.state()
        self.states.append(after)
        return events_between(before, after, records)


def _at(event, t: float):
    from dataclasses import replace

    return replace(event, t=t)


def test_the_published_state_has_no_frame_and_says_whose_turn_in_words():
    board = Board()
    board.step(("new_game", {"game": "classic", "names": ["Ann", "Bo"]}))
    shown = public_state(board.states[-1], "b1")
    assert "frame" not in shown and shown["board_name"] == "b1"
    assert shown["board"] == board.states[-1]["board"]  # the core's rows keep their key
    assert shown["summary"] == {"doing": "Ann to place a marble", "turn": "Ann", "last_move": "", "winner": ""}
    board.hands.place("b5")
    board.step()
    assert summary(board.states[-1])["doing"] == "Ann to turn a block"


def test_a_new_game_then_a_move_are_events():
    board = Board()
    started = board.step(("new_game", {"game": "classic"}))
    assert [e["type"] for e in started] == ["game"]
    assert started[0]["game"] == "classic" and [s["seat"] for s in started[0]["seats"]] == [1, 2]
    board.hands.place("b5")
    board.step()
    board.hands.quarter(4, True)
    assert board.step() == [{"type": "move", "number": 1, "move": "b5 4R"}]
    assert summary(board.states[-1])["last_move"] == "b5 4R"


def test_the_link_going_down_and_up_are_events():
    board = Board()
    board.core.handle(LinkChange(0.5, False, "usb reset"))
    assert board.step() == [{"type": "link", "up": False}]
    board.core.handle(LinkChange(1.5, True))
    assert board.step() == [{"type": "link", "up": True}]


STATE = {"game": "classic", "moves": [], "outcome": None, "repair": [], "link": True,
         "seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}],
         "record": {"headers": {"Variant": "classic", "Result": "*"}, "moves": []}}


def state(**changes) -> dict:
    return {**STATE, **changes}


START = ({"kind": "start", "game": "classic", "players": 2},)


@pytest.mark.parametrize(("old", "new", "records", "events"), [
    (None, state(), (), []),  # the first state is where the events start
    (state(moves=["a1 1R"]), state(moves=["a1 1R", "b2 1L", "c3 2R"]), (),
     [{"type": "move", "number": 2, "move": "b2 1L"}, {"type": "move", "number": 3, "move": "c3 2R"}]),
    (state(moves=["a1 1R", "b2 1L"]), state(moves=["a1 1R"]), ({"kind": "take_back"},),
     [{"type": "take_back", "moves": 1}]),
    (state(moves=["a1 1R"]), state(), ({"kind": "take_back"},), [{"type": "take_back", "moves": 0}]),
    # a restart with the same settings mid-game: its start record makes it a new game, no take-back
    (state(moves=["a1 1R"]), state(), START, [{"type": "game", "game": "classic", "seats": STATE["seats"], "options": None}]),
    (state(moves=["a1 1R"]), state(moves=["a1 1R", "a2"], outcome={"result": "five", "winners": [2], "lines": []},
                                   standings=[[2], [1]]), (),
     [{"type": "move", "number": 2, "move": "a2"},
      {"type": "outcome", "result": "five", "winners": [2], "lines": [], "winner": "Bo", "standings": [[2], [1]]}]),
    (state(), state(repair=["put back a white marble on b5"]), (),
     [{"type": "repair", "steps": ["put back a white marble on b5"]}]),
    (state(repair=["lift the marble on c3"]), state(), (), [{"type": "repaired"}]),
    (state(moves=["a1 1R"], outcome={"result": "full", "winners": [], "lines": []}), state(), ({"kind": "next_game"},),
     [{"type": "game", "game": "classic", "seats": STATE["seats"], "options": None}]),
])
def test_events_between_two_states(old, new, records, events):
    assert events_between(old, new, records) == events


def test_a_draw_has_draw_as_its_winner():
    assert summary(state(outcome={"result": "full", "winners": [], "lines": []}))["winner"] == "draw"
    assert summary(state(outcome={"result": "both", "winners": [1, 2], "lines": []}))["winner"] == "Ann & Bo"


def test_each_notice_is_an_event():
    assert notice_events(("b5 placed",)) == [{"type": "notice", "text": "b5 placed"}]


MOVES = st.lists(st.sampled_from(["a1 1R", "b2 1L", "c3 2R", "d4 3L", "e5"]), max_size=6)


@given(MOVES, MOVES, st.integers(0, 6))
def test_the_events_turn_the_old_moves_into_the_new(old_tail, new_tail, shared):
    """Whatever states the loop skipped, the events carry a subscriber's list of moves to the new one."""
    common = ["f6 4R"] * shared
    old, new = state(moves=common + old_tail), state(moves=common + new_tail)
    moves = list(old["moves"])
    for found in events_between(old, new, ()):
        if found["type"] == "take_back":
            del moves[found["moves"]:]
        elif found["type"] == "move":
            assert found["number"] == len(moves) + 1
            moves.append(found["move"])
    assert moves == new["moves"]


# -- commands ----------------------------------------------------------------------------------

def test_a_good_command_is_taken_with_its_id():
    request = parse_request(b'{"name": "new_game", "args": {"game": "classic"}, "id": "r1", "board_name": "b1"}', "b1")
    assert (request.name, request.args, request.id) == ("new_game", {"game": "classic"}, "r1")


@pytest.mark.parametrize(("payload", "reason"), [
    (b"{not json", "the command is not JSON (Expecting property name enclosed in double quotes"),
    (b"\xff\xfe", "the command is not JSON ('utf-8' codec can't decode byte 0xff"),
    (b"[1, 2]", "a command must be a JSON object, not list"),
    (b'{"name": "fly"}', "unknown command 'fly'; one of new_game, take_back, menu"),
    (b'{"args": {}}', "missing field 'name'"),
    (b'{"name": "new_game", "args": {"colour": "red"}}', "new_game takes no argument 'colour'; arguments: game,"),
    (b'{"name": "menu", "board_name": "b2"}', "the command is for board 'b2', and this is board 'b1'"),
    (b'{"name": "menu", "id": [1]}', "field 'id' = [1] has the wrong type"),
    (b'{"name": "menu", "id": "r1\\u001b[2J"}', "field 'id' = 'r1\\x1b[2J' holds a control character (0x1b)"),
    (b'{"name": "menu", "args": {"x": NaN}}', "NaN is not a number the board accepts"),
    (b'{"name": "menu", "args": ' + b"[" * 5000 + b"]" * 5000 + b"}", "the command nests too deeply"),
    (b'{"name": "menu", "args": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "the command is 200026 bytes; at most 16384"),
    (b'{"name": "menu", "args": {"n": ' + b"9" * 40 + b"}}", "is too long (at most 18 digits)"),
])
def test_a_bad_command_is_refused_saying_why(payload, reason):
    with pytest.raises(Refused) as refusal:
        parse_request(payload, "b1")
    assert reason in str(refusal.value)


def test_an_empty_command_is_refused_as_it_clears_a_retained_one():
    with pytest.raises(Refused, match="an empty command does nothing"):
        parse_request(b"", "b1")


def test_a_retained_command_is_refused_as_it_would_run_at_every_reconnect():
    with pytest.raises(Refused, match="a retained command is refused: it would run again at every reconnect"):
        parse_request(b'{"name": "new_game"}', "b1", retained=True)


def test_the_web_and_mqtt_refuse_the_same_commands_the_same_way():
    from controller.daemon.web.api import BadRequest
    from controller.daemon.requests import command

    for data in ({"name": "fly"}, {"name": "take_back", "args": {"n": 1}}, {"name": 3}):
        with pytest.raises(BadRequest) as web:
            command(data)
        with pytest.raises(Refused) as mqtt:
            parse_request(json.dumps(data).encode(), "b1")
        assert str(mqtt.value) == str(web.value)


# -- Home Assistant ----------------------------------------------------------------------------

def test_discovery_makes_one_device_with_its_sensors_and_its_buttons():
    found = dict(discovery_messages(TOPICS, "homeassistant", {"game": "classic", "computer": False}, "0.1.0"))
    assert sorted(found) == [
        "homeassistant/button/pentago_b1/hint/config",
        "homeassistant/button/pentago_b1/new_game/config",
        *[f"homeassistant/sensor/pentago_b1/{name}/config" for name in
          sorted(("game", "last_move", "state", "turn", "winner"))]]
    configs = [json.loads(payload) for payload in found.values()]
    assert len({c["unique_id"] for c in configs}) == len(configs)
    assert {json.dumps(c["device"]) for c in configs} == {json.dumps(configs[0]["device"])}
    assert all(c["availability_topic"] == "pentago-board/b1/status" for c in configs)
    assert all(c["state_topic"] == "pentago-board/b1/state" for c in configs if "value_template" in c)


def test_the_new_game_and_hint_buttons_send_commands_the_board_takes():
    found = dict(discovery_messages(TOPICS, "ha", {"game": "classic", "computer": True}, "0.1.0"))
    button = json.loads(found["ha/button/pentago_b1/new_game/config"])
    assert button["command_topic"] == TOPICS.command
    request = parse_request(button["payload_press"].encode(), "b1")
    assert (request.name, request.args) == ("new_game", {"game": "classic", "computer": True})
    hint = json.loads(found["ha/button/pentago_b1/hint/config"])
    assert parse_request(hint["payload_press"].encode(), "b1").name == "hint"


def test_the_sensor_templates_read_keys_the_published_state_has():
    board = Board()
    board.step(("new_game", {"game": "classic"}))
    shown = public_state(board.states[-1], "b1")
    for topic, payload in discovery_messages(TOPICS, "ha", {}, "0.1.0"):
        template = json.loads(payload).get("value_template")
        if template is None:
            continue
        keys = template.removeprefix("{{ value_json.").split()[0].split(".")
        value = shown
        for key in keys:
            assert key in value, (topic, template)
            value = value[key]


# Home Assistant's pattern for a discovery topic (its MQTT integration ignores any other).
HA_DISCOVERY_TOPIC = re.compile(r"(?P<component>\w+)/(?:(?P<node_id>[a-zA-Z0-9_-]+)/)?(?P<object_id>[a-zA-Z0-9_-]+)/config")


@given(st.from_regex(TOPIC_NAME, fullmatch=True))
def test_every_board_name_the_config_takes_makes_configs_home_assistant_takes_as_they_are(name):
    """What a real Home Assistant (2025.4.4, docs/tools/home_assistant_screenshot.py) took without
    a warning, for any board name: its topic pattern, entity names that do not repeat the device's
    (Home Assistant would cut them and warn), and no ``object_id`` (deprecated since 2025.10)."""
    for topic, payload in discovery_messages(Topics("pentago-board", name), "homeassistant", {}, "0.1.0"):
        assert HA_DISCOVERY_TOPIC.fullmatch(topic.removeprefix("homeassistant/")), topic
        config = json.loads(payload)
        assert not config["name"].lower().startswith(config["device"]["name"].lower())
        assert "object_id" not in config


# -- the inbox ---------------------------------------------------------------------------------

def test_the_inbox_is_bounded_counts_what_it_drops_and_wakes_once_per_batch():
    wakes = []
    inbox = Inbox(3, lambda: wakes.append(1))
    for n in range(5):
        inbox.put({"n": n}, (), ({"kind": "place", "n": n},))
    kept = inbox.take()
    assert [s["n"] for s, _, _, _ in kept] == [2, 3, 4]
    # the dropped states' records go to the oldest kept: a start record is never lost
    assert [[r["n"] for r in records] for _, _, records, _ in kept] == [[0, 1, 2], [3], [4]]
    assert inbox.dropped == 2 and len(wakes) == 1
    before = time.time()
    inbox.put({"n": 5}, ("hello",))
    [(state, notices, _, at)] = inbox.take()
    assert (state, notices) == ({"n": 5}, ("hello",)) and len(wakes) == 2
    assert before <= at <= time.time()  # stamped when put: the events' "at" is when the core made the change
