"""The computer's level from the config (`[game] level`) and from a new game's "level" option,
checked by the registry, reaching the search instead of a hard-coded level."""

from __future__ import annotations

import dataclasses

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
    without = dataclasses.replace(get("multiplayer"), computer=False, choices=get("multiplayer").choices[:3])
    with pytest.raises(OptionError, match="^level 1: Multiplayer Pentago has no computer opponent$"):
        without.options({"level": 1})
    for flag in ("computer", "hints"):  # a game without the computer takes neither
        with pytest.raises(OptionError, match=f"^{flag} True: Multiplayer Pentago has no {flag} option$"):
            without.options({flag: True})


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
    from controller.daemon.requests import command_args
    from controller.games import SHIPPED

    assert command_args("new_game", {"game": "classic", "computer": True, "level": 0}, SHIPPED)["level"] == 0


# -- reachable from the LED menu, the web console and the config (issue 13) ----------------------

def pick(rig, hole: str) -> None:
    rig.do("place", hole)
    rig.wait()
    rig.do("lift", hole)
    rig.wait()


def test_the_led_menu_reaches_every_seat_set_and_level():
    from ..flow.rig import Rig

    rig = Rig()
    if rig.core.state()["menu"]["page"] == "game":  # another game offered on 6x6: classic is the first
        rig.do("press", "ok")
        rig.wait()
    assert rig.core.state()["menu"]["page"] == "computer"
    assert [o["means"] for o in rig.core.state()["menu"]["options"]] == [
        "two players at the board", "play against the computer (it plays seat 2)",
        "the computer plays seat 1 (it starts)", "the computer plays every seat (a game to watch)"]
    pick(rig, "c1")  # the computer plays seat 1
    menu = rig.core.state()["menu"]
    assert menu["page"] == "level" and [o["value"] for o in menu["options"]] == [None, 0, 1, 2, 3]
    pick(rig, "b1")  # level 0, the beginner
    rig.do("press", "ok")  # a single game
    rig.wait()
    options = rig.core.state()["options"]
    assert (options["computer"], options["level"], options["hints"]) == ([1], 0, True)


def test_the_9x9_menus_computer_page_follows_the_chosen_game():
    from controller import games
    from controller.flow.menu import Menu

    menu = Menu(games.offered(9), 9)
    menu.see({menu.option_holes()[0]}), menu.see(set())  # classic
    assert menu.page_name() == "computer" and menu.values() == (False, True, [1], [1, 2])


def test_the_web_api_refuses_a_bad_level_or_seat_and_starts_a_good_one():
    import asyncio

    from ..daemon.web.test_app import console, post, until

    async def check(client, board):
        status, body = await post(client, "/api/command", {"name": "new_game", "args": {"computer": True, "level": 7}})
        assert (status, body["error"]) == (400, f"new_game: level 7: the levels are {LEVEL_WORDS}")
        status, body = await post(client, "/api/command", {"name": "new_game", "args": {"computer": [3]}})
        assert (status, body["error"]) == (400, "new_game: computer [3]: seat 3 is not a seat of this game (seats 1 to 2)")
        status, body = await post(client, "/api/command", {"name": "new_game", "args": {"computer": [1], "level": 1,
                                                                                         "hints": False}})
        assert status == 202
        state = await until(client, lambda s: s["options"] is not None)
        assert (state["options"]["computer"], state["options"]["level"], state["options"]["hints"]) == ([1], 1, False)
        status, body = await post(client, "/api/command", {"name": "hint"})
        assert status == 202
        await asyncio.sleep(0)

    console()(check)


def test_the_config_names_the_computers_seats_for_the_game_a_fresh_board_starts():
    config = parse_config({"game": {"computer": [1, 2], "level": 3}})
    assert config.game.command_args()["computer"] == [1, 2] and config.game.level == 3
    assert parse_config({"game": {"computer": [2]}}).game.command_args()["computer"] is True


def test_sighup_reloads_the_configured_level(tmp_path):
    from controller.daemon.runtime import Reload

    path = tmp_path / "board.toml"
    path.write_text('[game]\nlevel = 2\n')
    config = parse_config({"game": {"level": 2}}, source=str(path))
    config = Config(profile="virtual-6x6", journal=tmp_path / "journal.jsonl", game=config.game)
    daemon = service.build(config, Notifier({}), config_path=path)
    path.write_text('[game]\nlevel = 0\n')
    service.reload(daemon)
    item = daemon.runtime.queue.get_nowait()
    assert isinstance(item, Reload) and item.level == 0
    daemon.runtime._reload(item)
    assert daemon.runtime.level == 0


def test_the_runtime_answers_a_hint_with_the_analysed_move():
    import time

    from controller.ai import analyse, to_move
    from controller.core import Core
    from controller.drivers.virtual import VirtualBoard
    from controller.events import Command
    from controller.profile import load_profile
    from controller.rules import ClassicGame

    from ..daemon.fakes import FakeJournal, FakeNotifier, FakePixels
    from ..daemon.test_runtime import wait_for
    from controller.daemon.runtime import Runtime

    profile = load_profile("virtual-6x6")
    board = VirtualBoard.from_profile(profile, clock=time.monotonic)
    rt = Runtime(Core(profile, start_time=time.monotonic()), inputs=board, pixels=FakePixels(log=[]),
                 journal=FakeJournal(log=[]), notifier=FakeNotifier(), level=1)
    notices: list[str] = []
    rt.listeners.append(lambda state, new, events: notices.extend(new))
    rt.start()
    try:
        rt.put(Command(time.monotonic(), "new_game", {"game": "classic"}))
        rt.put(Command(time.monotonic(), "hint", {}))
        assert wait_for(lambda: any(n.startswith("hint for Seat 1") for n in notices))
    finally:
        rt.stop()
    game = ClassicGame()
    best = game.move_name(to_move(game, *analyse(game, level=1).move))  # the configured level, seed 0
    assert any(n.startswith(f"hint for Seat 1: {best}: ") for n in notices)
    assert rt.core.computer.shown(rt.core.flow) == to_move(game, *analyse(game, level=1).move)
