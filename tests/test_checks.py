"""The checking kit: one error type naming source and key under every reader's own error, the
shared checks, and the TOML reader the profile and the config share (their messages are pinned
by their own tests: tests/profile, tests/daemon/test_config.py)."""

from __future__ import annotations

import pytest

from controller.checks import CheckError, close_match, is_number, is_whole, read_toml, text_fault, within
from controller.daemon.config import parse_config
from controller.daemon.requests import command
from controller.daemon.web.api import BadRequest
from controller.errors import ConfigError, PentagoError, ProfileError, TapeError
from controller.games import OptionError, options
from controller.profile import parse_profile
from controller.tape import read_tape


def test_every_reader_s_error_is_a_check_error_naming_source_and_key(tmp_path):
    tape_file = tmp_path / "game.jsonl"
    tape_file.write_text('{"tape": 1, "board": "6x6", "sensing": "presence", "detents_per_quarter": 4,'
                         ' "game": "classic"}\n{"t": 1, "hole": "z9", "reading": "marble"}\n')
    with pytest.raises(TapeError) as tape:
        read_tape(tape_file)
    with pytest.raises(ProfileError) as profile:
        parse_profile({"size": 6, "sensnig": "reed"}, "board.toml")
    with pytest.raises(ConfigError) as config:
        parse_config({"web": {"port": 0}}, "config.toml")
    with pytest.raises(BadRequest) as request:
        command({"name": "menu", "args": []})
    found = [(type(e.value), e.value.source, e.value.key) for e in (profile, config, request, tape)]
    assert found == [(ProfileError, "board.toml", "sensnig"), (ConfigError, "config.toml", "web.port"),
                     (BadRequest, "request", "args"), (TapeError, str(tape_file), "line 2")]
    assert str(profile.value) == "board.toml: sensnig: unknown key (did you mean 'sensing'?)"
    assert str(tape.value).startswith(f"{tape_file}: line 2: ")
    for error in (profile.value, config.value, request.value, tape.value):
        assert isinstance(error, CheckError) and isinstance(error, ValueError) and isinstance(error, PentagoError)


@pytest.mark.parametrize("args, key, message", [
    ({"game": "puzzle", "players": 2, "show_s": True}, "show_s", "show_s True: a number of seconds from 0 to 600"),
    ({"game": "puzzle", "players": 2, "start_k": 0}, "start_k", "start_k 0: a whole number from 1 to the picture's stones"),
    ({"game": "puzzle", "players": 1, "level": True}, "level", "level True: the dismantle levels are 0, 1, 2 and 3"),
    ({"game": "triple", "seed": -1}, "seed", "seed -1: a whole number from 0 to 2147483647"),
    ({"game": "classic", "match": 1}, "match", "match 1 must be true or false"),
    ({"game": "classic", "names": ["a"]}, "names", "names ['a']: give one name per seat (2)"),
])
def test_a_game_option_refused_alone_is_named_as_the_key(args, key, message):
    with pytest.raises(OptionError) as refused:
        options(args, 9 if args["game"] == "puzzle" else 6)
    assert (str(refused.value), refused.value.source, refused.value.key) == (message, "options", key)
    assert isinstance(refused.value, CheckError)


@pytest.mark.parametrize("value, number, whole", [
    (1, True, True), (1.5, True, False), (True, False, False), (False, False, False), ("1", False, False),
    (None, False, False),
])
def test_a_bool_is_not_a_number(value, number, whole):
    assert (is_number(value), is_whole(value)) == (number, whole)


def test_within_bounds_both_ends_and_wholeness():
    assert [within(v, 1, 3, whole=True) for v in (0, 1, 3, 4, 2.0, True)] == [False, True, True, False, False, False]
    assert [within(v, 0, 1) for v in (0, 0.5, 1, 1.01, True)] == [True, True, True, False, False]


def test_close_match_names_the_likely_key_or_none():
    assert close_match("brightnes", ("brightness", "journal")) == "brightness"
    assert close_match("zzz", ("brightness", "journal")) is None


@pytest.mark.parametrize("text, fault", [
    ("r1", None), ("é and 中", None), ("x" * 8, None),
    ("x" * 9, "is too long (at most 8 characters)"),
    ("a\nb", "holds a control character (0x0a)"),
    ("\x7f", "holds a control character (0x7f)"),
    ("\x85", "holds a control character (0x85)"),
])
def test_short_text_is_bounded_and_free_of_control_characters(text, fault):
    assert text_fault(text, 8) == fault


def test_read_toml_names_the_file_in_the_readers_own_error(tmp_path):
    (tmp_path / "bad.toml").write_bytes(b"x = [")
    (tmp_path / "big.toml").write_bytes(b"# " + b"x" * 200)
    (tmp_path / "good.toml").write_bytes(b"x = 1")
    assert read_toml(tmp_path / "good.toml", 100, "good", ConfigError) == {"x": 1}
    with pytest.raises(ConfigError, match=r"^bad: not valid TOML") as bad:
        read_toml(tmp_path / "bad.toml", 100, "bad", ConfigError)
    with pytest.raises(ProfileError, match=r"^big: cannot read the profile \(202 bytes, more than the 100") as big:
        read_toml(tmp_path / "big.toml", 100, "big", ProfileError, "cannot read the profile")
    with pytest.raises(ConfigError, match=r"^gone: cannot read it \(No such file or directory\)$"):
        read_toml(tmp_path / "gone.toml", 100, "gone", ConfigError)
    assert (bad.value.source, big.value.source) == ("bad", "big")
