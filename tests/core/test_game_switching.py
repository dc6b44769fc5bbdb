"""Switching games on one board: every game of the registry may follow every other, in play or
over, and the new game is refereed by its own flow (a Picture-Puzzle flow is a place-and-twist
flow by inheritance, so "the same kind of flow" must mean the same class, not a subclass)."""

from __future__ import annotations

import itertools

import pytest

from controller import games
from controller.core import Core
from controller.events import Command
from controller.profile import load_profile
from tests.flow.rig import Rig

START = {"classic": {"game": "classic"}, "multiplayer": {"game": "multiplayer", "players": 3},
         "teams": {"game": "teams"}, "triple": {"game": "triple", "players": 2},
         "puzzle": {"game": "puzzle", "picture": "h", "players": 2}}


def _pairs(size: int) -> list[tuple[str, str]]:
    names = [spec.name for spec in games.offered(size)]
    return list(itertools.product(names, names))


@pytest.mark.parametrize("size,first,second", [(s, a, b) for s in (6, 9) for a, b in _pairs(s)])
def test_any_game_may_follow_any_other_and_plays_with_its_own_flow(size: int, first: str, second: str) -> None:
    core = Core(load_profile(f"virtual-{size}x{size}"))
    core.handle(Command(0.0, "new_game", START[first]))
    assert type(core.flow) is games.get(first).flow
    effects = core.handle(Command(1.0, "new_game", START[second]))
    assert type(core.flow) is games.get(second).flow
    assert core.flow.options["game"] == second
    assert effects.records[-1]["kind"] == "start"
    core.state()  # the snapshot of the new game can be taken (it reads the flow's own hooks)


def test_a_classic_game_after_a_puzzle_takes_its_first_move() -> None:
    r = Rig(sensing="colour", profile_name="virtual-9x9", start=START["puzzle"])
    r.feed(Command(r.t, "new_game", {"game": "classic"}))
    r.wait()
    r.play("e5 1R")
    assert r.core.flow.move_texts() == ["e5 1R"]
