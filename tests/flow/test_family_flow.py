"""The place-then-twist flow with multiplayer and team games: turn order past finished seats,
places' rows staying lit, standings on the status pixels, the menu's pages and journal replay."""

from __future__ import annotations

import pytest

from controller import games
from controller.flow import Action, PlaceTwistFlow, next_colour
from controller.flow.menu import Menu
from controller.flow.scene import scene
from controller.rules import geometry, parse_hole

G9 = geometry(9)
THREE = {"game": "multiplayer", "players": 3}


def flow_of(options: dict, colours=("white", "black")) -> PlaceTwistFlow:
    flow = PlaceTwistFlow(games, colours, 9)
    flow.new_game(games.options(options, 9), 0.0)
    return flow


def play(flow: PlaceTwistFlow, *moves: str) -> list[dict]:
    """Each move a hole, placed then its twist skipped (blocks stay neutral in these games)."""
    records = []
    for text in moves:
        actions = [Action("place", parse_hole(text, G9))]
        if flow.game.phase.value == "place" and not _makes_five(flow, text):
            actions.append(Action("skip"))
        records += flow.accept(tuple(actions), 1.0)
    return records


def _makes_five(flow: PlaceTwistFlow, text: str) -> bool:
    game = flow.game
    return G9.has_five(game.position.stones[game.colour] | 1 << parse_hole(text, G9))


def lit(flow: PlaceTwistFlow) -> dict:
    view = scene(flow, Menu(games.offered(9), 9), [])
    return {"turn": view.turn, "status": view.status, "lines": len(view.win_lines), "colours": view.line_colours}


# Seat 1 builds column a, seat 2 column c, seat 3 column e; every twist skipped.
FIRST_PLACE = ["a1", "c1", "e1", "a2", "c2", "e2", "a3", "c3", "e3", "a4", "c4", "e4", "a5"]


def test_a_five_on_placement_ends_the_turn_not_the_game_and_the_row_stays_lit() -> None:
    flow = flow_of(THREE)
    play(flow, *FIRST_PLACE)
    assert flow.state == "awaiting_placement" and flow.game.standings == ((1,),)
    assert flow.game.to_move == 2 and flow.placed_hole is None
    assert lit(flow) == {"turn": "black", "status": (), "lines": 1, "colours": ("white",)}
    play(flow, "h9", "h1")  # seats 2 and 3 play on; the row stays lit in seat 1's colour
    assert lit(flow) == {"turn": "black", "status": (), "lines": 1, "colours": ("white",)}


def test_turn_order_skips_the_finished_seat() -> None:
    flow = flow_of(THREE)
    play(flow, *FIRST_PLACE)
    seats = []
    for hole in ("h9", "h1", "g9", "g1"):
        seats.append(flow.game.to_move)
        play(flow, hole)
    assert seats == [2, 3, 2, 3]


def test_the_colour_due_after_a_placement_is_the_next_seat_still_playing() -> None:
    flow = flow_of(THREE)
    play(flow, *FIRST_PLACE, "h9")
    flow.accept((Action("place", parse_hole("h1", G9)),), 2.0)  # seat 3 placed, its twist due
    assert flow.game.to_move == 3 and next_colour(flow.game) == 1  # seat 2 (black) next, not seat 1


def test_the_game_ends_with_full_standings_in_light() -> None:
    flow = flow_of(THREE)
    records = play(flow, *FIRST_PLACE, "c5")
    assert flow.state == "game_over"
    assert flow.game.outcome.standings == ((1,), (2,), (3,))
    assert records[-1]["kind"] == "end" and records[-1]["standings"] == [[1], [2], [3]]
    assert lit(flow) == {"turn": None, "status": ("white", "black", "red"), "lines": 2, "colours": ("white", "black")}


def test_a_team_win_lights_the_pair_and_the_standings() -> None:
    flow = flow_of({"game": "teams"})
    assert flow.colours == ("white", "black")
    # seats 1 and 3 (white) build column a together; 2 and 4 (black) column c
    play(flow, "a1", "c1", "a2", "c2", "a3", "c3", "a4", "c4", "a5")
    assert flow.state == "game_over" and flow.game.outcome.winners == (1, 3)
    assert lit(flow) == {"turn": None, "status": ("white", "white", "black", "black"), "lines": 1,
                         "colours": ("white",)}


