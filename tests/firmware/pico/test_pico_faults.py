"""Faults a real Pico has, emulated, and what the firmware and the Pi see of them. (A brown-out,
the power cut and back with the marbles left on the board, is in test_pico_boot.py; a pulled
cable, the Pi's side of a USB re-enumeration, in test_pico_link.py.)"""

import pytest
import wire
from conftest import need_pico
from pico import Pico, device_files


@pytest.mark.timeout(600)   # 18 s of emulated time, 9 of them scanning
def test_the_watchdog_in_production_mode_is_fed_and_bites_when_the_loop_stops():
    need_pico()
    with Pico(6, files=device_files(6, production=True)) as pico:
        first = pico.wait_for("hello", limit_ms=1000)
        pico.run(9000)                       # past the 8 s timeout: the loop feeds it
        assert pico.stats()["resets"] == 0
        start = len(pico.messages())
        pico.send(b"\x00\r\x03")             # mpremote's knock: the loop ends, the REPL is fed nothing
        pico.run(9000)
        hello = pico.wait_for("hello", after=start, limit_ms=1000)
        assert hello.fields["reset_cause"] == wire.RESET_WATCHDOG
        assert hello.fields["boot_id"] != first.fields["boot_id"]
