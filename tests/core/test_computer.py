"""The computer opponent in the core: it asks for a move, lights it, and accepts only that move."""

from __future__ import annotations

from controller.ai import choose_move
from controller.core import Think
from controller.events import Command

from ..flow.rig import Rig

COMPUTER = {"game": "classic", "computer": True}


class ComputerRig(Rig):
    """A rig that keeps the core's think requests, as the runtime would receive them."""

    def __init__(self, **kw) -> None:
        self.thinks: list[Think] = []
        super().__init__(**kw)

    def feed(self, event) -> None:
        effects = self.core.handle(event)
        self.records.extend(effects.records)
        self.notices.extend(effects.notices)
        if effects.think is not None:
            self.thinks.append(effects.think)

    def answer(self, move: str | None = None) -> str:
        think = self.thinks[-1]
        text = move or think.game.move_name(choose_move(think.game, level=2, nodes=2000))
        self.feed(Command(self.t, "computer_move", {"key": think.key, "move": text}))
        return text


def test_the_computer_is_asked_once_per_turn_and_its_move_lights_up() -> None:
    rig = ComputerRig(start=COMPUTER)
    assert rig.thinks == []  # seat 1 (a person) starts
    rig.play("c3 3R")
    assert len(rig.thinks) == 1 and rig.thinks[0].game.to_move == 2
    rig.wait()
    assert len(rig.thinks) == 1  # not asked again for the same turn
    rig.answer("e5 2L")
    assert rig.lit() == "turn:black prompt:e5 arrow:2L"
    assert "Computer plays e5 2L: put a black marble on e5, then turn block 2 counter-clockwise" in rig.notices
    rig.do("place", "e5")
    rig.wait()
    assert rig.lit() == "turn:black black:e5 arrow:2L"  # the marble is in (lit under it): now the twist
    rig.do("quarter", 2, False)
    rig.wait()
    assert rig.core.state()["moves"] == ["c3 3R", "e5 2L"]
    assert rig.lit() == "turn:white"


def test_a_marble_where_the_computer_did_not_play_is_guided_off() -> None:
    rig = ComputerRig(start=COMPUTER)
    rig.play("c3 3R")
    rig.answer("e5 2L")
    rig.do("place", "a6")
    rig.wait(2.5)
    state = rig.core.state()
    assert state["state"] == "repair" and state["moves"] == ["c3 3R"]
    assert "remove:a6" in rig.lit()
    rig.do("lift", "a6")
    rig.do("place", "e5")
    rig.wait()
    assert rig.core.state()["state"] == "awaiting_twist"


def test_the_wrong_twist_is_not_the_computers_move() -> None:
    rig = ComputerRig(start=COMPUTER)
    rig.play("c3 3R")
    rig.answer("e5 2L")
    rig.do("place", "e5")
    rig.wait()
    rig.do("quarter", 2, True)
    rig.wait(2.5)
    assert rig.core.state()["moves"] == ["c3 3R"] and "arrow:2L" in rig.lit()


def test_an_answer_for_another_turn_is_ignored() -> None:
    rig = ComputerRig(start=COMPUTER)
    rig.play("c3 3R")
    rig.feed(Command(rig.t, "computer_move", {"key": "stale", "move": "e5 2L"}))
    assert rig.notices[-1] == "computer's move: not for the turn in play; ignored"
    assert "prompt" not in rig.lit()


def test_a_malformed_answer_is_a_notice() -> None:
    rig = ComputerRig(start=COMPUTER)
    rig.play("c3 3R")
    rig.feed(Command(rig.t, "computer_move", {"key": rig.thinks[-1].key, "move": "z9 9X"}))
    assert rig.notices[-1] == "computer's move: 'z9 9X' is not a legal move for seat 2 now"
    rig.feed(Command(rig.t, "computer_move", {"key": rig.thinks[-1].key, "move": "c1 1R"}))  # c3 3R left c1 taken
    assert rig.notices[-1] == "computer's move: 'c1 1R' is not a legal move for seat 2 now"
    assert "prompt" not in rig.lit()


def test_a_whole_game_against_the_computer_on_the_board() -> None:
    rig = ComputerRig(start=COMPUTER)
    played: list[str] = []
    for turn in range(40):
        game = rig.core.flow.game
        if game.is_over():
            break
        if game.to_move == 1:  # the person: an easy-level move of its own
            text = game.move_name(choose_move(game, level=1, seed=turn))
        else:
            text = rig.answer()
        rig.play(text)
        played.append(text)
    state = rig.core.state()
    assert state["moves"] == played and state["state"] == "game_over"
    assert state["outcome"]["result"] in ("win", "draw")


def test_the_computer_s_skipped_twist_ends_its_turn_once_its_marble_is_in() -> None:
    """Issue 22, item 3: after the computer's marble of a move that skips its twist (a neutral
    block remains), the board went on saying the computer was to turn a block, and refused the
    next player's hint as "the computer's turn", until that player's marble showed the skip."""
    rig = ComputerRig(profile_name="virtual-9x9", sensing="colour",
                      start={"game": "multiplayer", "players": 3, "computer": [3], "names": ["Ann", "Bo", "Seat 3"]})
    rig.do("place", "a1", "white")
    rig.wait()
    rig.do("place", "i9", "black")  # Ann skipped her twist; Bo places and skips too
    rig.wait(2.0)  # the open twist before the computer's seat: it is asked after the skip
    rig.answer("e5")  # a placement alone: the computer skips its twist
    assert "Computer plays e5: put a red marble on e5" in rig.notices
    rig.do("place", "e5", "red")
    rig.wait()
    state = rig.core.state()
    assert state["moves"] == ["a1", "i9", "e5"] and state["to_move"] == 1 and state["state"] == "awaiting_placement"
    rig.feed(Command(rig.t, "hint", {}))
    assert rig.notices[-1] == "hint: thinking of a move for Ann"


def test_the_state_says_what_the_board_lights_for_the_computer_and_for_a_hint() -> None:
    """Issue 22, item 7: the page's Game card says what the computer played and what to do,
    from the state's ``prompt`` (it was only in the messages, far below the board)."""
    rig = ComputerRig(start={"game": "classic", "computer": True, "names": ["Ann", "Seat 2"], "level": 1})
    rig.play("c3 3R")
    rig.answer("e5 2L")
    assert rig.core.state()["prompt"] == {
        "by": "computer", "seat": 2, "name": "Computer (easy)", "move": "e5 2L",
        "words": "put a black marble on e5, then turn block 2 counter-clockwise", "hole": "e5", "origin": None,
        "colour": "black"}
    rig.play("e5 2L")
    assert rig.core.state()["prompt"] is None
    rig.feed(Command(rig.t, "hint", {}))
    think = rig.thinks[-1]
    rig.feed(Command(rig.t, "hint_move", {"key": think.key, "move": "a6 1L"}))
    prompt = rig.core.state()["prompt"]
    assert (prompt["by"], prompt["name"], prompt["words"]) == ("hint", "Ann", "put a white marble on a6, then turn "
                                                                               "block 1 counter-clockwise")


def test_a_block_left_part_way_through_a_turn_is_in_the_state() -> None:
    """Issue 22, item 4: the page draws it and asks to finish or undo the turn."""
    rig = ComputerRig(start={"game": "classic"})
    rig.do("turn", 4, 3)  # half a quarter on the 6-detent virtual board
    rig.wait()
    assert rig.core.state()["mid_turn"] == [4]
    rig.do("turn", 4, 3)
    rig.wait()
    assert rig.core.state()["mid_turn"] == []
