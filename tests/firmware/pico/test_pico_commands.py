"""`pentago-board firmware check` and `pentago-board calibrate` against the emulated Pico over
its pty, their clocks at the emulator's pace (pico_daemon.py). `firmware flash` itself, whose
mpremote copy takes minutes here, is in bench/firmware_pico_games.py."""

import pytest
from conftest import need_slowed
from pico import Pico, PtyBridge
from pico_daemon import cli

SPEED = 0.1


@pytest.fixture
def board(tmp_path):
    need_slowed()
    with Pico(6, speed=SPEED) as pico, PtyBridge(pico, tmp_path / "ttyACM0") as bridge:
        pico.pace(SPEED)
        yield tmp_path, str(bridge.path)


@pytest.mark.timeout(900)
def test_check_then_calibrate_the_emulated_pico(board):
    tmp_path, port = board
    done = cli(tmp_path, SPEED, "firmware", "check", "--port", port, "--size", "6")
    assert done.returncode == 0, done.stderr
    assert "runs firmware 0.1.0 (protocol 1, 6x6 board): the firmware of this pentago-board" in done.stdout
    done = cli(tmp_path, SPEED, "calibrate", "--port", port)
    assert done.returncode == 0, done.stdout + done.stderr
    holes = [line.split()[0] for line in done.stdout.splitlines() if line.endswith(" ok")]
    assert len(holes) == 36 and holes[0] == "a1"
