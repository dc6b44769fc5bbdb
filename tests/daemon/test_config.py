"""The daemon config: defaults, a full file, and one clear message per kind of bad value."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.daemon.config import Config, load_config, parse_config
from controller.errors import ConfigError

FULL = """
profile = "B-6x6"
[game]
game = "classic"
computer = true
match = true
[lights]
brightness = 0.4
[storage]
journal = "/tmp/j.jsonl"
tape = "/tmp/t.jsonl"
[web]
enabled = true
bind = "0.0.0.0"
port = 9000
token = "s3cret"
"""


def test_no_file_gives_the_defaults():
    config = load_config(None)
    assert config == Config()
    assert config.web.enabled is False and config.web.is_local


def test_a_full_file_is_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(FULL)
    config = load_config(path)
    assert config.profile == "B-6x6"
    assert config.game.command_args() == {"game": "classic", "players": 2, "computer": True, "hints": True,
                                          "match": True}
    assert config.brightness == 0.4
    assert config.journal == Path("/tmp/j.jsonl") and config.tape == Path("/tmp/t.jsonl")
    assert (config.web.bind, config.web.port, config.web.token) == ("0.0.0.0", 9000, "s3cret")
    assert not config.web.is_local


@pytest.mark.parametrize("text, message", [
    ('profile = ""', "profile = '' is not allowed; expected a non-empty string"),
    ('colour = "red"', "unknown key colour; known keys: profile, game, lights, storage, web"),
    ('[web]\nhost = "x"', "unknown key web.host; known keys: web.enabled, web.bind, web.port, web.token"),
    # a typo is named as the key it misspells, as the profile does (controller.checks.key_hint)
    ('[web]\nprot = 80', "unknown key web.prot; did you mean 'web.port'?"),
    ('[game]\nlevle = 2', "unknown key game.levle; did you mean 'game.level'?"),
    ('levle = 2', "unknown key levle; known keys: profile, game, lights, storage, web"),
    ('game = 3', "game = 3 is not allowed; expected a table ([game])"),
    ('[game]\ngame = "chess"', "game.game = 'chess' is not allowed; expected one of classic"),
    ('[game]\nplayers = 3', "unknown key game.players; known keys: game.game, game.computer, game.match, game.level, game.practice"),
    ('[game]\npractice = true', "[game] practice true: Classic Pentago has no practice (Picture-Puzzle has)"),
    ('[game]\ngame = "puzzle"\npractice = 1', "game.practice = 1 is not allowed; expected true or false"),
    ('[game]\ncomputer = 2', "game.computer = 2 is not allowed; expected true (seat 2), false (none) or a list of seats such as [1, 2]"),
    ('[game]\ncomputer = [3]', "[game] computer [3]: seat 3 is not a seat of this game (seats 1 to 2)"),
    ('[game]\nmatch = "yes"', "game.match = 'yes' is not allowed; expected true or false"),
    ('[lights]\nbrightness = 1.5', "lights.brightness = 1.5 is not allowed; expected a number from 0.0 to 1.0"),
    ('[lights]\nbrightness = true', "lights.brightness = True is not allowed; expected a number"),
    ('[storage]\njournal = ""', "storage.journal = '' is not allowed; expected a non-empty string"),
    ('[web]\nbind = "my-pi"', "web.bind = 'my-pi' is not allowed; expected an IP address"),
    ('[web]\nport = 70000', "web.port = 70000 is not allowed; expected a whole number from 1 to 65535"),
    ('[web]\nport = "80"', "web.port = '80' is not allowed"),
    # a token goes into an address and a header; the message never repeats it
    ('[web]\ntoken = "two words"', "web.token = '<hidden>' is not allowed; expected letters, digits and punctuation, without spaces"),
])
def test_each_bad_value_names_key_value_and_what_is_allowed(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"config {path}: ")
    assert message in str(info.value)


def test_a_huge_unknown_key_is_named_cut_short(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[mqtt]\n" + "9" * 5000 + " = 1\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert f"unknown key mqtt.{'9' * 77}...; known keys: mqtt.enabled" in str(info.value)
    assert len(str(info.value)) < 600


def test_unreadable_and_unparsable_files(tmp_path):
    with pytest.raises(ConfigError, match=r"missing.toml: cannot read it \(No such file"):
        load_config(tmp_path / "missing.toml")
    (tmp_path / "x.toml").write_text("profile = ")
    with pytest.raises(ConfigError, match="x.toml: not valid TOML"):
        load_config(tmp_path / "x.toml")


def test_localhost_and_loopback_binds_are_local():
    for bind in ("localhost", "127.0.0.1", "::1"):
        assert parse_config({"web": {"bind": bind}}).web.is_local


def test_the_installed_config_is_valid_and_names_a_shipped_profile():
    from controller.profile import load_profile

    config = load_config(Path(__file__).resolve().parents[2] / "systemd" / "config.toml")
    assert load_profile(config.profile).name == config.profile
    assert config.journal == Path("/var/lib/pentago-board/journal.jsonl") and not config.web.enabled


def test_the_token_comes_from_the_environment_or_is_made_once_and_kept(tmp_path):
    from controller.daemon.service import with_token

    public = parse_config({"web": {"enabled": True, "bind": "0.0.0.0"},
                           "storage": {"journal": str(tmp_path / "state" / "journal.jsonl")}})
    made = with_token(public, environ={})
    kept = tmp_path / "state" / "web-token"
    assert made.web.token == kept.read_text().strip() and made.web.token_from == str(kept)
    assert with_token(public, environ={}).web.token == made.web.token  # the same after a restart
    from_env = with_token(public, environ={"PENTAGO_BOARD_TOKEN": " s3cret\n"})
    assert (from_env.web.token, from_env.web.token_from) == ("s3cret", "PENTAGO_BOARD_TOKEN")
    assert with_token(parse_config({}), environ={}).web.token == ""  # local: none needed
    with pytest.raises(ConfigError, match="PENTAGO_BOARD_TOKEN: not a usable token"):
        with_token(public, environ={"PENTAGO_BOARD_TOKEN": "two words"})


def test_a_config_practising_picture_puzzle_starts_practice_at_its_level(tmp_path):
    """Issue 13: practice from the config; its level is the config's [game] level."""
    path = tmp_path / "config.toml"
    path.write_text('[game]\ngame = "puzzle"\npractice = true\nlevel = 0\n')
    args = load_config(path).game.command_args()
    assert (args["game"], args["players"], args["practice"], args["level"]) == ("puzzle", 1, True, 0)
    path.write_text('[game]\ngame = "puzzle"\n')
    assert "level" not in load_config(path).game.command_args()  # players take turns: no computer


def test_the_engine_is_auto_by_default_and_an_unknown_one_is_refused_naming_the_engines():
    assert parse_config({}).game.engine == "auto"
    assert parse_config({"game": {"engine": "python"}}).game.engine == "python"
    with pytest.raises(ConfigError, match=r"game.engine.*one of auto, python, compiled"):
        parse_config({"game": {"engine": "turbo"}})


def test_a_compiled_engine_without_the_fast_extra_is_refused_naming_it(monkeypatch):
    from controller.ai import compiled

    monkeypatch.setattr(compiled, "available", lambda: False)
    assert parse_config({"game": {"engine": "auto"}}).game.engine == "auto"  # auto then searches in Python
    with pytest.raises(ConfigError, match=r"pip install 'pentago-board\[fast\]'"):
        parse_config({"game": {"engine": "compiled"}})
