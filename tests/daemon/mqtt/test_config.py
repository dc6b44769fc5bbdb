"""The config's [mqtt] section: defaults, a full section, and one clear message per bad value."""

from __future__ import annotations

import pytest

from controller.daemon.config import MqttConfig, board_name, parse_config
from controller.errors import ConfigError


def test_mqtt_is_off_by_default_and_the_board_is_named_after_the_host(monkeypatch):
    monkeypatch.setattr("socket.gethostname", lambda: "pentago.local")
    mqtt = parse_config({}).mqtt
    assert (mqtt.enabled, mqtt.host, mqtt.port, mqtt.board, mqtt.prefix) == (
        False, "localhost", 1883, "pentago-local", "pentago-board")
    assert (mqtt.tls, mqtt.username, mqtt.discovery, mqtt.discovery_prefix) == (False, "", True, "homeassistant")


def test_a_full_section_is_read():
    mqtt = parse_config({"mqtt": {
        "enabled": True, "host": "broker.lan", "port": 8883, "board": "table-3", "prefix": "school",
        "tls": True, "ca_file": "/etc/ssl/ca.pem", "username": "board", "password": "pw",
        "discovery": False, "discovery_prefix": "ha"}}).mqtt
    assert mqtt == MqttConfig(True, "broker.lan", 8883, "table-3", "school", True, "/etc/ssl/ca.pem",
                              "board", "pw", False, "ha")


def test_the_password_never_shows_in_the_repr():
    assert "pw" not in repr(parse_config({"mqtt": {"username": "u", "password": "pw"}}).mqtt)


@pytest.mark.parametrize(("section", "message"), [
    ({"port": 0}, "mqtt.port = 0 is not allowed; expected a whole number from 1 to 65535"),
    ({"port": "1883"}, "mqtt.port = '1883' is not allowed; expected a whole number from 1 to 65535"),
    ({"host": ""}, "mqtt.host = '' is not allowed; expected a non-empty string"),
    ({"board": "a/b"}, "mqtt.board = 'a/b' is not allowed; expected letters, digits, - and _ (1 to 32 of them)"),
    ({"board": "+"}, "mqtt.board = '+' is not allowed; expected letters, digits, - and _ (1 to 32 of them)"),
    ({"board": "x" * 33}, "is not allowed; expected letters, digits, - and _ (1 to 32 of them)"),
    ({"prefix": ""}, "mqtt.prefix = '' is not allowed; expected letters, digits, - and _ (1 to 32 of them)"),
    ({"discovery_prefix": "home/assistant"}, "mqtt.discovery_prefix = 'home/assistant' is not allowed"),
    ({"tls": "yes"}, "mqtt.tls = 'yes' is not allowed; expected true or false"),
    ({"ca_file": "/ca.pem"}, "mqtt.ca_file = '/ca.pem' is not allowed; expected a CA file only with mqtt.tls = true"),
    ({"password": "secret"}, "mqtt.password = '<hidden>' is not allowed; expected a password only with mqtt.username"),
    ({"retain": True}, "unknown key mqtt.retain; known keys: mqtt.enabled, mqtt.host, mqtt.port"),
    # Issue 19 item 17: a name the resolver refuses failed every connection attempt, for ever.
    ({"host": "b" * 64 + ".example"}, "is not allowed; expected an IP address or a host name: labels of 1 to 63"),
    ({"host": "broker..lan"}, "mqtt.host = 'broker..lan' is not allowed; expected an IP address or a host name"),
    ({"host": "-broker.lan"}, "mqtt.host = '-broker.lan' is not allowed"),
    ({"host": ("a" * 50 + ".") * 6}, "at most 253 characters"),
])
def test_a_bad_value_names_the_key_and_what_is_allowed(section, message):
    with pytest.raises(ConfigError) as error:
        parse_config({"mqtt": section}, source="/etc/pentago-board/config.toml")
    assert str(error.value).startswith("config /etc/pentago-board/config.toml: ")
    assert message in str(error.value)
    assert "secret" not in str(error.value)


@pytest.mark.parametrize("host", ["broker.lan", "localhost", "10.0.0.2", "::1", "mqtt_broker", "müller.local",
                                  "b" * 63 + ".example", "broker.lan."])
def test_a_host_the_resolver_can_look_up_is_taken_as_written(host):
    assert parse_config({"mqtt": {"host": host}}).mqtt.host == host


def test_a_host_name_becomes_a_board_name_that_fits_one_topic_level():
    assert board_name("Pi 4.local") == "Pi-4-local"
    assert board_name("x" * 40) == "x" * 32
    assert board_name("") == "board"
