"""Moves judged as soon as the board explains them, and withdrawn when a later reading proves
them wrong (events and a fake clock, ticked at the core's deadlines as the runtime does)."""

from __future__ import annotations

from typing import Any

from controller.commands.replay import tick_until
from controller.core import Core
from controller.events import Command, EncoderSteps, HoleReading
from controller.profile import load_profile
from controller.rules import geometry, parse_hole

G = geometry(6)
STEADY = 0.04


class Board:
    """A core driven like the runtime drives it: every event at its time, Ticks at the deadlines
    in between; the effects' records and notices collected."""

    def __init__(self, game: dict[str, Any] | None = None) -> None:
        self.core = Core(load_profile("virtual-6x6"), steady_s=STEADY)
        self.records: list[dict[str, Any]] = []
        self.notices: list[str] = []
        self.feed(Command(0.0, "new_game", game or {"game": "classic"}))

    def feed(self, event: Any) -> None:
        for effects in [*tick_until(self.core, event.t), self.core.handle(event)]:
            self.records += effects.records
            self.notices += effects.notices

    def read(self, t: float, name: str, reading: str = "marble") -> Board:
        self.feed(HoleReading(t, parse_hole(name, G), reading))
        return self

    def turn(self, t: float, block: int, steps: int, every_s: float = 0.05) -> Board:
        for i in range(abs(steps)):
            self.feed(EncoderSteps(t + i * every_s, block, 1 if steps > 0 else -1))
        return self

    def until(self, t: float) -> Board:
        self.feed(HoleReading(t, 0, self.core.physical.readings[0]))  # no change: time passes
        return self

    def accepted_at(self, kind: str) -> list[float]:
        return [r["t"] for r in self.records if r["kind"] == kind]

    @property
    def moves(self) -> list[str]:
        return self.core.state()["moves"]

    @property
    def state(self) -> str:
        return self.core.state()["state"]


def test_a_placement_is_accepted_once_the_readings_have_stood_for_the_steady_time() -> None:
    board = Board().read(1.0, "c3").until(1.5)
    assert board.accepted_at("place") == [1.0 + STEADY] and board.state == "awaiting_twist"


def test_a_twist_is_accepted_once_its_block_reads_the_turned_marbles_on_the_detent() -> None:
    board = Board().read(1.0, "a6").turn(2.0, 1, 6)  # the last detent at 2.25
    board.read(2.27, "a6", "empty").read(2.29, "c6").until(3.0)
    assert board.accepted_at("twist") == [2.29 + STEADY] and board.moves == ["a6 1R"]


def test_an_empty_block_is_accepted_on_its_detent_not_a_detent_short() -> None:
    """A neutral block's readings cannot say its turn is over: on the quarter only. (Accepted a
    detent short, the detent left over would stay counted, as a neutral block is never settled
    to rest, and its next twist with a detent too many would stand two off: found by the tape
    slow_and_missed_steps.)"""
    board = Board().read(1.0, "a1").turn(2.0, 1, 5).until(2.3)
    assert board.accepted_at("twist") == []
    board.turn(2.3, 1, 1).until(3.0)
    assert board.accepted_at("twist") == [2.3] and board.moves == ["a1 1R"]


def test_a_bouncing_marble_is_one_placement_and_nothing_is_withdrawn() -> None:
    board = Board().read(1.0, "c3").read(1.06, "c3", "empty").read(1.09, "c3").until(2.0)
    assert board.accepted_at("place") == [1.0 + STEADY] and board.accepted_at("take_back") == []
    assert board.core.referee.retractions == 0


def test_a_sensor_glitch_taken_for_a_placement_is_withdrawn_when_it_ends() -> None:
    board = Board().read(1.0, "c3").read(1.1, "c3", "empty").until(2.0)
    assert board.accepted_at("place") == [1.0 + STEADY]
    assert board.accepted_at("take_back") == [1.1 + 0.15]  # on the settled board
    assert board.state == "awaiting_placement" and board.core.referee.retractions == 1
    assert "withdrawn: c3 (a later reading showed otherwise)" in board.notices


def test_a_marble_rolling_on_is_withdrawn_where_it_left_and_accepted_where_it_stops() -> None:
    board = Board().read(1.0, "c3").read(1.1, "c3", "empty").read(1.12, "d3").until(2.0)
    assert [r.get("hole") for r in board.records if r["kind"] in ("place", "take_back")] == ["c3", None, "d3"]
    assert board.state == "awaiting_twist" and board.core.referee.retractions == 1


def test_a_twist_a_detent_short_is_the_twist_and_the_steps_after_it_change_nothing() -> None:
    """Found by bench/robustness/noisy_games.py: accepted a detent short (its marbles read on
    their new holes), the block's count was cleared, and the two detents still to come left it
    between quarters: the board went to repair."""
    board = Board().read(1.0, "a6").turn(2.0, 1, 5)
    board.read(2.22, "a6", "empty").read(2.24, "c6").until(2.3)
    assert board.moves == ["a6 1R"]
    board.turn(2.35, 1, 2).until(4.0)
    assert board.moves == ["a6 1R"] and board.state == "awaiting_placement" and board.core.repair == []


