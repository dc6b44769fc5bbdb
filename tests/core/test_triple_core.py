"""Pentago Triple through the core on a virtual board: the colour confirmed with the cycle and
confirm buttons (presence and polarity sensing), skipped where the sensors see colour, a twist
made before the confirmation, the move phase refusing the marble played last with guidance,
eliminations and the winner in light, and a resume into the move phase."""

from __future__ import annotations

from typing import Any

from controller.profile import ColourInput
from controller.rules import TripleGame, TripleOptions, hole_name, parse_cards
from controller.events import Command
from tests.flow.rig import Rig

CARDS = "BBBBY,RRRRY"
GRACE_S = 2.5  # longer than the core's grace time: repair mode starts


def triple_rig(sensing: str = "presence", players: int = 3, cards: str = CARDS, **core: Any) -> Rig:
    rig = Rig(sensing=sensing, **core)
    if sensing != "colour":  # a real build's buttons: back cycles, ok confirms
        rig.core.colour_input = ColourInput()
    if not core.get("journal_records"):
        rig.feed(Command(rig.t, "new_game", {"game": "triple", "players": players, "cards": cards}))
    return rig


def place(rig: Rig, hole: str, colour: str | None = None) -> None:
    rig.do("place", hole, colour)
    rig.wait()


def twist(rig: Rig, block: int, clockwise: bool = True) -> None:
    for _ in range(rig.board.detents_per_quarter):
        rig.board.turn(block, 1 if clockwise else -1)
        rig.wait(0.03)
    rig.wait()


def press(rig: Rig, *buttons: str) -> None:
    for button in buttons:
        rig.do("press", button)
        rig.wait(0.2)


def test_a_presence_board_asks_the_colour_shown_on_the_hole_cycled_and_confirmed() -> None:
    rig = triple_rig()
    place(rig, "b5")
    state = rig.core.state()
    assert state["state"] == "confirming_colour" and state["confirm"] == {"hole": "b5", "colour": "blue"}
    assert rig.lit().startswith("turn:blue blue:b5")  # the hole blinks in the colour assumed
    press(rig, "back", "back")
    assert rig.core.state()["confirm"]["colour"] == "red" and not [r for r in rig.records if r["kind"] == "place"]
    press(rig, "ok")
    assert rig.records[-1] == {"t": rig.records[-1]["t"], "kind": "place", "hole": "b5", "colour": "R"}
    twist(rig, 4)
    assert rig.core.state()["moves"] == ["Rb5 4R"] and rig.core.state()["state"] == "awaiting_placement"
    assert rig.core.flow.repairs == 0


def test_a_twist_made_before_the_colour_is_confirmed_counts_once_it_is() -> None:
    rig = triple_rig()
    place(rig, "b5")
    twist(rig, 2)
    press(rig, "back", "ok")  # yellow
    rig.wait()
    assert rig.core.state()["moves"] == ["Yb5 2R"] and rig.core.flow.repairs == 0


def test_lifting_the_marble_before_confirming_takes_the_placement_back() -> None:
    rig = triple_rig()
    place(rig, "b5")
    rig.do("lift", "b5")
    rig.wait()
    assert rig.core.state()["state"] == "awaiting_placement" and rig.core.state()["confirm"] is None


def test_a_colour_sensing_board_skips_the_confirmation() -> None:
    rig = triple_rig(sensing="colour")
    place(rig, "b5", "yellow")
    assert rig.core.state()["state"] == "awaiting_twist"
    twist(rig, 1, clockwise=False)
    assert rig.core.state()["moves"] == ["Yb5 1L"]


def test_a_polarity_board_shows_the_sensed_pole_s_colour_first() -> None:
    rig = triple_rig(sensing="polarity")
    place(rig, "c3", "black")  # south up: the game's second colour, yellow
    assert rig.core.state()["confirm"] == {"hole": "c3", "colour": "yellow"}
    press(rig, "ok")
    twist(rig, 1)
    assert rig.core.state()["moves"] == ["Yc3 1R"]


