"""Picture-Puzzle chosen on the board's own LED menu: the players, the picture (the board's
pictures, easiest first, on the bottom row and the rows above it when a row is too short) and
the first k; a picture saved from the board appears there and plays."""

from __future__ import annotations

import pytest

from controller.events import Command
from controller.games.puzzle import by_difficulty
from controller.rules import hole_name
from controller.games import PictureStore
from controller.rules.puzzle.pictures import library_names, library_picture
from tests.flow.rig import Rig


@pytest.fixture
def user_pictures(tmp_path):
    return PictureStore(tmp_path / "pictures")  # the board's store, which its menu reads and the rig's saves use


def pick(r: Rig, value) -> None:
    """Put a marble on the lit hole of ``value`` on the current page, then lift it."""
    menu = r.core.menu
    hole = hole_name(menu.option_holes()[menu.values().index(value)], r.profile.geometry)
    r.do("place", hole, "white"); r.wait()
    r.do("lift", hole); r.wait()


def choose(r: Rig, players: int, picture: str, k: int) -> None:
    pick(r, "puzzle")
    assert r.core.menu.page_name() == "players"
    pick(r, players)
    assert r.core.menu.page_name() == "picture"
    assert r.core.menu.values() == by_difficulty(r.core.games.pictures, r.profile.size)
    pick(r, picture)
    assert r.core.menu.page_name() == "start_k" and r.core.menu.values() == (1, 2, 3, 4)
    pick(r, k)


def test_the_picture_page_offers_the_boards_pictures_easiest_first_on_more_than_one_row():
    r = Rig(sensing="colour")
    pick(r, "puzzle"); pick(r, 2)
    menu = r.core.menu
    assert sorted(menu.values()) == sorted(library_names(6)) and len(menu.values()) == 11
    names = [hole_name(h, r.profile.geometry) for h in menu.option_holes()]
    assert names == ["a1", "b1", "c1", "d1", "e1", "f1", "a2", "b2", "c2", "d2", "e2"]
    assert menu.values()[:2] == ("red-cross", "square") and menu.values()[-1] == "jackson-pollock"
    assert r.core.state()["menu"]["options"][0]["means"].startswith("Red Cross (difficulty")


@pytest.mark.parametrize("profile, picture, k", [("virtual-6x6", "house", 3), ("virtual-9x9", "four-w", 2)])
def test_choosing_a_picture_and_k_on_the_menu_starts_that_game(profile, picture, k):
    r = Rig(sensing="colour", profile_name=profile)
    choose(r, 3, picture, k)  # house is on the second row of the 6x6 board's picture page
    flow = r.core.flow
    assert flow.options["game"] == "puzzle" and flow.options["players"] == 3
    assert flow.options["picture"] == picture and flow.options["start_k"] == k
    assert flow.game.picture == library_picture(picture, r.profile.size)


def test_a_picture_saved_from_the_board_is_offered_on_the_menu_and_plays(user_pictures):
    r = Rig(pictures=user_pictures, sensing="colour")
    stones = (("a1", "red"), ("b1", "red"), ("c2", "green"), ("f6", "black"))
    for hole, colour in stones:
        r.do("place", hole, colour)
    r.wait()
    r.feed(Command(r.t, "save_picture", {"title": "Our Boat"}))
    assert r.notices[-1] == "saved the picture 'Our Boat' (4 stones) as 'our-boat' for the 6x6 board (our-boat.txt)"
    assert (user_pictures.folder / "6x6" / "our-boat.txt").read_text().splitlines()[0] == "Our Boat"
    assert user_pictures.names(6)[-1] == "our-boat" and "our-boat" not in user_pictures.names(9)
    assert by_difficulty(user_pictures, 6)[-1] == "our-boat"  # after the shipped pictures, whose holes stay put
    for hole, _ in stones:
        r.do("lift", hole)
    r.wait()
    choose(r, 2, "our-boat", 1)
    assert r.core.flow.options["picture"] == "our-boat"
    assert r.core.flow.game.picture.stone_count == 4
    assert "build Our Boat" in r.notices[-1]


