"""The computer at any seats and hints, through the core (issue 13): seeded full games with the
computer at seat 1 and at both seats, one request per turn per seat, only its move accepted,
records and resume; hints light the move the analysis returns and restrict nothing."""

from __future__ import annotations

import pytest

from controller.ai import analyse, choose_move, to_move
from controller.core import Core
from controller.core.computer import SKIP_WAIT_S, Computer
from controller.events import ButtonPress, Command
from controller.games import options
from controller.rules import ClassicGame, Phase, hole_name
from controller.games.triple import MARBLES

from .test_computer import ComputerRig

LEVEL = 1  # depth one, one seeded move: quick and repeatable


def computer_answer(rig: ComputerRig, seed: int) -> str:
    """Answer the newest request as the runtime would, at its level (seeded; none: level 1)."""
    think = rig.thinks[-1]
    move = choose_move(think.game, level=LEVEL if think.level is None else think.level, seed=seed)
    text = think.game.move_name(move)
    rig.feed(Command(rig.t, think.answer, {"key": think.key, "move": text}))
    return text


def to_play(rig: ComputerRig):
    """The game as the next placement meets it: a bare move's open twist counts as skipped
    (that is how the board learns it: the next seat places)."""
    flow = rig.core.flow
    if flow.game.phase is not Phase.TWIST:
        return flow.game
    after = Computer._copy(flow)
    after.place(flow.placed_hole)
    after.skip_twist()
    return after


def play_out(rig: ComputerRig, computer: tuple[int, ...], seed: int, turns: int = 40) -> list[str]:
    """Play the game on (to its end, or ``turns`` moves): the computer's seats answer their
    requests, a person plays a seeded beginner's move; every move is played on the board."""
    played: list[str] = []
    for turn in range(turns):
        game = to_play(rig)
        if game.is_over():
            break
        if game.to_move in computer:
            if game is not rig.core.flow.game:  # a bare move before: asked once the twist stays open
                rig.wait(SKIP_WAIT_S)
            think = rig.thinks[-1]
            assert think.game.to_move == game.to_move and think.answer == "computer_move"
            assert think.game.position == game.position  # asked about this very turn
            text = computer_answer(rig, seed + turn)
            assert rig.core.computer.prompted(rig.core.flow) is not None  # its move is lit
        else:
            text = game.move_name(choose_move(game, level=0, seed=seed + turn))
        rig.play(text)
        played.append(text)
    return played


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("computer", [[1], [1, 2]])
def test_seeded_full_games_with_the_computer_at_seat_one_or_both(computer, seed) -> None:
    rig = ComputerRig(start={"game": "classic", "computer": computer, "level": LEVEL})
    seats = tuple(computer)
    played = play_out(rig, seats, seed)
    state = rig.core.state()
    assert state["moves"] == played and state["state"] == "game_over"
    keys = [think.key for think in rig.thinks]
    assert len(keys) == len(set(keys))  # one request per turn
    replay = ClassicGame()
    for text in played:  # every move was legal
        replay.push_text(text)
    assert replay.outcome is not None
    assert rig.records[0]["computer"] == computer  # the start record names the seats


def test_the_computer_at_seat_one_is_asked_before_any_move_and_only_its_move_counts() -> None:
    rig = ComputerRig(start={"game": "classic", "computer": [1]})
    assert [think.game.to_move for think in rig.thinks] == [1]
    rig.feed(Command(rig.t, "computer_move", {"key": rig.thinks[0].key, "move": "b5 4R"}))
    assert rig.lit() == "turn:white prompt:b5 arrow:4R"
    rig.do("place", "c3")  # not the computer's hole: guided off, not played
    rig.wait(2.5)
    assert rig.core.state()["moves"] == [] and "remove:c3" in rig.lit()


def test_both_seats_each_get_one_request_per_turn() -> None:
    rig = ComputerRig(start={"game": "classic", "computer": [1, 2]})
    rig.wait()
    assert len(rig.thinks) == 1
    rig.play(computer_answer(rig, 0))
    assert [think.game.to_move for think in rig.thinks] == [1, 2]


def test_a_game_with_computer_seats_resumes_from_its_journal_and_asks_again() -> None:
    rig = ComputerRig(start={"game": "classic", "computer": [1, 2], "level": 0})
    text = computer_answer(rig, 0)
    rig.play(text)
    resumed = Core(rig.profile, journal_records=rig.records)
    assert resumed.flow.options["computer"] == [1, 2] and resumed.flow.options["level"] == 0
    think = resumed.computer.think(resumed.flow, 0.0)
    assert think is not None and think.game.to_move == 2 and think.level == 0
    assert [m for m in think.game.moves] == [m for m in rig.core.flow.game.moves]


# -- hints ---------------------------------------------------------------------------------------

def ask_hint(rig: ComputerRig) -> None:
    rig.feed(Command(rig.t, "hint", {}))