def test_a_block_between_quarters_withdraws_nothing() -> None:
    """Found by bench/robustness/noisy_games.py: a twist stopped half-way for a new grip left the
    new marble between the sensors; judged settled, the board looked like the game before the
    skip and the placement, and both were withdrawn."""
    board = Board().read(1.0, "d2").read(2.0, "a5").until(2.5)
    assert board.moves == ["d2"] and board.state == "awaiting_twist"
    board.turn(3.0, 1, -3).read(3.2, "a5", "empty").until(4.0)
    assert board.moves == ["d2"] and board.core.referee.retractions == 0
    board.turn(4.0, 1, -3).read(4.2, "b4").until(5.0)
    assert board.moves == ["d2", "a5 1L"]


def test_a_placement_is_not_sure_while_its_block_turns() -> None:
    """Found by the tape draw_after_twist: a marble read a moment before its block turned was
    taken as the next seat's placement; sure after settle_s while its block was still turning, it
    could not be withdrawn, and the twist that followed was a mismatch."""
    board = Board().read(1.0, "d2").until(2.0)
    board.read(2.0, "e6").until(2.1)  # a sensor under block 2 reads a marble for a moment ...
    assert board.moves == ["d2"] and board.state == "awaiting_twist"  # ... taken for seat 2's
    board.turn(2.1, 2, 6).read(2.45, "e6", "empty").until(3.5)  # seat 1 twists block 2
    assert board.moves == ["d2 2R"] and board.core.referee.retractions == 2  # the skip, e6


def four_on_the_bottom_row(board: Board) -> float:
    """Seat 1 puts four marbles on a1-d1, seat 2 on a6-c6 and a5, each twisting the empty block
    2; the time after the last move."""
    t = 1.0
    for hole in ("a1", "a6", "b1", "b6", "c1", "c6", "d1", "a5"):
        board.read(t, hole).turn(t + 0.3, 2, 6).until(t + 0.99)
        t += 1.0
    assert board.moves == [f"{hole} 2R" for hole in ("a1", "a6", "b1", "b6", "c1", "c6", "d1", "a5")]
    return t


def test_a_winning_placement_proved_wrong_is_withdrawn_and_the_game_goes_on() -> None:
    board = Board()
    t = four_on_the_bottom_row(board)
    board.read(t, "e1").until(t + 0.1)  # a sensor reads a marble for a moment on the fifth hole
    assert board.state == "game_over"
    board.read(t + 0.1, "e1", "empty").until(t + 1.0)
    assert board.state == "awaiting_placement" and board.core.flow.game.outcome is None
    assert len(board.moves) == 8 and board.core.referee.retractions == 1


def test_in_a_match_a_withdrawn_win_is_not_the_matchs() -> None:
    board = Board({"game": "classic", "match": True})
    t = four_on_the_bottom_row(board)
    board.read(t, "e1").until(t + 0.1)
    assert board.state == "between_games" and len(board.core.flow.match.outcomes) == 1
    board.read(t + 0.1, "e1", "empty").until(t + 1.0)
    assert board.state == "awaiting_placement" and board.core.flow.match.outcomes == []


def test_place_and_twist_in_one_go_are_accepted_in_order_at_once() -> None:
    """The marble was read on its hole before the block's first step: placed, then turned."""
    board = Board().read(1.0, "a6").turn(1.02, 1, 6, every_s=0.02)
    board.read(1.14, "a6", "empty").read(1.15, "c6").until(2.0)
    assert [(r["kind"], round(r["t"], 6)) for r in board.records[1:]] == [("place", 1.19), ("twist", 1.19)]
    assert board.moves == ["a6 1R"]


def test_a_marble_placed_as_another_block_starts_to_turn_is_accepted_at_once() -> None:
    board = Board().read(1.0, "a6").turn(1.02, 4, 6, every_s=0.2)  # a slow twist of block 4
    board.until(1.1)
    assert board.accepted_at("place") == [1.0 + STEADY]
    board.until(3.0)
    assert board.moves == ["a6 4R"]


def test_a_marble_read_while_its_block_turned_is_no_placement() -> None:
    """Found by bench/feedback.py: a marble passing over a sensor of the turning block a detent
    before its end read on after the last detent, and was taken for the next seat's."""
    board = Board().read(1.0, "d2").until(1.5)
    board.turn(2.0, 1, 5).read(2.22, "a6").turn(2.25, 1, 1).until(2.35)
    assert board.state == "awaiting_twist" and board.accepted_at("place") == [1.0 + STEADY]
    board.read(2.4, "a6", "empty").until(3.5)
    assert board.moves == ["d2 1R"] and board.accepted_at("twist") == [2.4 + STEADY]
    assert board.core.referee.retractions == 0 and board.state == "awaiting_placement"


