"""Pentago Triple's flow: colour confirmation, placements and the twist, patterns on the
placement or after the twist, eliminations, the move phase and its forbidden marble, the cards
in light and the journal replay at every record boundary."""

from __future__ import annotations

from typing import Any

from controller.board import Diff
from controller.flow import Action
from controller.flow.menu import Menu
from controller.games.triple.flow import TripleFlow, explain, scene
from controller.games.triple import SPEC
from controller.flow.options import GameOptions
from controller.rules import Twist, geometry, hole_name, parse_hole

G = geometry(6)
COLOURS = {"B": 0, "Y": 1, "R": 2}


class Catalogue:
    """The registry's part the flow uses (a start record's check), for Triple alone."""

    def options(self, args: dict[str, Any], size: int) -> GameOptions:
        return SPEC.options(args, size)


def flow_of(**options: Any) -> TripleFlow:
    flow = TripleFlow(Catalogue(), ("white", "black"), 6)
    flow.new_game(SPEC.options(options, 6), 0.0)
    return flow


def h(name: str) -> int:
    return parse_hole(name, G)


def turn(flow: TripleFlow, text: str) -> list[dict]:
    """One whole turn as sensed actions: ``Rb5 4R`` (colour sensed), ``a1-b5 4R``, bare ``Rb5``."""
    head, _, twist = text.partition(" ")
    if "-" in head:
        origin, target = head.split("-")
        actions = [Action("lift", h(origin)), Action("drop", h(target))]
    else:
        actions = [Action("place", h(head[1:]), colour=COLOURS[head[0]])]
    if twist:
        actions.append(Action("twist", twist=Twist(int(twist[0]), twist[1] == "R")))
    return flow.accept(tuple(actions), 1.0)


def lit(flow: TripleFlow):
    return scene(flow, Menu((SPEC,), 6), [])


# -- colour confirmation -----------------------------------------------------------------------

def test_an_unsensed_placement_waits_for_its_colour_cycled_then_confirmed() -> None:
    flow = flow_of(players=2, cards="BBBBY")
    assert flow.accept((Action("place", h("b5")),), 1.0) == []  # nothing journalled yet
    assert flow.state == "confirming_colour" and flow.awaits_colour() == "blue"
    assert flow.expected().colour_at(h("b5")) == 0  # the marble is expected where it sits
    view = lit(flow)
    assert view.turn == "blue" and [(x.hole, x.colour, x.blink) for x in view.holes] == [(h("b5"), "blue", True)]
    assert flow.colour_button("cycle", 2.0) == [] and flow.awaits_colour() == "yellow"
    flow.colour_button("cycle", 2.5)
    assert flow.awaits_colour() == "red"
    records = flow.colour_button("confirm", 3.0)
    assert records == [{"t": 3.0, "kind": "place", "hole": "b5", "colour": "R"}]
    assert flow.state == "awaiting_twist" and flow.awaits_colour() is None and flow.game.in_box(2) == 8


def test_the_guess_is_the_last_colour_placed_and_cycling_skips_colours_out_of_the_box() -> None:
    flow = flow_of(players=2, cards="BBBBY")
    turn(flow, "Ya1 1R")
    flow.accept((Action("place", h("f6")),), 1.0)
    assert flow.awaits_colour() == "yellow"
    flow.colour_button("confirm", 1.0)
    flow = flow_of(players=2, cards="BBBBY", two_colour=True)
    flow.accept((Action("place", h("f6")),), 1.0)
    flow.colour_button("cycle", 1.0)
    flow.colour_button("cycle", 1.0)
    assert flow.awaits_colour() == "blue"  # blue, yellow, blue: red is out of play


