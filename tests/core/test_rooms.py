"""The core's rooms keep their own fields: the core asks the referee and the physical board
through their methods (guide back, judge again, resumed) and writes none of their attributes,
nor does the referee write the physical board's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from controller.core import Core
from controller.events import Command, HoleReading
from controller.profile import load_profile

CORE = Path(__file__).resolve().parents[2] / "controller" / "core"
ROOMS = {"referee", "physical", "rooms", "menu", "computer", "display", "timing"}


def room_writes(source: str) -> list[str]:
    """Each ``self.<room>.<field> = ...`` (or ``+=``) in ``source``, as ``room.field``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        for target in targets:
            owner = target.value if isinstance(target, ast.Attribute) else None
            if (isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "self"
                    and owner.attr in ROOMS):
                found.append(f"{owner.attr}.{target.attr}")
    return found


def test_the_check_finds_a_room_written_from_outside() -> None:
    assert room_writes("self.referee.strict = self.referee.hold = True\nself.physical.changed_t += 1") == \
        ["referee.strict", "referee.hold", "physical.changed_t"]
    assert room_writes("self.referee.guide_back(now)\nself.level = level") == []


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_no_room_writes_another_rooms_fields(path: Path) -> None:
    assert room_writes(path.read_text()) == [], f"{path.name}: give the room a method that says what is meant"


def test_a_new_game_over_leftover_marbles_guides_them_off_and_one_on_a_clear_board_does_not() -> None:
    core = Core(load_profile("virtual-6x6"))
    core.handle(Command(0.0, "new_game", {"game": "classic"}))
    assert (core.referee.strict, core.referee.hold) == (False, False)  # nothing to guide off
    core.handle(HoleReading(1.0, 7, "white"))
    core.handle(Command(2.0, "new_game", {"game": "classic"}))
    assert (core.referee.strict, core.referee.hold) == (True, True)  # the marble is no one's move


def test_a_restart_judges_the_board_as_found_and_forgets_the_blocks_turns() -> None:
    journal = [{"t": 0.0, "kind": "start", "game": "classic", "players": 2, "starter": 1}]
    core = Core(load_profile("virtual-6x6"), journal_records=journal, start_time=5.0)
    assert core.physical.changed_t == 5.0 and not core.physical.orientation_known
    assert core.referee.strict and core.referee.reconciling