@pytest.mark.parametrize("level", [0, 1, 2])
def test_a_hint_lights_the_move_the_analysis_returns(level) -> None:
    rig = ComputerRig(start={"game": "classic", "level": level})
    rig.play("c3 3R")
    ask_hint(rig)
    assert rig.notices[-1] == "hint: thinking of a move for Seat 2"
    think = rig.thinks[-1]
    assert (think.answer, think.level, think.game.to_move) == ("hint_move", level, 2)
    game = ClassicGame()
    game.push_text("c3 3R")
    result = analyse(game, level=level, seed=5, nodes=3000)
    best = to_move(game, *result.move)
    assert choose_move(think.game, level=level, seed=5, nodes=3000) == best  # the request's copy is the game
    rig.feed(Command(rig.t, "hint_move", {"key": think.key, "move": game.move_name(best)}))
    twist = f" arrow:{best.twist.block}{'R' if best.twist.clockwise else 'L'}" if best.twist else ""
    assert rig.lit() == f"turn:black prompt:{game.move_name(best).split()[0]}{twist}"
    assert rig.notices[-1].startswith(f"hint for Seat 2: {game.move_name(best)}: put a black marble on ")


def test_a_hint_restricts_nothing_and_goes_out_when_the_turn_does() -> None:
    rig = ComputerRig(start={"game": "classic"})
    ask_hint(rig)
    think = rig.thinks[-1]
    rig.feed(Command(rig.t, "hint_move", {"key": think.key, "move": "b5 1R"}))
    assert rig.lit() == "turn:white prompt:b5 arrow:1R"
    rig.do("place", "e2")  # another hole: accepted, and the hint's arrow is not shown for it
    rig.wait()
    assert rig.core.state()["state"] == "awaiting_twist" and rig.lit() == "turn:white white:e2"
    rig.do("quarter", 4, True)
    rig.wait()
    assert rig.core.state()["moves"] == ["e2 4R"] and rig.lit() == "turn:black"


def test_a_hint_placed_where_it_said_keeps_its_arrow() -> None:
    rig = ComputerRig(start={"game": "classic"})
    ask_hint(rig)
    rig.feed(Command(rig.t, "hint_move", {"key": rig.thinks[-1].key, "move": "b5 1R"}))
    rig.do("place", "b5")
    rig.wait()
    assert rig.lit() == "turn:white white:b5 arrow:1R"


def test_the_hint_button_asks_once_per_turn() -> None:
    rig = ComputerRig(start={"game": "classic"})
    rig.feed(ButtonPress(rig.t, "ok"))  # the profile's hint gesture
    rig.feed(ButtonPress(rig.t, "ok"))
    assert rig.notices[-2:] == ["hint: thinking of a move for Seat 1", "hint: still thinking"]
    assert len(rig.thinks) == 1
    rig.feed(Command(rig.t, "hint_move", {"key": rig.thinks[-1].key, "move": "b5 1R"}))
    rig.feed(ButtonPress(rig.t, "ok"))
    assert rig.notices[-1] == "hint: b5 1R: put a white marble on b5, then turn block 1 clockwise (lit on the board)"
    assert len(rig.thinks) == 1


@pytest.mark.parametrize(("start", "moves", "notice"), [
    ({"game": "classic", "hints": False}, [], "hint: hints are off in this game"),
    ({"game": "classic", "computer": True}, ["c3 3R"], "hint: it is the computer's turn"),
    ({"game": "classic"}, ["c3"], "hint: ask before placing the marble"),
    (None, [], "hint: no game is in play"),
])
def test_a_hint_that_cannot_be_given_says_why(start, moves, notice) -> None:
    rig = ComputerRig(start=start)
    for move in moves:
        rig.play(move)
    thinks = len(rig.thinks)
    ask_hint(rig)
    assert rig.notices[-1] == notice and len(rig.thinks) == thinks


def test_a_stale_or_unasked_hint_is_ignored() -> None:
    rig = ComputerRig(start={"game": "classic"})
    key = rig.core.computer.turn_key(rig.core.flow)
    rig.feed(Command(rig.t, "hint_move", {"key": key, "move": "b5 1R"}))  # nobody asked
    assert rig.notices[-1] == "hint: not for the turn in play; ignored" and "prompt" not in rig.lit()


def test_computer_seats_are_checked_by_the_registry() -> None:
    assert options({"computer": [2, 1]}, 6)["computer"] == [1, 2]
    assert options({"computer": [2]}, 6)["computer"] is True  # one spelling: seat 2 alone is true
    assert options({"computer": []}, 6)["computer"] is False


# -- the family: the computer at any seats of multiplayer and team games -------------------------

@pytest.mark.parametrize(("start", "computer"), [
    ({"game": "multiplayer", "players": 3, "computer": [2, 3]}, (2, 3)),
    ({"game": "teams", "computer": [2, 4], "twist": "both"}, (2, 4)),
    ({"game": "multiplayer", "players": 4, "computer": [1, 2, 3, 4]}, (1, 2, 3, 4)),
])
def test_seeded_family_games_with_computer_seats_stay_legal(start, computer) -> None:
    rig = ComputerRig(start={**start, "level": LEVEL}, profile_name="virtual-9x9")
    played = play_out(rig, computer, 7, 16)
    state = rig.core.state()
    assert state["moves"] == played and (len(played) == 16 or state["state"] == "game_over")
    keys = [think.key for think in rig.thinks]
    assert len(keys) == len(set(keys))  # one request per turn per seat
    replay = rig.core.flow.fresh_game(1)
    for text in played:
        replay.push_text(text)
    assert replay.position == rig.core.flow.game.position


