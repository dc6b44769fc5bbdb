"""The real `pentago-board run` referees whole games played on the emulated Pico, through the
firmware on MicroPython's RP2040 build, the pty and the Pi's serial link, checked on the web
state. The daemon's clock and the emulator run at one pace (pico_daemon.py).

* B-6x6, classic, to a win: the marbles' colours sensed by polarity, the twists by the encoders
  and the readings;
* B-9x9, multiplayer for three, to its end: a polarity board reads two colours, so a game of
  three is judged by presence and the turn says whose marble it is (core/referee.py); seat 1
  takes first place with five on placement, seats 2 and 3 play on, seat 2's five ends it.

Pentago Triple with its colours confirmed is test_pico_triple.py; an unplug and an MCU reset in
the middle of a game are bench/firmware_pico_games.py (minutes at a tenth of real time)."""

import pytest
import wire
from conftest import need_slowed
from pico_daemon import PicoDaemon

# Seat 1 (white: north up) makes five in column a on placement; seat 2 (black) twists along.
CLASSIC = ("a1 2R", "d6 2R", "a2 2L", "e6 4R", "a3 4L", "f5 2R", "a4 4R", "d1 4L", "a5")
# Three seats, twists clockwise (the rulebook's): seat 1 builds row 9, seat 2 row 1, seat 3 the
# middle block, whose twists carry its marbles round; the other twists turn blocks 4, 6 and 9.
MULTIPLAYER = ("a9 9R", "a1 6R", "e5 5R", "b9 9R", "b1 6R", "d5 5R", "c9 4R", "c1 4R", "f5 5R",
               "d9 9R", "d1 6R", "g5 6R", "e9", "e1")
FINAL = ["xxxxx....", ".........", ".........", ".......y.", "....yy...", "....y....", ".........",
         ".........", "ooooo...."]   # top row first: x seat 1, o seat 2, y seat 3
POLES = (wire.NORTH, wire.SOUTH, wire.NORTH)   # seat 3's marbles: any pole, judged by presence


def daemon_on(tmp_path, profile):
    need_slowed()
    table = PicoDaemon(tmp_path, profile)
    table.wait_state(lambda s: s["state"] == "choosing")
    return table


def test_a_classic_game_to_a_win_through_the_emulated_pico(tmp_path):
    with daemon_on(tmp_path, "B-6x6") as table:
        table.command("new_game", game="classic")
        table.wait_state(lambda s: s["phase"] == "place")
        for number, move in enumerate(CLASSIC):
            state = table.play(move, POLES[number % 2])
        log = table.daemon.log
    assert state["moves"] == list(CLASSIC)
    # a1-a5 (holes 0, 6, 12, 18, 24): five on placement, seat 1 wins.
    assert state["outcome"] == {"result": "win", "winners": [1], "lines": [[0, 6, 12, 18, 24]]}
    assert state["repair"] == [] and state["board"] == state["physical"]   # the game is the board
    assert "sensor link up" in log and "Traceback" not in log


@pytest.mark.timeout(600)   # 14 moves at a tenth of real time: about 35 s, more on a loaded machine
def test_a_three_player_multiplayer_game_on_nine_by_nine_to_its_end(tmp_path):
    with daemon_on(tmp_path, "B-9x9") as table:
        table.command("new_game", game="multiplayer", players=3)
        state = table.wait_state(lambda s: s["game"] == "multiplayer" and s["phase"] == "place")
        assert [seat["seat"] for seat in state["seats"]] == [1, 2, 3]
        for number, move in enumerate(MULTIPLAYER):
            state = table.play(move, POLES[number % 3])
            if number == 12:    # e9: a9-e9, five on placement, first place; seat 1 moves no more
                assert state["standings"] == [[1]] and state["playing"] == [2, 3] and state["to_move"] == 2
        log = table.daemon.log
    assert state["moves"] == list(MULTIPLAYER)
    assert state["standings"] == [[1], [2], [3]] and state["outcome"]["winners"] == [1]
    # Row 9 and row 1 (a9 = 72 .. e9 = 76, a1 = 0 .. e1 = 4), as the rules made them.
    assert state["outcome"]["lines"] == [[72, 73, 74, 75, 76], [0, 1, 2, 3, 4]]
    # Seat 3's d5 went round the middle block to e6, then f5; f5 to e4; g5 with block 6 to h6.
    assert state["board"] == FINAL
    # The sensors see a marble wherever the game has one (three colours read as presence).
    occupied = [["." if c == "." else "*" for c in row] for row in state["board"]]
    assert occupied == [list(row) for row in state["physical"]] and state["repair"] == []
    assert "sensor link up" in log and "Traceback" not in log
