"""The Core contract: events in, effects out; bad input becomes a notice, never an exception."""

from __future__ import annotations

import json

import pytest

from controller.core import Core, Effects
from controller.events import ButtonPress, Command, EncoderSteps, HoleReading, LinkChange, Tick
from controller.profile import load_profile
from controller.rules import parse_hole, geometry

G = geometry(6)


@pytest.fixture
def core() -> Core:
    return Core(load_profile("virtual-6x6"))


def started(core: Core) -> Core:
    core.handle(Command(0.0, "new_game", {"game": "classic"}))
    return core


def hole(name: str) -> int:
    return parse_hole(name, G)


def test_start_record_then_a_frame_showing_whose_turn(core: Core) -> None:
    effects = core.handle(Command(0.0, "new_game", {"game": "classic"}))
    assert effects.records == ({"t": 0.0, "kind": "start", "game": "classic", "players": 2,
                                "computer": False, "hints": True, "match": False, "starter": 1},)
    assert effects.frame is not None and effects.frame[core.chain.status_pixels[0]] == (255, 255, 255)
    assert effects.notices == ("new game of Classic Pentago: Seat 1 to move",)


def test_options_checked_for_another_board_are_checked_again(core: Core) -> None:
    """The core trusts a GameOptions checked for its own size only: one checked for the 9x9
    board is checked here again, and refused in the registry's words."""
    from controller import games
    effects = core.handle(Command(0.0, "new_game", games.options({"game": "multiplayer"}, 9)))
    assert effects.records == ()
    assert effects.notices == ("new game: game 'multiplayer' is not played on the 6x6 board "
                               "(games: classic, triple, puzzle)",)
    trusted = core.handle(Command(1.0, "new_game", games.options({"game": "classic", "match": True}, 6)))
    assert trusted.records[0]["match"] is True and core.spec.name == "classic"


def test_unchanged_frame_is_none_and_the_steady_reading_brings_the_move() -> None:
    """A placement is accepted once the readings have stood for steady_s, not settle_s (the
    marble's hole glowing dim meanwhile: read, not yet accepted)."""
    core = started(Core(load_profile("virtual-6x6"), steady_s=0.04))
    effects = core.handle(HoleReading(1.0, hole("c3"), "marble"))
    assert effects == Effects(effects.frame, deadline=effects.deadline) and effects.frame is not None
    assert effects.deadline == core.next_deadline() == pytest.approx(1.04)  # the effects tell it
    effects = core.handle(Tick(1.04))
    assert effects.records == ({"t": 1.04, "kind": "place", "hole": "c3"},)
    assert effects.notices == ("c3 placed by Seat 1",)
    assert effects.deadline == core.next_deadline() == pytest.approx(1.15)  # the guard: then the placement is sure
    effects = core.handle(Tick(1.15))
    assert effects == Effects(None, deadline=effects.deadline) and not core.referee.provisional


def test_without_a_steady_time_the_reading_itself_brings_the_move() -> None:
    core = started(Core(load_profile("virtual-6x6"), steady_s=0.0))
    effects = core.handle(HoleReading(1.0, hole("c3"), "marble"))
    assert effects.records == ({"t": 1.0, "kind": "place", "hole": "c3"},)


def a6_1r(core: Core) -> Effects:
    """Seat 1 plays a6 1R on a started core: the effects of the twist's judgement (at 2.6 s)."""
    core.handle(HoleReading(1.0, hole("a6"), "marble"))
    core.handle(Tick(1.2))
    for i in range(6):
        core.handle(EncoderSteps(2.0 + i / 100, 1, 1))
    core.handle(HoleReading(2.1, hole("a6"), "empty"))
    core.handle(HoleReading(2.1, hole("c6"), "marble"))
    return core.handle(Tick(2.6))


def test_a_whole_move_and_its_notice(core: Core) -> None:
    effects = a6_1r(started(core))
    assert effects.records == ({"t": 2.6, "kind": "twist", "twist": "1R"},)
    assert effects.notices == ("a6 1R accepted",)
    assert core.state()["board"][0] == "..x..."


