"""The computer's level from the config (`[game] level`) and from a new game's "level" option,
checked by the registry, reaching the search instead of a hard-coded level."""

from __future__ import annotations

import pytest

from controller.ai import DEFAULT_LEVEL, LEVELS
from controller.daemon import service
from controller.daemon.config import Config, GameDefaults, parse_config
from controller.daemon.notify import Notifier
from controller.errors import ConfigError
from controller.games import OptionError, get, options

from ..core.test_computer import ComputerRig

LEVEL_WORDS = "0 (beginner), 1 (easy), 2 (normal), 3 (strong)"


def test_the_config_names_the_level_and_defaults_to_normal():
    assert parse_config({}).game.level == DEFAULT_LEVEL == 2
    assert parse_config({"game": {"computer": True, "level": 0}}).game == GameDefaults(computer=True, level=0)
    assert [parse_config({"game": {"level": n}}).game.level for n in LEVELS] == [0, 1, 2, 3]


@pytest.mark.parametrize("value, shown", [(7, "7"), (-1, "-1"), (True, "True"), ("2", "'2'"), (1.5, "1.5")])
def test_a_bad_config_level_is_refused_with_the_levels(value, shown):
    with pytest.raises(ConfigError) as error:
        parse_config({"game": {"level": value}}, source="board.toml")
    assert str(error.value) == (f"config board.toml: game.level = {shown} is not allowed; "
                                f"expected a level of the computer opponent: {LEVEL_WORDS}")


def test_the_configured_level_reaches_the_runtime(tmp_path):
    config = Config(profile="virtual-6x6", journal=tmp_path / "journal.jsonl", game=GameDefaults(level=0))
    assert service.build(config, Notifier({})).runtime.level == 0


def test_a_new_games_level_is_checked_by_the_registry():
    assert options({"game": "classic", "computer": True, "level": 3}, 6)["level"] == 3
    assert "level" not in options({"game": "classic", "computer": True}, 6)  # the configured level plays
    for bad in (4, -1, True, "easy"):
        with pytest.raises(OptionError, match=f"^level {bad!r}: the levels are {LEVEL_WORDS}$".replace("(", r"\(")
                           .replace(")", r"\)")):
            get("classic").options({"computer": True, "level": bad})
    with pytest.raises(OptionError, match="^level 1: Multiplayer Pentago has no computer opponent$"):
        options({"game": "multiplayer", "level": 1}, 9)


@pytest.mark.parametrize("level", [0, 1, 3])
def test_the_new_games_level_goes_with_the_think_request(level):
    rig = ComputerRig(start={"game": "classic", "computer": True, "level": level})
    rig.play("c3 3R")
    assert [think.level for think in rig.thinks] == [level]
    assert rig.core.state()["options"]["level"] == level


def test_without_a_level_the_think_request_leaves_it_to_the_runtime():
    rig = ComputerRig(start={"game": "classic", "computer": True})
    rig.play("c3 3R")
    assert [think.level for think in rig.thinks] == [None]


def test_a_bad_level_is_refused_by_the_new_game_command():
    rig = ComputerRig(start={"game": "classic", "computer": True, "level": 9})
    assert f"new game: level 9: the levels are {LEVEL_WORDS}" in rig.notices
    assert rig.core.state()["state"] != "awaiting_placement"


def test_the_web_consoles_new_game_passes_the_level_on_for_the_core_to_check():
    from controller.daemon.web.verbs import command_args

    assert command_args("new_game", {"game": "classic", "computer": True, "level": 0})["level"] == 0
