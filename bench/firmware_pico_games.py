"""The long scenarios of the emulated Pico with the real daemon and commands (minutes each, so
not in CI; tests/firmware/pico has the short ones CI runs).

Run: .venv/bin/python bench/firmware_pico_games.py [--speed 0.1] [--only flash|faults]
(needs what tests/firmware/pico needs, plus Debian's faketime and gcc)

* flash: `pentago-board firmware flash --size 6` onto a Pico with nothing but MicroPython
  (blank littlefs), then `firmware check`: the real mpremote over the emulated Pico's pty;
* faults: a classic game on B-6x6 through `pentago-board run`, with the cable pulled after the
  third move and the MCU power-cycled after the sixth: the game must end with every move
  recorded and the win, nothing in repair.

Everything runs at ``--speed`` (the daemon's and the commands' clocks under libfaketime, the
emulator paced to match: tests/firmware/pico/FACTS.md 8). Prints what happened and the wall time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "firmware" / "pico"))
sys.path.insert(0, str(ROOT))

from pico import Pico, PtyBridge, missing  # noqa: E402  (puts firmware/ on the path)
import wire  # noqa: E402, I001
from pico_daemon import PicoDaemon, cli  # noqa: E402
from pico_daemon import missing as daemon_missing  # noqa: E402

GAME = ("a1 2R", "d6 2R", "a2 2L", "e6 4R", "a3 4L", "f5 2R", "a4 4R", "d1 4L", "a5")


def flash(folder: Path, speed: float) -> bool:
    with Pico(6, speed=speed, files={}) as pico, PtyBridge(pico, folder / "ttyACM0") as bridge:
        pico.pace(speed)
        started = time.monotonic()
        done = cli(folder, speed, "firmware", "flash", "--port", str(bridge.path), "--size", "6")
        print(f"firmware flash: exit {done.returncode} after {time.monotonic() - started:.0f} s: "
              f"{(done.stdout or done.stderr).strip()[-300:]}")
        check = cli(folder, speed, "firmware", "check", "--port", str(bridge.path), "--size", "6")
        print(f"firmware check: exit {check.returncode}: {(check.stdout or check.stderr).strip()}")
        return done.returncode == 0 and check.returncode == 0


def faults(folder: Path, speed: float) -> bool:
    started = time.monotonic()
    with PicoDaemon(folder, "B-6x6", speed=speed) as table:
        table.wait_state(lambda s: s["state"] == "choosing")
        table.command("new_game", game="classic")
        table.wait_state(lambda s: s["phase"] == "place")
        for number, move in enumerate(GAME):
            state = table.play(move, wire.NORTH if number % 2 == 0 else wire.SOUTH)
            if number == 2:
                table.bridge.unplug()
                time.sleep(2 / speed)          # two seconds of daemon time without the cable
                table.bridge.plug()
                print(f"  cable pulled and back after {move}")
            if number == 5:
                table.pico.power_off()
                table.pico.power_on()
                print(f"  MCU power-cycled after {move}")
            if number in (2, 5):
                table.wait_state(lambda s: s["phase"] == "place" and not s["repair"], daemon_s=30)
        log = table.daemon.log
    ok = state["moves"] == list(GAME) and state["outcome"] is not None and not state["repair"]
    print(f"classic game with an unplug and an MCU reset: moves {state['moves']}, outcome "
          f"{state['outcome']}, repair {state['repair']} ({time.monotonic() - started:.0f} s)")
    print(f"  daemon: {log.count('link down')} link-down lines, "
          f"{sum('restarted' in line for line in log.splitlines())} MCU-restart lines, "
          f"{log.count('Traceback')} tracebacks")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--speed", type=float, default=0.1, help="daemon and emulator pace (0.1)")
    parser.add_argument("--only", choices=("flash", "faults"), help="one scenario (both)")
    args = parser.parse_args()
    reason = missing() or daemon_missing()
    if reason:
        print(f"skipped: {reason}")
        return 0
    results = []
    for name, scenario in (("flash", flash), ("faults", faults)):
        if args.only in (None, name):
            with tempfile.TemporaryDirectory(prefix=f"pico-{name}-") as folder:
                results.append(scenario(Path(folder), args.speed))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
