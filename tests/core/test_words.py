"""Issue 22, items 5, 8 and 9: what the board says to players, in their words. Every notice
names the seats by the names typed ("Ann: look away! Bo: dismantle now", never "seat 2"), a
computer seat left unnamed is "Computer (easy)" (its level: the game's or the board's), and the
headline (the state's ``doing``) names the step in hand: the Picture-Puzzle build, dismantle and
restore with what is still to do, Triple's move phase as a move, not a placement."""

from __future__ import annotations

from controller.core import Core
from controller.events import Command
from controller.profile import load_profile
from controller.rules import hole_name
from controller.rules.puzzle.pictures import library_picture
from tests.flow.rig import Rig

ORION = library_picture("orion", 9)
PUZZLE = {"game": "puzzle", "picture": "orion", "players": 3, "names": ["Ann", "Bo", "Cy"]}


def build(r: Rig) -> None:
    for hole, colour in ORION.holes():
        r.do("place", hole_name(hole, r.profile.geometry), ("white", "black", "red", "green")[colour])
    r.wait()


def test_picture_puzzle_names_its_players_and_its_headline_names_the_step():
    r = Rig(sensing="colour", profile_name="virtual-9x9", start=PUZZLE)
    assert r.notices[0] == "new game of Picture-Puzzle: Ann to move"
    assert r.core.state()["doing"] == "Build Orion: put a stone on each lit hole, in its colour"
    build(r)
    assert "Ann: look away! Bo: dismantle now (1 stone out, 1 twist)" in r.notices
    assert r.core.state()["doing"] == "Bo: take 1 stone out and make 1 twist (Ann looks away)"
    r.do("lift", "e8")
    r.wait()
    assert r.core.state()["doing"] == "Bo: make 1 twist (Ann looks away)"
    r.do("quarter", 1, True)
    r.wait()
    assert r.notices[-1] == "Ann: restore now"
    assert r.core.state()["doing"] == "Ann restores: 1 placement and 1 twist to go"
    r.do("place", "e8", "white")
    r.wait()
    assert r.core.state()["doing"] == "Ann restores: 0 placements and 1 twist to go"
    r.do("quarter", 1, False)
    r.wait()
    assert "Ann restored the picture" in r.notices and "Bo: look away! Cy: dismantle now (1 stone out, 1 twist)" in r.notices


def test_practice_s_headline_says_the_computer_dismantles_and_what_is_left():
    r = Rig(sensing="colour", profile_name="virtual-9x9", start={**PUZZLE, "players": 1, "names": ["Ada"]})
    build(r)
    assert r.core.state()["doing"] == ("The computer dismantles: do the lit steps (take 1 stone out and make "
                                       "1 twist to go) while Ada looks away")


def test_a_family_game_s_notices_and_standings_are_in_names():
    r = Rig(sensing="colour", profile_name="virtual-9x9",
            start={"game": "multiplayer", "players": 3, "names": ["Ann", "Bo", "Cy"]})
    for ann, bo, cy in (("a1", "i9", "i1"), ("a2", "h9", "h1"), ("a3", "g9", "g1"), ("a4", "i8", "i2")):
        for hole in (ann, bo, cy):
            r.do("place", hole, None)
            r.wait()
    r.do("place", "a5", None)
    r.wait()
    assert "Ann takes place 1" in r.notices and "h9 placed by Bo" in r.notices


def test_a_computer_seat_is_named_for_the_computer_and_its_level():
    core = Core(load_profile("virtual-6x6"))
    core.set_level(2)
    notices = core.handle(Command(0.0, "new_game", {"game": "classic", "computer": [1], "names": ["Seat 1", "Bo"]})).notices
    assert notices[0] == "new game of Classic Pentago: Computer (normal) to move"
    assert [s["name"] for s in core.state()["seats"]] == ["Computer (normal)", "Bo"]
    core.set_level(0)  # the config reloaded: a game that names no level plays (and is named) at the new one
    assert core.state()["seats"][0]["name"] == "Computer (beginner)"
    core.handle(Command(1.0, "new_game", {"game": "classic", "computer": True, "level": 1}))
    assert [s["name"] for s in core.state()["seats"]] == ["Seat 1", "Computer (easy)"]
    assert core.state()["record"]["headers"]["Player 2"] == "Computer (easy)"


def test_triple_s_move_phase_asks_for_a_move_and_its_levels_are_its_own():
    import copy

    from controller.games import get

    level = get("triple").choice("level")
    assert not any("five" in words for words in level.words) and "forces" in level.means(3)
    core = Core(load_profile("virtual-6x6"))
    core.handle(Command(0.0, "new_game", {"game": "triple", "players": 2, "cards": "BBBBB"}))
    assert core.state()["doing"] == "to place a marble"
    game = core.flow.game
    while not game.is_move_phase():  # the rules' moves (the headline reads the game and the flow's state)
        for move in game.legal_moves():
            after = copy.deepcopy(game)
            after.push(move)
            if not after.claims and not after.is_over():
                game.push(move)
                break
    assert core.state()["doing"] == "to move a marble: lift one (not the one played last), then put it on an empty hole"
    origin = next(h for h in range(36) if game.position.colour_at(h) is not None and h != game.last_played)
    game.lift(origin)
    assert core.state()["doing"] == f"to put the marble lifted from {hole_name(origin, game.geometry)} on an empty hole"