def test_a_pending_placement_can_be_lifted_or_slid_and_a_twist_waits_for_the_colour() -> None:
    flow = flow_of(players=2, cards="BBBBY")
    flow.accept((Action("place", h("b5")),), 1.0)
    game = flow.game
    assert explain(game, Diff(removed=(h("b5"),)), flow.placed_hole, None) == (Action("take_back"),)
    slid = explain(game, Diff(removed=(h("b5"),), added=((h("c5"), None),)), flow.placed_hole, None)
    assert slid == (Action("take_back"), Action("place", h("c5")))
    assert flow.accept(slid, 1.5) == [] and flow.pending == (h("c5"), 0)
    assert flow.accept((Action("twist", twist=Twist(1, True)),), 2.0) == []
    assert flow.take_news() == ["refused: confirm the colour of the marble just placed first"]
    assert flow.state == "confirming_colour"
    flow.accept((Action("take_back"),), 3.0)
    assert flow.state == "awaiting_placement" and flow.pending is None and flow.game.position.occupied == 0


def test_an_unsensed_placement_on_a_taken_hole_is_refused_at_once() -> None:
    flow = flow_of(players=2, cards="BBBBY")
    turn(flow, "Ba1 4R")
    assert flow.accept((Action("place", h("a1")),), 1.0) == []
    assert flow.pending is None and flow.take_news() == ["refused: hole a1 is already taken"]


# -- patterns and eliminations -----------------------------------------------------------------

def test_a_pattern_made_by_the_placement_ends_the_turn_without_a_twist_and_is_lit() -> None:
    flow = flow_of(players=3, cards="BBBBY,RRRRY")
    for text in ("Ba1 1R", "Bb1 1L", "Bc1 1R", "Bd1 1L"):
        turn(flow, text)
    records = turn(flow, "Ye1")  # seat 2 completes BBBBY on row 1: seat 1 (before it) is out
    assert [r["kind"] for r in records] == ["place"]
    assert flow.take_news() == ["Seat 2 completed BBBBY: Seat 1 is out"]
    assert flow.state == "awaiting_placement" and flow.game.eliminated == (1,) and flow.game.to_move == 3
    view = lit(flow)
    assert sorted(x.hole for x in view.holes) == [h(n) for n in ("a1", "b1", "c1", "d1", "e1")]
    assert view.status[0] == flow.seat_colour(1) and view.status[1] == "off"  # the eliminated seat
    assert view.patterns == (("red", "red", "red", "red", "yellow"),)  # the card left face up


def test_a_pattern_made_by_the_twist_counts_after_it() -> None:
    flow = flow_of(players=2, cards="RRRRY")
    for text in ("Ra1 1R", "Rb1 1R", "Rc1 1R", "Rf1 1R", "Yf2 1R"):
        turn(flow, text)
    records = turn(flow, "Ba2 4R")  # block 4 clockwise: f1 to d1, f2 to e1: RRRRY on row 1
    assert [r["kind"] for r in records] == ["place", "twist", "end"]
    assert flow.game.outcome.winners == (2,) and flow.state == "game_over"
    assert sorted(x.hole for x in lit(flow).holes) == [h(n) for n in ("a1", "b1", "c1", "d1", "e1")]


def test_a_two_player_game_is_won_and_lit_in_the_winner_s_colour() -> None:
    flow = flow_of(players=2, cards="BBBBY")
    for text in ("Ba1 1R", "Bb1 1L", "Bc1 1R", "Bd1 1L"):
        turn(flow, text)
    records = turn(flow, "Ye1")
    assert [r["kind"] for r in records] == ["place", "end"]
    assert records[-1]["winners"] == [1] and records[-1]["eliminated"] == [2]
    assert flow.state == "game_over"
    assert lit(flow).turn == flow.seat_colour(1) == "white"


# -- the move phase ----------------------------------------------------------------------------

def full_flow() -> TripleFlow:
    """Every marble on the board, no card completed: a two-player game in its move phase."""
    flow = flow_of(players=2, cards="BYRYB")
    game = flow.game
    while not game.is_move_phase():
        move = next(m for m in game.legal_moves() if m.twist is not None)
        turn(flow, game.move_name(move))
    return flow