@pytest.mark.parametrize("title, said", [
    ("", "a title has 1 to 30 characters"), ("x" * 31, "a title has 1 to 30 characters"),
    ("../etc/passwd", "only letters, digits, spaces, - and ' (no '.')"), (7, "give the picture's title as text"),
    ("Red Cross", "a picture named 'red-cross' is already in the 6x6 library"), (None, "give the picture's title as text"),
])
def test_a_bad_title_is_refused_with_a_notice_and_nothing_is_saved(user_pictures, title, said):
    r = Rig(pictures=user_pictures, sensing="colour")
    r.do("place", "c3", "white"); r.wait()
    r.feed(Command(r.t, "save_picture", {"title": title}))
    assert r.notices[-1].startswith("save picture: ") and said in r.notices[-1]
    assert not (user_pictures.folder / "6x6").exists() or not list((user_pictures.folder / "6x6").iterdir())


def test_a_saved_title_is_not_saved_again_and_an_empty_or_foreign_board_is_refused(user_pictures):
    r = Rig(pictures=user_pictures, sensing="colour")
    r.feed(Command(r.t, "save_picture", {"title": "Nothing"}))
    assert r.notices[-1] == "save picture: the board is empty: put the picture's stones on it first"
    r.do("place", "c3", "white"); r.wait()
    r.feed(Command(r.t, "save_picture", {"title": "Dot"}))
    r.feed(Command(r.t, "save_picture", {"title": "dot"}))
    assert "a picture named 'dot' is already in the 6x6 library" in r.notices[-1]
    assert (user_pictures.folder / "6x6" / "dot.txt").read_text().startswith("Dot\n")
    r.do("place", "d4", "blue"); r.wait()
    r.feed(Command(r.t, "save_picture", {"title": "Blue"}))
    assert r.notices[-1] == "save picture: the blue marble on d4 has no picture colour (white, black, red, green)"


def test_a_presence_board_saves_its_marbles_white_and_no_folder_is_a_notice(user_pictures):
    r = Rig(pictures=user_pictures, sensing="presence")
    r.do("place", "a1"); r.do("place", "f6"); r.wait()
    r.feed(Command(r.t, "save_picture", {"title": "Corners"}))
    corners = user_pictures.picture("corners", 6)
    assert corners.rows()[0] == ".....W" and corners.colours_used == (0,)
    bare = Rig(sensing="presence")  # a board whose games were given no library
    bare.do("place", "a1"); bare.wait()
    bare.feed(Command(bare.t, "save_picture", {"title": "Again"}))
    assert bare.notices[-1] == "save picture: this board keeps no user pictures (no state directory)"


# -- practice on the menu (issue 13): 1 player on the players page, then the dismantle level ----

def test_one_player_on_the_menu_is_practice_and_the_level_page_follows():
    from controller.ai.puzzle import dismantle
    from controller.rules.puzzle import PuzzleGame

    r = Rig(sensing="colour", profile_name="virtual-9x9")
    pick(r, "puzzle")
    menu = r.core.menu
    assert menu.values() == (2, 3, 4, 1)  # 2, 3 and 4 keep their holes; 1 comes after them, on d1
    assert r.core.state()["menu"]["options"][3]["means"] == "1 player: practice alone (the computer dismantles)"
    pick(r, 1)
    assert menu.page_name() == "level" and menu.values() == (0, 1, 2, 3)
    assert r.core.state()["menu"]["options"][3]["means"].startswith("dismantle level 3:")
    pick(r, 3)
    assert menu.page_name() == "picture"
    pick(r, "orion"); pick(r, 2)
    flow = r.core.flow
    assert (flow.options["players"], flow.options["practice"], flow.options["level"]) == (1, True, 3)
    for hole, colour in library_picture("orion", 9).holes():
        r.do("place", hole_name(hole, r.profile.geometry), ("white", "black", "red", "green")[colour])
    r.wait()
    fresh = PuzzleGame(flow.game.picture, flow.game.options)
    fresh.begin(0.0)
    assert flow.game.step == "dismantle" and flow.game.plan == list(dismantle(fresh, seed=0, level=3))


def test_players_take_turns_without_a_level_page_and_without_a_level():
    r = Rig(sensing="colour")
    pick(r, "puzzle"); pick(r, 2)
    assert r.core.menu.page_name() == "picture" and r.core.menu.chosen["level"] is None
    pick(r, "red-cross"); pick(r, 1)
    assert not r.core.flow.options["practice"] and "level" not in r.core.flow.options


def test_ok_on_the_level_page_takes_level_1_and_back_returns_to_the_players():
    r = Rig(sensing="colour")
    pick(r, "puzzle"); pick(r, 1)
    menu = r.core.menu
    r.do("press", "back"); r.wait()
    assert menu.page_name() == "players"
    pick(r, 1)
    r.do("press", "ok"); r.wait()
    assert menu.page_name() == "picture" and menu.chosen["level"] == 1
