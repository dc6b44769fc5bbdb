"""Picture-Puzzle's rounds on the event topic, told by a real core playing a
whole three-player game on the virtual 9x9 board: each stage with its k, each round's start, its
dismantle done and its result (passed with its time, failed by a wrong stone or by the clock),
each player out, the winner; the same results however many states the bridge skipped."""

from __future__ import annotations

import functools

from hypothesis import given
from hypothesis import strategies as st

from controller.daemon.mqtt.inbox import Inbox
from controller.daemon.mqtt.messages import published
from controller.events import Command
from controller.rules import hole_name
from controller.rules.puzzle.pictures import library_picture
from tests.flow.rig import Rig

H = library_picture("h", 9)
PUZZLE_TYPES = ("stage", "round", "dismantled", "restore", "out", "outcome")


class Recorded(Rig):
    """A rig keeping the core's state after every event with the events it told, as the
    bridge's inbox receives them."""

    def __init__(self, **options) -> None:
        self.states: list[tuple[dict, tuple]] = []
        super().__init__(sensing="colour", profile_name="virtual-9x9")
        self.states.append((self.core.state(), ()))  # the menu, before the game
        self.feed(Command(self.t, "new_game", {"game": "puzzle", "picture": "h", "players": 3,
                                               "names": ["Ada", "Bo", "Cy"], **options}))

    def feed(self, event) -> None:
        told = len(self.events)
        super().feed(event)
        self.states.append((self.core.state(), tuple((e, self.t) for e in self.events[told:])))

    def build(self) -> None:
        for hole, _ in H.holes():
            self.do("place", hole_name(hole, self.profile.geometry), "black")
        self.wait()

    def steps(self, *gestures: tuple) -> None:
        for gesture in gestures:
            self.do(*gesture)
            self.wait()


DISMANTLE = (("lift", "c2"), ("quarter", 5, True))
RESTORE = (("place", "c2", "black"), ("quarter", 5, False))
WRONG = (("place", "d2", "black"), ("quarter", 5, False))


@functools.cache
def whole_game() -> tuple[dict, ...]:
    """Ada passes; Bo puts a stone in the wrong hole and is out; Cy passes (the stage ends: k 2);
    Ada's restore runs out of time (30 s) and Cy, the last player in, wins."""
    rig = Recorded(restore_limit_s=30)
    rig.build()
    rig.steps(*DISMANTLE, *RESTORE)
    rig.steps(*DISMANTLE, *WRONG)
    rig.steps(("lift", "d2"), ("place", "c2", "black"))  # the repair guidance's two steps
    rig.steps(*DISMANTLE, *RESTORE)
    rig.steps(("lift", "c2"), ("lift", "c3"), ("quarter", 5, True), ("quarter", 5, True))
    rig.wait(31)
    assert rig.core.state()["outcome"]["winners"] == [3]
    return tuple(rig.states)


def read(states) -> list[dict]:
    return [e for e in everything(states) if e["type"] in PUZZLE_TYPES]


def everything(states) -> list[dict]:
    """The events the bridge publishes from (state, events) pairs."""
    return [e for _, told in states for e, _ in published(told)]


def through_an_inbox(states, takes: set[int]) -> list[tuple[dict, tuple]]:
    """The pairs as the bridge takes them from an inbox of two, taking after the pairs in
    ``takes`` only (the loop held up in between: the inbox drops the states it cannot keep)."""
    inbox, taken = Inbox(2, lambda: None), []
    for number, (state, told) in enumerate(states):
        inbox.put(state, (), tuple(event for event, _ in told))
        if number in takes or number == len(states) - 1:
            taken += inbox.take()
    return taken