def test_the_move_phase_lifts_and_drops_and_refuses_the_marble_played_last() -> None:
    flow = full_flow()
    game = flow.game
    last = game.last_played
    empty = next(x for x in range(36) if game.position.colour_at(x) is None)
    assert flow.accept((Action("lift", last),), 2.0) == []
    assert flow.take_news() == [f"refused: the marble on {hole_name(last, G)} was played last; move another marble"]
    other = next(x for x in range(36) if game.position.colour_at(x) is not None and x != last)
    assert explain(game, Diff(removed=(other,)), None, None) == (Action("lift", other),)
    records = flow.accept((Action("lift", other),), 3.0)
    assert records == [{"t": 3.0, "kind": "lift", "hole": hole_name(other, G)}] and game.lifted == other
    back = explain(game, Diff(added=((other, None),)), None, None)
    assert back == (Action("take_back"),)  # put back where it came from: the lift is taken back
    records = flow.accept((Action("drop", empty), Action("twist", twist=Twist(1, True))), 4.0)
    assert [r["kind"] for r in records] == ["drop", "twist"] and flow.state in ("awaiting_placement", "game_over")


def test_a_prompted_move_lights_in_its_marble_s_colour_never_the_prompt_s_blue() -> None:
    """Issue 22, item 1: the computer's move and every hint lit the hole in the prompt's blue,
    whatever colour the move needs, and blue is one of Triple's marbles. The hole shows the
    marble's colour; in the move phase the marble to lift blinks in its own colour first."""
    from controller.rules import TripleMove

    flow = flow_of(players=2, cards="BYRYB")
    view = scene(flow, Menu((SPEC,), 6), [], TripleMove(h("b5"), 1, None, Twist(4, True)))
    assert [(x.hole, x.colour, x.blink) for x in view.holes] == [(h("b5"), "yellow", False)]
    assert [(a.block, a.clockwise, a.colour) for a in view.arrows] == [(4, True, "prompt")]
    flow = full_flow()
    game = flow.game
    origin = next(x for x in range(36) if game.position.colour_at(x) is not None and x != game.last_played)
    colour = ("blue", "yellow", "red")[game.position.colour_at(origin)]
    empty = next(x for x in range(36) if game.position.colour_at(x) is None)
    move = TripleMove(empty, None, origin, Twist(1, True))
    view = scene(flow, Menu((SPEC,), 6), [], move)
    assert [(x.hole, x.colour, x.blink) for x in view.holes] == [(origin, colour, True)] and not view.arrows
    flow.accept((Action("lift", origin),), 3.0)
    view = scene(flow, Menu((SPEC,), 6), [], move)
    assert [(x.hole, x.colour, x.blink) for x in view.holes] == [(empty, colour, False)]


# -- the journal -------------------------------------------------------------------------------

def actions_of(text: str) -> list[Action]:
    head, _, twist = text.partition(" ")
    actions = [Action("place", h(head[1:]), colour=COLOURS[head[0]])]
    return actions + ([Action("twist", twist=Twist(int(twist[0]), twist[1] == "R"))] if twist else [])


def journal_and_states() -> tuple[list[dict], list[tuple]]:
    """A three-player game's journal, and what the flow was after each of its records."""
    flow = TripleFlow(Catalogue(), ("white", "black"), 6)
    records = [flow.new_game(SPEC.options({"players": 3, "cards": "BBBBY,RRRRY,YYYYB"}, 6), 0.0)]
    states = [_seen(flow)]
    for text in ("Ba1 1R", "Bb1 1L", "Bc1 1R", "Bd1 1L", "Ye1", "Ra5 2R", "Rb5 2R", "Rc5 2R", "Rd5 3R", "Ye5"):
        for action in actions_of(text):
            done = flow.accept((action,), 1.0)
            records += done
            states += [_seen(flow)] * len(done)
    assert flow.state == "game_over"
    return records, states


def _seen(flow: TripleFlow) -> tuple:
    return flow.state, flow.expected(), flow.move_texts(), flow.game.eliminated, flow.game.to_move


def test_a_power_cut_at_any_record_boundary_resumes_the_same_game() -> None:
    records, states = journal_and_states()
    for cut in range(1, len(records) + 1):
        resumed, resume = TripleFlow.resumed(records[:cut], Catalogue(), ("white", "black"), 6)
        assert resume.problem is None and resume.used == cut
        assert _seen(resumed) == states[cut - 1], cut


