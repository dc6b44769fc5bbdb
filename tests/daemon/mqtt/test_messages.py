"""What a board publishes over MQTT, without a broker: the state, the events the core tells,
commands checked like the web's, Home Assistant's discovery configs and the inbox."""

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
from controller.daemon.mqtt.messages import public_state, published, summary
from controller.daemon.mqtt.topics import Topics
from controller.events import Command, LinkChange, Tick
from controller.flow.published import Moved, Notice
from controller.profile import load_profile
from controller.rules import hole_name
from tests.flow.rig import Rig

TOPICS = Topics("pentago-board", "b1")


class Board:
    """A real core on the virtual 6x6 profile, played through the virtual board; ``step`` runs
    what happened since the last step and returns the events the core told meanwhile, as
    published."""

    def __init__(self) -> None:
        from controller.drivers.virtual import VirtualBoard

        profile = load_profile("virtual-6x6")
        self.core = Core(profile, start_time=0.0)
        self.t = 0.0
        self.hands = VirtualBoard.from_profile(profile)
        self.events: list = []  # what the core told since the last step
        self.hands.start(lambda event: self.events.extend(self.core.handle(_at(event, self.t)).events))
        self.states = [self.core.state()]

    def step(self, *commands: tuple) -> list[dict]:
        for name, args in commands:
            self.events += self.core.handle(Command(self.t, name, args)).events
        self.t += 1.0
        self.events += self.core.handle(Tick(self.t)).events  # the settle time passes: the board is judged
        events, self.events = self.events, []
        self.states.append(self.core.state())
        return [event.to_json() for event in events]


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
    assert started[0]["game"] == "classic" and started[0]["seats"] == board.states[-1]["seats"]
    assert started[0]["options"] == board.states[-1]["options"]
    board.hands.place("b5")
    board.step()
    board.hands.quarter(4, True)
    assert board.step() == [{"type": "move", "number": 1, "move": "b5 4R"}]
    assert summary(board.states[-1])["last_move"] == "b5 4R"


def test_the_link_going_down_and_up_are_events():
    board = Board()
    board.events += board.core.handle(LinkChange(0.5, False, "usb reset")).events
    assert board.step() == [{"type": "link", "up": False}]
    board.events += board.core.handle(LinkChange(1.5, True)).events
    assert board.step() == [{"type": "link", "up": True}]


def played(rig: Rig, *moves: str) -> list[dict]:
    """The events ``moves`` made (on a classic board), without the notices."""
    told = len(rig.events)
    for move in moves:
        rig.play(move)
    return told_since(rig, told)


def told_since(rig: Rig, told: int) -> list[dict]:
    return [event.to_json() for event in rig.events[told:]]


class Stalled(Rig):
    """A rig whose every state goes to an inbox of one (the loop stalled, a slow broker holding
    it): the bridge sees only the newest state, with every event since the last it took."""

    def __init__(self, **options) -> None:
        self.inbox = Inbox(1, lambda: None)
        super().__init__(**options)

    def feed(self, event) -> None:
        told, noticed = len(self.events), len(self.notices)
        super().feed(event)
        self.inbox.put(self.core.state(), tuple(self.notices[noticed:]), tuple(self.events[told:]))

    def published(self, seen: dict) -> tuple[list[dict], dict]:
        """The events the bridge publishes from the items the inbox holds, and the newest state."""
        found = []
        for state, stamped in self.inbox.take():
            found += [event for event, _ in published(stamped) if event["type"] != "notice"]
            seen = state
        return found, seen


def test_a_take_back_and_the_same_move_again_are_two_events_however_the_states_fall():
    """The two states the loop saw (before the take-back, after the same move played again)
    hold the same moves: read from their difference, neither event was there."""
    rig = Stalled(start={"game": "classic"})
    rig.play("b5 4R")
    found, seen = rig.published({})
    assert found[-1] == {"type": "move", "number": 1, "move": "b5 4R"}
    rig.feed(Command(rig.t, "take_back", {}))  # the twist taken back: b5 awaits its twist again
    for clockwise in (False, True):  # the block turned back by hand, then the same twist again
        rig.do("quarter", 4, clockwise)
        rig.wait()
    found, now = rig.published(seen)
    assert now["moves"] == seen["moves"] == ["b5 4R"] and rig.inbox.dropped > 1
    assert found == [{"type": "take_back", "moves": 0}, {"type": "move", "number": 1, "move": "b5 4R"}]


def test_two_moves_while_the_loop_was_away_are_two_move_events():
    rig = Stalled(start={"game": "classic"})
    _, seen = rig.published({})
    rig.play("b5 4R")
    rig.play("e2 4R")
    found, _ = rig.published(seen)
    assert found == [{"type": "move", "number": 1, "move": "b5 4R"}, {"type": "move", "number": 2, "move": "e2 4R"}]


WIN = ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R"]


def test_a_win_is_a_move_then_the_outcome_and_a_match_goes_on_with_a_game_event():
    rig = Rig(start={"game": "classic", "match": True, "names": ["Ann", "Bo"]})
    assert [e["number"] for e in played(rig, *WIN)] == list(range(1, 9))
    told = len(rig.events)
    rig.do("place", "a5")
    rig.wait()
    state = rig.core.state()
    assert told_since(rig, told) == [
        {"type": "move", "number": 9, "move": "a5"},
        {"type": "outcome", **state["outcome"], "winner": "Ann", "standings": [[1], [2]]}]
    told = len(rig.events)
    for hole in [hole for hole, reading in enumerate(rig.core.physical.readings) if reading != "empty"]:
        rig.do("lift", hole_name(hole, rig.profile.geometry))
    rig.wait()
    assert told_since(rig, told) == [{"type": "game", "game": "classic", "seats": rig.core.state()["seats"],
                                  "options": rig.core.state()["options"]}]