def test_a_whole_game_reads_as_stages_rounds_results_players_out_and_the_winner():
    found = read(whole_game())
    assert [(e["type"], e.get("round")) for e in found] == [
        ("stage", None), ("round", 1), ("dismantled", 1), ("restore", 1),
        ("round", 2), ("dismantled", 2), ("restore", 2), ("out", 2),
        ("round", 3), ("dismantled", 3), ("restore", 3),
        ("stage", None), ("round", 4), ("dismantled", 4), ("restore", 4), ("out", 4),
        ("outcome", None)]
    stages = [e for e in found if e["type"] == "stage"]
    assert stages == [{"type": "stage", "stage": 1, "k": 1, "picture": "H"},
                      {"type": "stage", "stage": 2, "k": 2, "picture": "H"}]  # k rises with the stage
    assert found[1] == {"type": "round", "round": 1, "stage": 1, "k": 1, "picture": "H", "restorer": 1, "dismantler": 2}
    assert found[12] == {"type": "round", "round": 4, "stage": 2, "k": 2, "picture": "H", "restorer": 1, "dismantler": 3}
    assert found[2] == {"type": "dismantled", "round": 1, "restorer": 1}
    assert found[3] == {"type": "restore", "round": 1, "restorer": 1, "dismantler": 2, "k": 1, "passed": True,
                        "reason": "restored", "seconds": 1.0}  # the rig's pause between the two restore steps
    assert [(e["passed"], e["reason"], e["seconds"]) for e in found if e["type"] == "restore"][1:] == [
        (False, "the board differs from the picture", None), (True, "restored", 1.0),
        (False, "the restore ran out of time", None)]
    assert [(e["seat"], e["name"], e["reason"]) for e in found if e["type"] == "out"] == [
        (2, "Bo", "the board differs from the picture"), (1, "Ada", "the restore ran out of time")]
    assert (found[-1]["winner"], found[-1]["standings"]) == ("Cy", [[3], [1], [2]])


def test_a_puzzles_round_lines_are_no_moves_or_take_backs():
    states = whole_game()
    assert any(state["moves"] for state, _ in states)  # the round lines grow step by step
    assert not [e for e in everything(states) if e["type"] in ("move", "take_back")]


def test_a_dismantle_out_of_time_puts_the_dismantler_out_without_a_restore():
    rig = Recorded(dismantle_limit_s=10)
    rig.build()
    rig.steps(("lift", "c2"))
    rig.wait(11)
    rig.steps(("place", "c2", "black"))  # the picture guided back: the next round
    found = read(rig.states)
    assert [e["type"] for e in found] == ["stage", "round", "out", "round"]
    assert found[2] == {"type": "out", "round": 1, "seat": 2, "name": "Bo", "reason": "the dismantle ran out of time"}
    assert (found[3]["round"], found[3]["restorer"], found[3]["dismantler"]) == (2, 1, 3)  # Ada again, Cy dismantles


@given(st.data())
def test_however_many_states_the_bridge_skips_every_result_arrives_once_in_order(data):
    """The inbox may drop states; every event still arrives once, in order."""
    states = whole_game()
    takes = data.draw(st.sets(st.integers(1, len(states) - 2)))
    assert read(through_an_inbox(states, takes)) == read(states)


def test_a_game_started_again_with_the_same_settings_counts_its_stages_from_one():
    rig = Recorded()
    rig.build()
    rig.steps(*DISMANTLE, *RESTORE, *DISMANTLE)
    told = len(rig.events)
    rig.feed(Command(rig.t, "new_game", {"game": "puzzle", "picture": "h", "players": 3,
                                         "names": ["Ada", "Bo", "Cy"]}))
    found = [e.to_json() for e in rig.events[told:]]
    assert [(e["type"], e.get("stage"), e.get("k")) for e in found] == [("game", None, None), ("stage", 1, 1)]


def test_a_resumed_game_tells_nothing_of_its_replay():
    rig = Recorded()
    rig.build()
    rig.steps(*DISMANTLE, *RESTORE)
    resumed = Rig(sensing="colour", profile_name="virtual-9x9", journal_records=list(rig.records))
    resumed.wait()
    assert resumed.core.state()["detail"]["rounds"]  # the first round replayed
    assert not [e for e in resumed.events if e.type in PUZZLE_TYPES]  # the empty board is a repair, no more
