"""The real daemon (`pentago-board run`) on a Build B profile against the emulated Pico.

The emulator runs slower than a real Pico, and the daemon judges with wall-clock timers (settle
times, heartbeat silence, the handshake's timeout), so both run at one pace (FACTS.md 8): the
daemon under libfaketime (Debian's faketime package) with ``FAKETIME="+0 xSPEED"`` and
slowclock.c for the locks libfaketime misses, the emulator paced to SPEED times the wall clock.
Protocol timing then holds as on a real board; a game takes 1/SPEED times longer.

The profile is the shipped one (B-6x6 or B-9x9) with two changes: the port is the bridge's pty,
and the LEDs are the virtual strip (no SPI here). The Pi's own buttons (OK and Back, on its GPIO)
are gpiozero's mock pins, which :meth:`PicoDaemon.press` presses through pressed_daemon.py, the
`run` command with the mock factory the test can reach.

Example::

    with PicoDaemon(tmp_path, "B-6x6") as table:
        table.daemon.api("/api/command", {"name": "new_game", "args": {"game": "classic"}})
        table.play("a1 2R", wire.NORTH)
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from pico import HERE, ROOT, Pico, PtyBridge

from controller.profile import load_profile
from controller.rules.geometry import Geometry
from controller.rules.notation import parse_hole
from tests.daemon.daemon_proc import DaemonProcess

SPEED = 0.1          # daemon seconds per wall second, and emulated seconds per wall second


def libfaketime() -> str | None:
    found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
    return found[0] if found else None


def missing() -> str | None:
    """Why the daemon cannot run against the emulated Pico here; None when it can."""
    if libfaketime() is None:
        return "libfaketime is not installed: apt-get install faketime"
    if shutil.which("gcc") is None:
        return "gcc is needed to build slowclock.c"
    return None


def slowed(tmp_path: Path, speed: float) -> dict[str, str]:
    """The environment that runs a program's clocks at ``speed`` (libfaketime and slowclock.so)."""
    shim = tmp_path / "slowclock.so"
    if not shim.exists():
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(shim), str(HERE / "slowclock.c"),
                        "-ldl"], check=True)
    return {**os.environ, "LD_PRELOAD": f"{shim}:{libfaketime()}", "FAKETIME": f"+0 x{speed}",
            "GPIOZERO_PIN_FACTORY": "mock"}


def cli(tmp_path: Path, speed: float, *args: str, timeout_s: float = 900) -> subprocess.CompletedProcess:
    """``pentago-board ARGS`` with its clocks at ``speed`` (its timeouts then judge emulated time)."""
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=ROOT, capture_output=True,
                          text=True, env=slowed(tmp_path, speed), timeout=timeout_s)


class PicoDaemon:
    """An emulated Pico of ``profile`` (B-6x6 or B-9x9) on a pty, and the daemon using it."""

    def __init__(self, tmp_path: Path, profile: str, speed: float = SPEED) -> None:
        self.speed = speed
        self.profile = load_profile(profile)
        self.geometry = Geometry(self.profile.size)
        self.pico = Pico(self.profile.size, speed=speed)
        self.bridge = PtyBridge(self.pico, tmp_path / "ttyACM0")
        self.pico.pace(speed)
        text = (ROOT / "hardware" / "profiles" / f"{profile}.toml").read_text()
        text = text.replace('port = "/dev/pentago-mcu"', f'port = "{self.bridge.path}"')
        text = text.replace('driver = "spi"', 'driver = "virtual"')
        (tmp_path / f"{profile}.toml").write_text(text)
        saved = dict(os.environ)
        os.environ.update(slowed(tmp_path, speed))
        try:
            self.daemon = DaemonProcess(tmp_path, profile=str(tmp_path / f"{profile}.toml"),
                                        launcher=HERE / "pressed_daemon.py").start()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.daemon.messages("READY=1", timeout_s=120)

    # Waiting, in wall seconds: everything takes 1/speed longer than on a real board.

    def wait_state(self, predicate: Any, daemon_s: float = 10.0) -> dict[str, Any]:
        return self.daemon.wait_state(predicate, timeout_s=daemon_s / self.speed)

    def command(self, name: str, **args: Any) -> None:
        status, answer = self.daemon.api("/api/command", {"name": name, "args": args})
        assert status == 202, answer

    # A player's hands.

    def hole(self, name: str) -> int:
        return parse_hole(name, self.geometry)

    def place(self, name: str, pole: int) -> None:
        self.pico.place(self.hole(name), pole)

    def lift(self, name: str) -> None:
        self.pico.lift(self.hole(name))

    def twist(self, block: int, clockwise: bool) -> None:
        detents = self.profile.detents_per_quarter
        self.pico.turn(block, detents if clockwise else -detents, 1 if clockwise else 3)

    def press(self, button: str) -> None:
        """Press and let go one of the Pi's buttons (``ok``, ``back``)."""
        self.daemon.stdin.write(f"{self.profile.buttons[button]}\n".encode())
        self.daemon.stdin.flush()

    def confirm_colour(self, colour: str) -> dict[str, Any]:
        """Cycle the new marble's colour on to ``colour`` and confirm it, with the profile's
        colour buttons, as a player watching the blinking hole does; returns the state after."""
        ask = self.profile.colour_input
        state = self.wait_state(lambda s: s["confirm"] is not None)
        hole = state["confirm"]["hole"]
        for _ in range(3):   # three Triple colours: at most two steps on
            if state["confirm"]["colour"] == colour:
                break
            shown = state["confirm"]["colour"]
            self.press(ask.cycle)
            state = self.wait_state(lambda s: s["confirm"] is None or s["confirm"]["colour"] != shown)
        assert state["confirm"] == {"hole": hole, "colour": colour}, state["confirm"]
        self.press(ask.confirm)
        return self.wait_state(lambda s: s["confirm"] is None)

    def play(self, move: str, pole: int, colour: str | None = None) -> dict[str, Any]:
        """Place and twist one move (``"a1 2R"``), the marble ``pole`` up; for a Triple move
        (``"Ba1 2R"``) ``colour`` is the marble's, confirmed with the buttons before the twist.
        Returns the state with the move recorded."""
        before = len(self.daemon.state()["moves"])
        name, *twist = move.split()
        self.place(name[1:] if colour else name, pole)
        if colour is not None:
            self.confirm_colour(colour)
        if twist:
            self.wait_state(lambda s: s["phase"] == "twist" or len(s["moves"]) > before)
            self.twist(int(twist[0][:-1]), twist[0][-1] == "R")
        return self.wait_state(lambda s: len(s["moves"]) > before and s["phase"] != "twist")

    def close(self) -> None:
        self.daemon.close()
        self.bridge.close()
        self.pico.close()

    def __enter__(self) -> PicoDaemon:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