def test_a_placement_record_without_its_colour_stops_the_resume_with_a_reason() -> None:
    start = TripleFlow(Catalogue()).new_game(SPEC.options({"players": 2, "cards": "BBBBY"}, 6), 0.0)
    _, resume = TripleFlow.resumed([start, {"kind": "place", "hole": "a1"}], Catalogue())
    assert resume.used == 1 and "names its colour" in resume.problem


def test_no_seed_the_start_time_shuffles_and_the_record_keeps_it() -> None:
    flow = TripleFlow(Catalogue(), ("white", "black"), 6)
    record = flow.new_game(SPEC.options({"players": 3}, 6), 12.345)
    assert record["seed"] == 12345 and record["cards"] == ""
    again, _ = TripleFlow.resumed([record], Catalogue())
    assert again.game.cards == flow.game.cards


# -- the options on the board ------------------------------------------------------------------

def test_the_bonus_game_says_who_took_each_card_and_turns_the_next() -> None:
    flow = flow_of(players=2, mode="bonus", cards="BBBBY,RRRRY")
    for text in ("Ba1 1R", "Bb1 1L", "Bc1 1R", "Bd1 1L"):
        turn(flow, text)
    assert lit(flow).patterns == (("blue", "blue", "blue", "blue", "yellow"),)
    turn(flow, "Ye1")  # Seat 1 takes BBBBY; RRRRY is turned face up; nobody is out
    assert flow.take_news() == ["Seat 1 takes BBBBY"]
    assert [str(c) for c in flow.game.cards] == ["RRRRY"] and flow.state == "awaiting_placement"
    view = lit(flow)
    assert view.patterns == (("red", "red", "red", "red", "yellow"),) and view.status == ()
    assert view.turn == flow.seat_colour(2)  # a card taken knocks no one out: the turn goes on


def test_personal_cards_show_every_seat_s_card_and_only_your_own_wins() -> None:
    flow = flow_of(players=2, mode="personal", cards="BBBBY,RRRRY")
    assert lit(flow).patterns == (("blue", "blue", "blue", "blue", "yellow"), ("red", "red", "red", "red", "yellow"))
    for text in ("Ba1 1R", "Bb1 1L", "Bc1 1R", "Bd1 1L"):
        turn(flow, text)
    turn(flow, "Ye1")  # seat 1 builds BBBBY, its own card: it wins at once
    assert flow.state == "game_over" and flow.game.outcome.winners == (1,)
    flow = flow_of(players=2, mode="personal", cards="BBBBY,RRRRY")
    for text in ("Ba1 1R", "Bb1 1L", "Bc1 1R", "Bd1 1L", "Ra6 2R"):
        turn(flow, text)
    records = turn(flow, "Ye1 1R")  # seat 2 builds seat 1's card: nothing happens
    assert [r["kind"] for r in records] == ["place", "twist"] and flow.state == "awaiting_placement"


def test_two_colour_play_refuses_the_third_colour_in_words() -> None:
    flow = flow_of(players=2, two_colour=True, cards="BBBBY")
    assert turn(flow, "Ra1 1R") == []
    assert flow.take_news() == ["refused: red is out of play: two-colour play uses only blue and yellow"]


def test_a_take_back_takes_back_a_whole_turn_or_the_turn_so_far() -> None:
    flow = flow_of(players=2, cards="BBBBY")
    turn(flow, "Ba1 1R")
    assert flow.may_take_back()
    assert flow.accept((Action("take_back"),), 2.0) == [{"t": 2.0, "kind": "take_back"}]
    assert flow.move_texts() == [] and flow.game.position.occupied == 0 and flow.game.to_move == 1
    flow.accept((Action("place", h("c3"), colour=2),), 3.0)  # a placement awaiting its twist
    flow.accept((Action("take_back"),), 4.0)
    assert flow.state == "awaiting_placement" and flow.game.position.occupied == 0
    assert not flow.may_take_back()