def test_a_hint_in_a_multiplayer_game_is_the_computers_move_for_that_seat() -> None:
    rig = ComputerRig(start={"game": "multiplayer", "players": 3, "level": LEVEL}, profile_name="virtual-9x9")
    rig.play("e5 5R")
    ask_hint(rig)
    think = rig.thinks[-1]
    best = choose_move(think.game, level=LEVEL, seed=0)
    rig.feed(Command(rig.t, "hint_move", {"key": think.key, "move": think.game.move_name(best)}))
    assert rig.core.computer.shown(rig.core.flow) == best
    assert rig.notices[-1].startswith(f"hint for Seat 2: {think.game.move_name(best)}: put a black marble on ")


# -- Pentago Triple: the computer places any colour, moves marbles, and its move lights ----------

def play_triple(rig: ComputerRig, computer: tuple[int, ...], seed: int, turns: int) -> list[str]:
    """Play Triple on a colour-sensing board: the computer's seats answer their requests, a
    person plays a seeded beginner's move; each move is made with the board's gestures."""
    played: list[str] = []
    g = rig.profile.geometry
    for turn in range(turns):
        game = rig.core.flow.game
        if game.is_over():
            break
        if game.to_move in computer:
            think = rig.thinks[-1]
            assert think.game.to_move == game.to_move and think.game.position == game.position
            text = computer_answer(rig, seed + turn)
            assert rig.core.computer.prompted(rig.core.flow) is not None
        else:
            text = game.move_name(choose_move(game, level=0, seed=seed + turn))
        move = next(m for m in game.legal_moves() if game.move_name(m) == text)
        colour = MARBLES[move.colour if move.origin is None else game.position.colour_at(move.origin)]
        if move.origin is not None:
            rig.do("lift", hole_name(move.origin, g))
            rig.wait()
        rig.do("place", hole_name(move.hole, g), colour)
        rig.wait()
        if move.twist is not None:
            rig.do("quarter", move.twist.block, move.twist.clockwise)
            rig.wait()
        assert rig.core.state()["moves"][-1:] == [text], (text, rig.notices[-4:])
        played.append(text)
    return played


@pytest.mark.parametrize(("players", "computer"), [(2, (2,)), (3, (1, 3)), (2, (1, 2))])
def test_seeded_triple_games_with_computer_seats_stay_legal(players, computer) -> None:
    rig = ComputerRig(sensing="colour", start={"game": "triple", "players": players, "computer": list(computer),
                                               "level": LEVEL, "seed": 11})
    played = play_triple(rig, computer, 3, 14)
    replay = rig.core.flow.fresh_game(1)
    for text in played:  # every move was legal
        replay.push_text(text)
    assert replay.position == rig.core.flow.game.position and rig.core.flow.repairs == 0


def test_the_computers_triple_move_lights_and_a_wrong_colour_is_guided_off() -> None:
    rig = ComputerRig(sensing="colour", start={"game": "triple", "players": 2, "computer": [1], "seed": 4})
    think = rig.thinks[-1]
    rig.feed(Command(rig.t, "computer_move", {"key": think.key, "move": "Rb5 4R"}))
    assert rig.notices[-1] == "Computer plays Rb5 4R: put a red marble on b5, then turn block 4 clockwise"
    assert "red:b5" in rig.lit() and "arrow:4R" in rig.lit()  # the hole in the marble's colour (issue 22, item 1)
    rig.do("place", "b5", "blue")  # the computer's hole, not its colour
    rig.wait(2.5)
    assert rig.core.state()["moves"] == [] and rig.core.state()["state"] == "repair"


def test_a_game_without_the_computer_never_asks_it_and_refuses_hints() -> None:
    """A game whose spec has no computer (its options carry no seats and no hints): the room
    leaves it alone, whatever its game object is like."""
    from dataclasses import replace

    from controller import games

    plain = replace(games.get("multiplayer"), computer=False, choices=games.get("multiplayer").choices[:3])
    rig = ComputerRig(profile_name="virtual-9x9")
    rig.core.flow.options = plain.options({"players": 3})
    rig.core.flow.game = object()  # no to_move, no moves: never looked at
    assert rig.core.computer.think(rig.core.flow, 0.0) is None
    assert rig.core.computer.shown(rig.core.flow) is None
    assert rig.core.computer.follows(rig.core.flow, ()) is True
    assert rig.core.computer.ask_hint(rig.core.flow, plain.title) == (
        "hint: the computer does not play Multiplayer Pentago, so it gives no hints")
    assert rig.core.computer.answer_hint(rig.core.flow, {"key": "1", "move": "e5"}) == "hint: not for the turn in play; ignored"
