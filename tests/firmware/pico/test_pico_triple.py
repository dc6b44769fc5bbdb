"""Pentago Triple refereed by the real `pentago-board run` on B-6x6 through the emulated Pico,
every marble's colour confirmed on the board with the Pi's own buttons.

A polarity board senses two colours: the hole blinks in the colour the board assumes (north up
blue, south up yellow) and the player steps it on with Back and accepts it with OK. Build B
reads those buttons on the Pi's GPIO beside the serial link; in the daemon's subprocess they are
gpiozero mock pins, pressed through pressed_daemon.py (the `run` command with gpiozero's
MockFactory set, the library's own way for a test to drive its pins), so each press goes
through the real GpioButtons, the input group and the core. The page's own OK and Back are the
simulator's hands (POST /api/board serves the virtual board only), not a real board's, and the
daemon must stay a subprocess, its clock slowed to the emulator's pace (pico_daemon.py), so it
cannot run in the test's process on a MockFactory of the test's own.

Two players, one face-up card BYRYB laid down column a: a red marble needs one step on from
the south-up yellow, and the last blue marble goes in south up by mistake, so its colour is
stepped on twice, through red, round to blue. Completing the card wins (two players)."""

import pytest
import wire
from conftest import need_slowed
from pico_daemon import PicoDaemon

# (move, the marble's pole, its colour): twists on the empty blocks 2 and 4 leave column a be.
GAME = (("Ba1 2R", wire.NORTH, "blue"), ("Ya2 4R", wire.SOUTH, "yellow"), ("Ra3 2L", wire.SOUTH, "red"),
        ("Ya4 4L", wire.SOUTH, "yellow"), ("Ba5", wire.SOUTH, "blue"))


@pytest.fixture
def table(tmp_path):
    need_slowed()
    with PicoDaemon(tmp_path, "B-6x6") as table:
        table.wait_state(lambda s: s["state"] == "choosing")
        yield table


@pytest.mark.timeout(600)   # 5 moves and 9 presses at a tenth of real time: about 40 s, more when loaded
def test_a_triple_game_with_every_colour_confirmed_on_the_board(table):
    table.command("new_game", game="triple", players=2, cards="BYRYB")
    state = table.wait_state(lambda s: s["game"] == "triple" and s["phase"] == "place")
    assert state["cards"] == ["BYRYB"]
    for move, pole, colour in GAME:
        state = table.play(move, pole, colour)
    assert state["moves"] == [move for move, _, _ in GAME]
    assert state["outcome"]["winners"] == [1] and state["outcome"]["lines"] == [[0, 6, 12, 18, 24]]
    # The sensors see a marble in each hole the game has one (of no colour they could tell).
    assert [row.replace("x", "*").replace("o", "*").replace("y", "*") for row in state["board"]] == state["physical"]
    assert state["repair"] == []
    log = table.daemon.log
    assert "sensor link up" in log and "Traceback" not in log
