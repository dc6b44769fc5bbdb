"""The real `pentago-board run` on the B-6x6 profile referees a classic game played on the
emulated Pico: the marbles' colours sensed by polarity, the twists by the encoders and the
readings, through the firmware on MicroPython's RP2040 build, the pty and the Pi's serial link,
to a win on the web state. The daemon's clock and the emulator run at one pace (pico_daemon.py).

The longer games (a 3-player game on 9x9, a Triple game with colours confirmed, an unplug and
an MCU reset mid-game) are bench/firmware_pico_games.py: at a tenth of real time each takes
minutes."""

import os

import pytest
import wire
from conftest import need_pico
from pico_daemon import PicoDaemon, missing

# Seat 1 (white: north up) makes five in column a on placement; seat 2 (black) twists along.
GAME = ("a1 2R", "d6 2R", "a2 2L", "e6 4R", "a3 4L", "f5 2R", "a4 4R", "d1 4L", "a5")


@pytest.fixture
def table(tmp_path):
    need_pico()
    reason = missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the emulated-Pico daemon test: {reason}")
        pytest.skip(reason)
    with PicoDaemon(tmp_path, "B-6x6") as table:
        table.wait_state(lambda s: s["state"] == "choosing")
        yield table


def test_a_classic_game_to_a_win_through_the_emulated_pico(table):
    table.command("new_game", game="classic")
    table.wait_state(lambda s: s["phase"] == "place")
    for number, move in enumerate(GAME):
        state = table.play(move, wire.NORTH if number % 2 == 0 else wire.SOUTH)
    assert state["moves"] == list(GAME)
    # a1-a5 (holes 0, 6, 12, 18, 24): five on placement, seat 1 wins.
    assert state["outcome"] == {"result": "win", "winners": [1], "lines": [[0, 6, 12, 18, 24]]}
    assert state["repair"] == [] and state["board"] == state["physical"]   # the game is the board
    log = table.daemon.log
    assert "sensor link up" in log and "Traceback" not in log