def test_an_elimination_lights_the_pattern_and_the_seat_then_the_winner() -> None:
    rig = triple_rig(sensing="colour", players=2, cards="BBBBY")
    for hole in ("a1", "b1", "c1", "d1"):
        place(rig, hole, "blue")
        twist(rig, 1)
    place(rig, "e1", "yellow")  # seat 1 completes BBBBY: seat 2, before it, is out: seat 1 wins
    state = rig.core.state()
    assert state["state"] == "game_over" and state["outcome"]["winners"] == [1]
    assert state["eliminated"] == [2] and state["cards"] == []
    view = rig.core.view()
    assert view.turn == state["seats"][0]["colour"] == "white"
    assert sorted(hole_name(x.hole, rig.profile.geometry) for x in view.holes) == ["a1", "b1", "c1", "d1", "e1"]
    assert any("Seat 1 completed BBBBY: Seat 2 is out" in n for n in rig.notices)


def move_phase_journal() -> tuple[list[dict], TripleGame]:
    """A two-player game's journal up to its move phase, and the rules' game at that point."""
    game = TripleGame(TripleOptions(players=2, cards=parse_cards("BYRYB")))
    records: list[dict] = [{"kind": "start", "game": "triple", "players": 2, "cards": "BYRYB", "seed": 0,
                            "starter": 1}]
    while not game.is_move_phase():
        move = next(m for m in game.legal_moves() if m.twist is not None)
        game.push(move)
        g = game.geometry
        records += [{"kind": "place", "hole": hole_name(move.hole, g), "colour": "BYR"[move.colour]},
                    {"kind": "twist", "twist": str(move.twist)}]
    return records, game


def test_the_move_phase_refuses_the_marble_played_last_and_guides_it_back() -> None:
    records, game = move_phase_journal()
    rig = triple_rig(sensing="colour", journal_records=records)
    for hole in range(36):
        colour = game.position.colour_at(hole)
        if colour is not None:
            rig.do("place", hole, ("blue", "yellow", "red")[colour])
    rig.wait()
    assert rig.core.state()["state"] == "awaiting_placement" and rig.core.flow.repairs == 0
    last = hole_name(game.last_played, game.geometry)
    rig.do("lift", last)
    rig.wait()
    assert f"refused: the marble on {last} was played last; move another marble" in rig.notices
    rig.wait(GRACE_S)
    assert rig.core.state()["state"] == "repair" and rig.lit().startswith("turn:") and f"put_back:{last}" in rig.lit()


def test_a_move_lifts_one_marble_and_puts_it_on_an_empty_hole_then_twists() -> None:
    records, game = move_phase_journal()
    rig = triple_rig(sensing="colour", journal_records=records)
    for hole in range(36):
        colour = game.position.colour_at(hole)
        if colour is not None:
            rig.do("place", hole, ("blue", "yellow", "red")[colour])
    rig.wait()
    move = next(m for m in game.legal_moves() if m.twist is not None)
    g = game.geometry
    rig.do("lift", hole_name(move.origin, g))
    rig.wait()
    assert rig.records[-1]["kind"] == "lift" and rig.core.state()["state"] == "awaiting_placement"
    rig.do("place", hole_name(move.hole, g), ("blue", "yellow", "red")[game.position.colour_at(move.origin)])
    rig.wait()
    twist(rig, move.twist.block, move.twist.clockwise)
    assert rig.core.state()["moves"][-1] == game.move_name(move)


def test_the_state_s_record_of_a_finished_game_replays_to_the_same_standings() -> None:
    from controller.games import parse_record, replay
    from controller.rules import Record, format_record

    rig = triple_rig(sensing="colour", players=2, cards="BBBBY")
    for hole in ("a1", "b1", "c1", "d1"):
        place(rig, hole, "blue")
        twist(rig, 1)
    place(rig, "e1", "yellow")
    record = rig.core.state()["record"]
    again = replay(parse_record(format_record(Record(record["headers"], record["moves"]))))
    assert again.outcome.standings == ((1,), (2,)) and again.eliminated == (2,)
    assert record["moves"] == ["Ba1 1R", "Bb1 1R", "Bc1 1R", "Bd1 1R", "Ye1"]