def test_a_triple_move_is_told_once_its_colour_is_confirmed_and_its_block_turned():
    from tests.core.test_triple_core import place, press, triple_rig, twist

    rig = triple_rig(players=2, cards="BBBBY")
    told = len(rig.events)
    place(rig, "b5")
    press(rig, "back", "back")  # blue, yellow, red
    assert told_since(rig, told) == []  # a placement awaiting its colour, then its twist, is no move yet
    press(rig, "ok")
    twist(rig, 4)
    assert told_since(rig, told) == [{"type": "move", "number": 1, "move": "Rb5 4R"}]


def test_a_triple_elimination_is_the_outcome_with_its_winner():
    from tests.core.test_triple_core import place, triple_rig, twist

    rig = triple_rig(sensing="colour", players=2, cards="BBBBY")
    for hole in ("a1", "b1", "c1", "d1"):
        place(rig, hole, "blue")
        twist(rig, 1)
    place(rig, "e1", "yellow")
    state = rig.core.state()
    found = told_since(rig, 0)
    assert [e["number"] for e in found if e["type"] == "move"] == [1, 2, 3, 4, 5]
    assert found[-1] == {"type": "outcome", **state["outcome"], "winner": "Seat 1", "standings": [[1], [2]]}


def test_a_board_that_stops_matching_is_a_repair_with_its_steps_then_repaired():
    rig = Rig(start={"game": "classic"})
    played(rig, "b5 4R", "e2 4R")
    told = len(rig.events)
    rig.do("lift", "b5")  # a knocked marble (the last one lifted would be a take-back)
    rig.wait(2.5)  # past the grace time
    steps = rig.core.state()["repair"]
    assert steps and told_since(rig, told) == [{"type": "repair", "steps": steps}]
    rig.do("place", "b5")
    rig.wait()
    assert told_since(rig, told + 1) == [{"type": "repaired"}]


def test_a_draw_has_draw_as_its_winner():
    seats = {"seats": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]}
    assert summary({**seats, "outcome": {"result": "full", "winners": [], "lines": []}})["winner"] == "draw"
    assert summary({**seats, "outcome": {"result": "both", "winners": [1, 2], "lines": []}})["winner"] == "Ann & Bo"


def test_each_notice_is_an_event_after_the_cores_own():
    inbox = Inbox(4, lambda: None)
    inbox.put({"n": 1}, ("b5 placed",), (Moved(1, "b5 4R"),))
    [(state, stamped)] = inbox.take()
    at = stamped[0][1]
    assert published(stamped) == [
        ({"type": "move", "number": 1, "move": "b5 4R"}, at), ({"type": "notice", "text": "b5 placed"}, at)]


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


def test_a_new_game_on_a_saved_picture_is_checked_with_the_board_s_own_library(tmp_path):
    """The bridge checks with its runtime's catalogue: the board's saved pictures are playable by
    MQTT as by the web (with the shipped pictures only it is refused), and so is a title taken."""
    from controller.games import Catalogue, PictureStore
    from controller.rules.position import Position
    from controller.rules.puzzle.pictures import picture_of

    store = PictureStore(tmp_path)
    store.save(picture_of("Our Boat", Position.empty(6, colours=2).place(0, 1)))
    payload = b'{"name": "new_game", "args": {"game": "puzzle", "picture": "our-boat"}}'
    assert parse_request(payload, "b1", size=6, games=Catalogue(store)).args["picture"] == "our-boat"
    with pytest.raises(Refused, match="picture 'our-boat': the pictures are"):
        parse_request(payload, "b1", size=6)
    with pytest.raises(Refused, match="a picture named 'our-boat' is already in the 6x6 library"):
        parse_request(b'{"name": "save_picture", "args": {"title": "Our Boat"}}', "b1", games=Catalogue(store))


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

def test_the_inbox_keeps_every_event_in_order_however_many_states_it_drops_and_wakes_once_per_batch():
    """A burst of moves while the loop is busy (a slow broker holds it): only the newest states
    are kept, every move arrives once, in order, with the time it was made."""
    wakes = []
    inbox = Inbox(3, lambda: wakes.append(1))
    before = time.time()
    for n in range(1, 101):
        inbox.put({"n": n}, (f"move {n}",) if n % 10 == 0 else (), (Moved(n, f"m{n}"),))
    kept = inbox.take()
    assert [state["n"] for state, _ in kept] == [98, 99, 100] and inbox.dropped == 97 and len(wakes) == 1
    told = [event for _, stamped in kept for event, _ in stamped]
    assert [e.number for e in told if isinstance(e, Moved)] == list(range(1, 101))
    assert told[9:11] == [Moved(10, "m10"), Notice("move 10")]  # a notice after the events of its step
    times = [when for _, stamped in kept for _, when in stamped]
    assert times == sorted(times) and before <= times[0] and times[-1] <= time.time()
    inbox.put({"n": 101}, ("hello",))
    [(state, stamped)] = inbox.take()
    assert (state, stamped) == ({"n": 101}, ((Notice("hello"), stamped[0][1]),)) and len(wakes) == 2