def test_a_twist_and_the_next_placement_in_one_window_are_accepted_in_order() -> None:
    board = Board().read(1.0, "a6").until(2.0)
    board.turn(2.0, 1, 6, every_s=0.02).read(2.12, "a6", "empty").read(2.13, "f1").read(2.14, "c6").until(3.0)
    assert board.moves == ["a6 1R"] and board.state == "awaiting_twist"
    assert [r["kind"] for r in board.records[1:]] == ["place", "twist", "place"]


def test_a_skip_and_the_next_placement_are_accepted_at_once_while_a_block_is_neutral() -> None:
    board = Board().read(1.0, "a6").until(2.0).read(2.0, "f1").until(2.1)
    assert board.moves == ["a6"] and board.accepted_at("skip") == [2.0 + STEADY]


def test_two_marbles_at_once_are_ambiguous_and_go_to_repair() -> None:
    """Whose marble is whose, and so whether a twist was skipped, cannot be told: repair."""
    board = Board().read(1.0, "a6").read(1.01, "f1").until(4.0)
    assert board.moves == [] and board.state == "repair" and board.accepted_at("place") == []
    assert board.core.state()["repair"][0] == "remove the marble on f1"


def test_the_times_of_each_move_and_of_its_halves() -> None:
    """A move is accepted with its last half; a move without a twist when the next marble shows
    the twist was skipped, resting on its own placement's reading."""
    board = Board().read(1.0, "a6").turn(2.0, 1, 6)
    board.read(2.27, "a6", "empty").read(2.29, "c6").until(3.0).read(3.0, "f1").until(4.0).read(4.0, "f2").until(5.0)
    timing = board.core.referee.timing
    assert board.moves == ["a6 1R", "f1"]
    assert [(m["move"], m["last_change_t"], round(m["accepted_t"], 6)) for m in timing.moves] == [
        ("a6 1R", 2.29, 2.33), ("f1", 3.0, 4.04)]
    assert {key: (t, round(at, 6)) for key, (t, at) in timing.halves.items()} == {
        (0, "place"): (1.0, 1.04), (0, "twist"): (2.29, 2.33), (1, "place"): (3.0, 3.04), (2, "place"): (4.0, 4.04)}


def test_a_skip_the_next_placement_and_its_twist_while_the_block_stands_a_detent_short() -> None:
    """Found by bench/robustness/noisy_games.py: the skip waited for the turned block to rest
    (it stood a detent short), so when a sensor then misread the new marble as gone for a moment,
    the twist was taken for the seat that had skipped it."""
    board = Board().read(1.0, "a6").until(1.5)
    board.read(2.0, "f1").turn(2.02, 1, -5, every_s=0.03).read(2.16, "a6", "empty").read(2.18, "a4").until(2.3)
    assert board.moves == ["a6", "f1 1L"]  # at once, though block 1 stands a detent short
    board.read(2.3, "f1", "empty").read(2.41, "f1").until(4.0)
    assert board.moves == ["a6", "f1 1L"] and board.state == "awaiting_placement"


def test_the_detent_after_a_twist_accepted_a_detent_short_begins_no_turn() -> None:
    """Found by bench/feedback.py: that detent took the marbles seen then (one passing over a
    sensor) as those down before a new turn of the block, and its next twist waited for the
    settled board."""
    board = Board().read(1.0, "a6").turn(2.0, 1, 5)
    board.read(2.22, "a6", "empty").read(2.24, "c6").until(2.3)  # accepted a detent short
    board.read(2.3, "b6").turn(2.32, 1, 1).read(2.34, "b6", "empty")  # a marble passes over b6
    board.read(2.45, "f1").until(2.6)  # quick hands: the board is never still long enough to settle
    board.turn(2.6, 1, 6).read(2.87, "c6", "empty").read(2.89, "c4").until(3.5)
    assert board.moves == ["a6 1R", "f1 1R"] and board.accepted_at("twist")[-1] == 2.89 + STEADY


def test_a_board_cleared_before_a_win_accepted_at_once_is_sure_goes_to_the_menu() -> None:
    """Players who clear the board as soon as the win lights up (before its evidence has stood
    for the guard) are at the menu once the board is still, not left at the game's end."""
    board = Board()
    t = four_on_the_bottom_row(board)
    board.read(t, "e1").until(t + 0.06)
    assert board.state == "game_over"
    for i, hole in enumerate(("a1", "b1", "c1", "d1", "e1", "a5", "a6", "b6", "c6")):
        board.read(t + 0.07 + i * 0.005, hole, "empty")
    board.until(t + 2.0)
    assert board.state == "choosing" and board.records[-1]["kind"] == "menu"