@pytest.mark.parametrize("command,notice", [
    (Command(0.0, "new_game", {"game": "chess"}), "new game: game 'chess' is not available (games: classic, triple, puzzle)"),
    (Command(0.0, "new_game", {"players": 3}), "new game: players 3: classic Pentago is for 2 players"),
    (Command(0.0, "new_game", {"match": "yes"}), "new game: match 'yes' must be true or false"),
    (Command(0.0, "fly", {}), "unknown command 'fly'; commands: new_game, take_back, abort, menu, hint, computer_move, hint_move, save_picture, picture_saved"),
    (Command(0.0, "take_back", {}), "nothing to take back: no game is running"),
    (HoleReading(0.0, 99, "marble"), "ignored a hole reading: hole index 99 is not on the 6x6 board"),
    (EncoderSteps(0.0, 0, 1), "ignored encoder steps: block 0 is not on the board (blocks 1-4)"),
    (ButtonPress(0.0, "power"), "button 'power' does nothing in the menu"),
    ("garbage", "ignored 'garbage': not an event the core knows"),
])
def test_bad_input_is_a_notice(core: Core, command, notice: str) -> None:
    effects = core.handle(command)
    assert effects.notices == (notice,) and effects.records == ()
    assert core.state()["state"] == "choosing"


def test_abort_returns_to_the_menu_with_a_record(core: Core) -> None:
    started(core)
    effects = core.handle(Command(1.0, "abort"))
    assert effects.records == ({"t": 1.0, "kind": "menu"},)
    assert core.state()["state"] == "choosing"
    assert core.state()["menu"]["page"] == "game"


def test_new_game_during_a_game_restarts_it(core: Core) -> None:
    started(core)
    effects = core.handle(Command(1.0, "new_game", {"game": "classic", "match": True}))
    assert [r["kind"] for r in effects.records] == ["menu", "start"]
    assert core.state()["match"] == {"wins": {"1": 0, "2": 0}, "games": 0}


def test_state_is_json_in_every_state(core: Core) -> None:
    json.dumps(core.state())
    started(core)
    core.handle(HoleReading(1.0, hole("c3"), "marble"))
    core.handle(HoleReading(1.0, hole("d4"), "marble"))
    core.handle(Tick(1.2))
    core.handle(Tick(3.3))
    state = core.state()
    assert state["state"] == "repair" and state["repair"] == ["remove the marble on c3", "remove the marble on d4"]
    assert state["physical"][2:4] == ["...*..", "..*..."] and state["phase"] == "place" and state["to_move"] == 1
    assert len(state["frame"]) == core.chain.length
    json.dumps(state)


def test_deadlines_settle_grace_and_animation(core: Core) -> None:
    started(core)
    assert core.next_deadline() == pytest.approx(0.15)  # the board as found at the start
    core.handle(Tick(0.15))
    assert core.next_deadline() is None  # nothing pending, nothing animated
    core.handle(HoleReading(1.0, hole("c3"), "marble"))
    core.handle(HoleReading(1.0, hole("d4"), "marble"))
    core.handle(Tick(1.15))
    assert core.next_deadline() == pytest.approx(3.15)  # the grace timer
    core.handle(Tick(3.15))
    assert core.next_deadline() == pytest.approx(3.25)  # the repair light blinks on the next edge


def test_link_down_is_a_notice_and_pauses_the_grace_timer(core: Core) -> None:
    started(core)
    core.handle(HoleReading(1.0, hole("c3"), "marble"))
    core.handle(HoleReading(1.0, hole("d4"), "marble"))
    core.handle(Tick(1.2))
    assert core.handle(LinkChange(1.5, False, "usb reset")).notices == ("sensor link down: usb reset",)
    assert core.referee.grace_at is None
    assert core.next_deadline() == 1.75  # no grace timer: only the turn pixels' blink (no sensors)
    core.handle(Tick(5.0))
    assert core.state()["state"] == "awaiting_placement"
    assert core.state()["link"] is False
    core.handle(LinkChange(6.0, True))
    assert core.state()["link"] is True