def test_a_journal_replays_a_multiplayer_game_to_the_same_place() -> None:
    flow = flow_of(THREE)
    records = [{"t": 0.0, "kind": "start", **flow.options, "starter": 1}] + play(flow, *FIRST_PLACE, "h9")
    rebuilt = PlaceTwistFlow(games, ("white", "black"), 9)
    assert rebuilt.replay(records).problem is None
    assert rebuilt.move_texts() == flow.move_texts() and rebuilt.game.standings == ((1,),)
    assert (rebuilt.state, rebuilt.game.to_move, rebuilt.colours) == ("awaiting_placement", 3, ("white", "black", "red"))


def test_a_start_record_with_bad_options_is_refused_by_name() -> None:
    flow = PlaceTwistFlow(games, ("white", "black"), 9)
    resume = flow.replay([{"kind": "start", "game": "multiplayer", "players": 6}])
    assert resume.used == 0 and "players 6: Multiplayer Pentago is for 2 to 4 players" in resume.problem


# -- the menu: pages from the registry for the board's size --------------------------------------

def test_a_6x6_menu_asks_the_game_then_classic_s_pages() -> None:
    menu = Menu(games.offered(6), 6)
    assert (menu.page_name(), menu.values()) == ("game", ("classic", "triple", "puzzle"))
    menu.ok()
    assert menu.page_name() == "computer"
    menu.ok()
    assert menu.page_name() == "match"
    assert menu.ok() == {"game": "classic", "players": 2, "computer": False, "hints": True, "match": False}


@pytest.mark.parametrize(("picks", "pages", "options"), [
    ([1, 2, 0, 0], ["game", "players", "twist", "computer"],
     {"game": "multiplayer", "players": 4, "twist": "cw", "neutral_skip": True, "computer": False, "hints": True}),
    ([1, 1, 0, 2, 1], ["game", "players", "twist", "computer", "level"],  # the computer at seats 2 and 3, level 0
     {"game": "multiplayer", "players": 3, "twist": "cw", "neutral_skip": True, "computer": [2, 3], "level": 0,
      "hints": True}),
    ([2, 1, 2, 0], ["game", "twist", "computer", "level"],  # the second pair, at the board's level
     {"game": "teams", "players": 4, "twist": "both", "neutral_skip": True, "computer": [2, 4], "hints": True}),
    ([0, 1, 1, 0], ["game", "computer", "level", "match"],
     {"game": "classic", "players": 2, "computer": True, "level": 0, "hints": True, "match": False}),
    ([0, 0, 0], ["game", "computer", "match"], {"game": "classic", "players": 2, "computer": False, "hints": True, "match": False}),
])
def test_a_9x9_menu_offers_the_family_then_each_game_s_pages(picks, pages, options) -> None:
    menu = Menu(games.offered(9), 9)
    seen, result = [], None
    for pick in picks:
        seen.append(menu.page_name())
        assert menu.see({menu.option_holes()[pick]}) is None
        result = menu.see(set())
    assert seen == pages and result == options


def test_ok_takes_the_page_s_default_and_back_returns_to_the_game_page() -> None:
    menu = Menu(games.offered(9), 9)
    menu.see({menu.option_holes()[1]})
    menu.see(set())  # multiplayer
    assert (menu.page_name(), menu.values()) == ("players", (2, 3, 4))
    menu.back()
    assert menu.page_name() == "game" and menu.chosen == {}
    menu.see({menu.option_holes()[1]})
    menu.see(set())
    menu.ok()  # no pick: the default, 3 players
    assert menu.chosen["players"] == 3 and menu.page_name() == "twist"


def test_taking_back_the_five_takes_back_the_place() -> None:
    flow = flow_of(THREE)
    play(flow, *FIRST_PLACE)
    assert flow.may_take_back()
    records = flow.accept((Action("take_back"),), 3.0)
    assert records == [{"t": 3.0, "kind": "take_back"}]
    assert flow.game.standings == () and flow.game.to_move == 1 and flow.state == "awaiting_placement"
    assert lit(flow)["lines"] == 0
