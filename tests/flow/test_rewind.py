"""PlaceTwistFlow.rewind: the referee's way to withdraw moves a later reading proved wrong, even
the move that ended the game; its records replay to the same game."""

from __future__ import annotations

from controller import games
from controller.flow import Action, PlaceTwistFlow
from controller.rules import Twist, geometry, parse_hole

G = geometry(6)


def flow_of(options: dict) -> PlaceTwistFlow:
    flow = PlaceTwistFlow(games, ("white", "black"), 6)
    flow.new_game(games.options(options, 6), 0.0)
    return flow


def play(flow: PlaceTwistFlow, *moves: str) -> list[dict]:
    records = []
    for move in moves:
        hole, *twist = move.split()
        actions = (Action("place", parse_hole(hole, G)),)
        if twist:
            actions += (Action("twist", twist=Twist(int(twist[0][0]), twist[0][1] == "R")),)
        records += flow.accept(actions, 1.0)
    return records


FOUR = ("a1 2R", "a6 2R", "b1 2R", "b6 2R", "c1 2R", "c6 2R", "d1 2R", "a5 2R")


def test_rewind_to_a_placement_awaiting_its_twist() -> None:
    flow = flow_of({"game": "classic"})
    play(flow, "a1 2R", "a6 2R")
    records = flow.rewind(1, True, parse_hole("a6", G), 2.0)
    assert [r["kind"] for r in records] == ["take_back"] and flow.state == "awaiting_twist"
    assert flow.move_texts() == ["a1 2R"] and flow.placed_hole == parse_hole("a6", G)
    assert [r["kind"] for r in flow.rewind(1, False, None, 2.0)] == ["take_back"]
    assert flow.state == "awaiting_placement" and flow.placed_hole is None


def test_rewind_over_a_skipped_twist_puts_the_placement_back() -> None:
    flow = flow_of({"game": "classic"})
    play(flow, "a1 2R", "a6")
    flow.accept((Action("skip"), Action("place", parse_hole("f1", G))), 1.5)
    records = flow.rewind(1, True, parse_hole("a6", G), 2.0)
    assert [r["kind"] for r in records] == ["take_back", "take_back", "place"]
    assert flow.move_texts() == ["a1 2R"] and flow.state == "awaiting_twist"


def test_rewind_after_the_end_plays_on_and_the_journal_agrees() -> None:
    options = games.options({"game": "classic", "match": True}, 6)
    flow = flow_of(options)
    records = play(flow, *FOUR, "e1")
    assert flow.state == "between_games" and len(flow.match.outcomes) == 1
    records += flow.rewind(8, False, None, 2.0)
    assert flow.state == "awaiting_placement" and flow.game.outcome is None and flow.match.outcomes == []
    rebuilt = PlaceTwistFlow(games, ("white", "black"), 6)
    assert rebuilt.replay([{"kind": "start", **options}, *records]).problem is None
    assert rebuilt.move_texts() == list(FOUR) and rebuilt.state == "awaiting_placement"
    assert rebuilt.match.outcomes == []


def test_rewind_after_a_twist_that_ended_the_game_leaves_its_placement_awaiting_a_twist() -> None:
    flow = flow_of({"game": "classic"})
    play(flow, "a1 2R", "a6 2R", "b1 2R", "b6 2R", "c1 2R", "c6 2R", "f1 2R", "a5 2R", "f2 4R")
    assert flow.state == "game_over" and flow.game.outcome.winners == (1,)  # f1, f2 turned onto d1, e1
    flow.rewind(8, True, parse_hole("f2", G), 2.0)
    assert flow.state == "awaiting_twist" and flow.placed_hole == parse_hole("f2", G)
    assert flow.game.outcome is None