def test_while_the_sensors_are_away_the_state_says_why_and_the_turn_pixels_flash_side_to_side(core: Core) -> None:
    from controller.lights.view import PALETTE

    started(core)
    status = core.chain.status_pixels
    turn = core.state()["frame"][status[0]]
    reason = "the board MCU speaks protocol 2, this pentago-board speaks 1: reflash it with `pentago-board firmware flash`"
    lit, off = PALETTE["no_sensors"], (0, 0, 0)
    frame = core.handle(LinkChange(2.0, False, reason)).frame
    assert core.state()["link_problem"] == reason
    assert [frame[i] for i in status] == [lit, off] * (len(status) // 2)
    later = core.handle(Tick(2.25)).frame  # then the other half: every other pixel by turns
    assert [later[i] for i in status] == [off, lit] * (len(status) // 2)
    back = core.handle(LinkChange(3.0, True, "MCU connected")).frame
    assert core.state()["link_problem"] is None and [list(back[status[0]])] == [turn]


def test_resume_a_finished_game_shows_its_outcome(core: Core) -> None:
    moves = ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R"]
    records = [{"kind": "start", "game": "classic", "players": 2, "computer": False, "match": False, "starter": 1}]
    for move in moves:
        hole_text, twist = move.split()
        records += [{"kind": "place", "hole": hole_text}, {"kind": "twist", "twist": twist}]
    records.append({"kind": "place", "hole": "a5"})
    resumed = Core(load_profile("virtual-6x6"), journal_records=records, start_time=100.0)
    state = resumed.state()
    assert (state["state"], state["moves"][-1], state["outcome"]["winners"]) == ("game_over", "a5", [1])


def test_an_unusable_journal_is_reported_with_the_first_effects() -> None:
    core = Core(load_profile("virtual-6x6"), journal_records=[
        {"kind": "start", "game": "classic", "players": 2}, {"kind": "twist", "twist": "9Q"}])
    notices = core.handle(Tick(0.0)).notices
    assert notices == ("journal record 2 cannot be used: '9Q' is not a twist: write the block number then R "
                       "(clockwise) or L (counter-clockwise), e.g. 4R (the record: {'kind': 'twist', "
                       "'twist': '9Q'}); resumed the game from the 1 record(s) before it",)
    assert core.state()["state"] == "awaiting_placement"  # the start before it is kept


def test_command_arguments_that_are_not_an_object_are_a_notice(core: Core) -> None:
    assert core.handle(Command(0.0, "new_game", ["classic"])).notices == (
        "new game: arguments must be an object, not ['classic']",)


@pytest.mark.parametrize("button, notice", [
    ("ok", "hint: thinking of a move for Seat 1"),  # the profile's hint gesture
    ("power", "button 'power' does nothing while a marble is awaited"),
])
def test_a_button_that_does_nothing_says_so_in_words(core: Core, button: str, notice: str) -> None:
    """Issue 9, item 18: notices name no flow state ("awaiting_placement") or command."""
    started(core)
    assert core.handle(ButtonPress(1.0, button)).notices == (notice,)


def test_a_colour_without_a_light_is_refused_at_start_up() -> None:
    from controller.errors import ProfileError
    with pytest.raises(ProfileError, match="marble colour 'pink' has no light"):
        Core(load_profile("virtual-6x6"), colours=("white", "pink"))


def test_an_action_the_rules_refuse_stops_the_sequence() -> None:
    from controller import games
    from controller.flow import Action, PlaceTwistFlow
    flow = PlaceTwistFlow(games)
    flow.new_game(games.options({"game": "classic", "players": 2}, 6), 0.0)
    records = flow.accept((Action("place", 0), Action("place", 1)), 1.0)  # a second placement
    assert records == [{"t": 1.0, "kind": "place", "hole": "a1"}]
    assert flow.state == "awaiting_twist"


def test_ok_after_a_game_returns_to_the_menu(core: Core) -> None:
    moves = ["a1 1R", "b2 1R", "a2 1L", "b3 1R", "a3 1L", "b4 2R", "a4 2R", "c4 2R"]
    records = [{"kind": "start", "game": "classic", "players": 2}]
    for move in moves:
        records += [{"kind": "place", "hole": move.split()[0]}, {"kind": "twist", "twist": move.split()[1]}]
    resumed = Core(load_profile("virtual-6x6"), journal_records=records + [{"kind": "place", "hole": "a5"}])
    effects = resumed.handle(ButtonPress(1.0, "ok"))
    assert effects.records == ({"t": 1.0, "kind": "menu"},) and resumed.state()["state"] == "choosing"


def test_a_new_game_lists_no_repair_from_the_game_before(core: Core) -> None:
    """Issue 9 item 15: a new Start showed the old game's repair step while awaiting a placement."""
    a6_1r(started(core))
    core.handle(HoleReading(3.0, hole("c6"), "empty"))
    core.handle(Tick(5.5))
    assert core.state()["repair"] == ["put a white marble on c6"]
    core.handle(Command(6.0, "new_game", {"game": "classic"}))
    assert (core.state()["state"], core.state()["repair"]) == ("awaiting_placement", [])
    core.handle(Tick(9.0))
    assert (core.state()["state"], core.state()["repair"]) == ("awaiting_placement", [])
