"""Pentago Triple's spec: its options checked through the rules with the messages a user sees,
its menu pages on the 6x6 board, its seats' status colours and its record variant."""

from __future__ import annotations

import pytest

from controller import games
from controller.flow.menu import Menu
from controller.games import OptionError, options
from controller.games.triple import SPEC


def test_triple_is_offered_on_6x6_only_with_its_defaults() -> None:
    assert SPEC in games.offered(6) and SPEC not in games.offered(9)
    assert options({"game": "triple"}, 6) == {
        "game": "triple", "players": 2, "two_colour": False, "mode": "shared", "cards": "", "seed": None,
        "computer": False, "hints": True}
    assert SPEC.variant(6) == "triple" and SPEC.computer


@pytest.mark.parametrize(("args", "checked"), [
    ({"players": 4, "personal": True}, {"mode": "personal"}),
    ({"mode": "bonus"}, {"mode": "bonus"}),
    ({"mode": "bonus", "bonus": True, "personal": False}, {"mode": "bonus"}),
    ({"cards": ["byryb", "RRYBB"], "players": 3}, {"cards": "BYRYB,RRYBB"}),
    ({"seed": 7, "two_colour": True}, {"seed": 7, "two_colour": True}),
])
def test_options_are_read_into_one_canonical_form(args: dict, checked: dict) -> None:
    got = options({"game": "triple", **args}, 6)
    assert {key: got[key] for key in checked} == checked


@pytest.mark.parametrize(("args", "message"), [
    ({"players": 5}, "players 5: Pentago Triple is for 2 to 4 players"),
    ({"players": "3"}, "players '3': Pentago Triple is for 2 to 4 players"),
    ({"personal": True, "bonus": True}, "mode: personal cards and the bonus game are two different games: choose one"),
    ({"mode": "bonus", "personal": True}, "mode 'bonus' disagrees with personal: true"),
    ({"mode": "solo"}, "mode 'solo': the modes are 'shared', 'personal' and 'bonus'"),
    ({"two_colour": "yes"}, "two_colour 'yes' must be true or false"),
    ({"bonus": 1}, "bonus 1 must be true or false"),
    ({"seed": -1}, "seed -1: a whole number from 0 to 2147483647"),
    ({"seed": 1.5}, "seed 1.5: a whole number from 0 to 2147483647"),
    ({"seed": True}, "seed True: a whole number from 0 to 2147483647"),
    ({"cards": 5}, "cards 5: give the cards as text, e.g. 'BYRYB,RRYBB', or a list of card words"),
    ({"cards": "BYRYX"}, "cards 'BYRYX': 'BYRYX' is not a card: write five colour letters B, Y or R, e.g. BYRYB"),
    ({"cards": "BYRYB,BYRYB", "players": 3}, "card BYRYB is given twice; the cards in a game differ"),
    ({"players": 3, "cards": "BYRYB"}, "3 players need 2 face-up cards, not 1"),
    ({"personal": True, "cards": "BYRYB"}, "personal cards: 2 players need 2 cards (one each), not 1"),
    ({"two_colour": True, "cards": "BYRYB"}, "two-colour play needs cards in exactly two colours; these use blue, yellow, red"),
    ({"players": 3, "computer": [4]}, "computer [4]: seat 4 is not a seat of this game (seats 1 to 3)"),
    ({"match": True}, "match True: Pentago Triple has no match option"),
])
def test_a_bad_option_is_refused_naming_it(args: dict, message: str) -> None:
    with pytest.raises(OptionError) as error:
        options({"game": "triple", **args}, 6)
    assert str(error.value) == message


def test_the_menu_asks_players_two_colour_and_mode_on_6x6() -> None:
    menu = Menu(games.offered(6), 6)
    menu.see({menu.option_holes()[1]})  # a marble on b1: Pentago Triple
    menu.see(set())
    pages = []
    for pick in (1, 0, 2, 2, 1):  # 3 players, three colours, the bonus game, the computer at seats 2 and 3, level 0
        pages.append((menu.page_name(), menu.values()))
        menu.see({menu.option_holes()[pick]})
        chosen = menu.see(set())
    assert pages == [("players", (2, 3, 4)), ("two_colour", (False, True)), ("mode", ("shared", "personal", "bonus")),
                     ("computer", (False, [3], [2, 3], [1], [1, 2, 3])), ("level", (None, 0, 1, 2, 3))]
    assert chosen == {"game": "triple", "players": 3, "two_colour": False, "mode": "bonus", "cards": "", "seed": None,
                      "computer": [2, 3], "level": 0, "hints": True}


def test_marbles_are_blue_yellow_red_and_seats_wear_none_of_them() -> None:
    assert options({"game": "triple"}, 6).colours(("white", "black")) == ("blue", "yellow", "red")
    from controller.colours import status_colours
    four = status_colours(("blue", "yellow", "red"), 4)
    assert len(set(four)) == 4 and not set(four) & {"blue", "yellow", "red"}
