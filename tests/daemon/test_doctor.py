"""Doctor checks against a fake /dev, fake groups and a fake MCU hello."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from tests.drivers.gpio_chip import Chip

from controller.daemon.config import Config
from controller.daemon.doctor import Machine, report, run_checks
from controller.errors import LinkError

ROOT = Path(__file__).resolve().parents[2]


READY_CONFIG = "dtparam=spi=on\ndtoverlay=spi0-1cs\nenable_uart=0\n"
CMDLINE = "console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait\n"


def machine(tmp_path, nodes=("gpiochip0", "spidev0.0"), groups=("gpio", "spi", "dialout"), hello=None,
            config_txt=READY_CONFIG, cmdline=CMDLINE):
    dev = tmp_path / "dev"
    dev.mkdir()
    for node in nodes:
        (dev / node).touch()
    firmware = tmp_path / "boot" / "firmware"
    firmware.mkdir(parents=True)
    (firmware / "config.txt").write_text(config_txt)
    (firmware / "cmdline.txt").write_text(cmdline)

    def mcu_hello(profile):
        if isinstance(hello, Exception):
            raise hello
        return hello or {"firmware": "1.2.0", "protocol": 1, "size": profile.size}

    return Machine(dev=dev, boot=tmp_path / "boot", groups=lambda: set(groups), is_root=lambda: False,
                   mcu_hello=mcu_hello)


def pi_machine(tmp_path, monkeypatch, label="pinctrl-bcm2711", labels=None, **kwargs):
    """machine() whose gpiochip nodes answer as the kernel's chips: labelled ``label`` (a Pi 4's
    header bank), or as ``labels`` has them by name. The model takes over os.open, so it comes
    once the nodes are made."""
    made = machine(tmp_path, **kwargs)
    chip = Chip([], [], [], label=label)
    chip.labels = labels or {}
    chip.install(monkeypatch)
    return made


def config(tmp_path, profile, mcu_port=None):
    return Config(profile=profile, journal=tmp_path / "state" / "journal.jsonl")


def lines(checks):
    return report(checks)[0].splitlines()


def test_a_ready_gpio_machine_passes(tmp_path, monkeypatch):
    checks = run_checks(config(tmp_path, "A-6x6"), pi_machine(tmp_path, monkeypatch))
    text, status = report(checks)
    assert status == 0, text
    assert [c.name for c in checks] == ["profile", "GPIO", "SPI", "boot config", "serial console", "groups", "journal",
                                        "computer"]
    assert f"OK    GPIO: {tmp_path / 'dev' / 'gpiochip0'} (pinctrl-bcm2711): the Pi's header" in text
    assert text.endswith("all checks passed")


def test_missing_spi_and_groups_fail_with_their_fixes(tmp_path, monkeypatch):
    checks = run_checks(config(tmp_path, "A-6x6"), pi_machine(tmp_path, monkeypatch, nodes=("gpiochip0",),
                                                               groups=("gpio",)))
    text, status = report(checks)
    assert status == 1
    assert "FAIL  SPI: no device node for the NeoPixels" in text
    assert "      fix: sudo raspi-config nonint do_spi 0 && sudo reboot" in text
    assert "FAIL  groups: not in spi" in text
    assert text.endswith("2 problem(s) to fix")


def test_unwritable_device_node_is_named(tmp_path):
    m = machine(tmp_path)
    (m.dev / "gpiochip0").unlink()
    (m.dev / "gpiochip0").symlink_to(tmp_path / "nowhere")  # present in the listing, not openable
    text, _ = report(run_checks(config(tmp_path, "A-6x6"), m))
    assert f"FAIL  GPIO: {m.dev / 'gpiochip0'} not readable and writable by this user" in text


def test_the_chip_carrying_the_pis_header_is_named_among_the_others(tmp_path, monkeypatch):
    """A Pi 5 before Linux 6.6.45: the header is RP1's gpiochip4, found as the drivers find it."""
    m = pi_machine(tmp_path, monkeypatch, label="pinctrl-rp1", nodes=("gpiochip0", "gpiochip4", "gpiochip10", "spidev0.0"),
                   labels={"gpiochip0": "gpio-brcmstb@107d508500", "gpiochip10": "raspberrypi-exp-gpio"})
    [check] = [c for c in run_checks(config(tmp_path, "A-6x6"), m) if c.name == "GPIO"]
    assert check.ok and check.detail == (f"{m.dev / 'gpiochip4'} (pinctrl-rp1): the Pi's header; also "
                                         f"{m.dev / 'gpiochip0'} (gpio-brcmstb@107d508500), "
                                         f"{m.dev / 'gpiochip10'} (raspberrypi-exp-gpio)")


@pytest.mark.parametrize("name", ["A-6x6", "B-6x6"])
def test_no_pis_header_bank_among_the_chips_fails_and_says_why(tmp_path, monkeypatch, name):
    m = pi_machine(tmp_path, monkeypatch, label="gpio-mockup-A", nodes=("gpiochip0", "gpiochip1", "spidev0.0"))
    text, status = report(run_checks(config(tmp_path, name), m))
    pins = "the matrix, encoders and buttons" if name == "A-6x6" else "the buttons"
    assert status == 1
    assert (f"FAIL  GPIO: none of the GPIO chips is a Raspberry Pi's header bank ({m.dev / 'gpiochip0'} "
            f"(gpio-mockup-A), {m.dev / 'gpiochip1'} (gpio-mockup-A); the header's is labelled one of pinctrl-bcm2835, "
            f"pinctrl-bcm2711, pinctrl-rp1): {pins} of {name} are wired to the header's pins, so the daemon "
            "will not start here\n"
            "      fix: run the board on a Raspberry Pi under Raspberry Pi OS (its kernel labels the header's chip)"
            ) in text


def test_nodes_that_are_no_gpio_chips_are_no_header(tmp_path):
    """Without the model the nodes are plain files: the kernel answers no chip's info for them."""
    [check] = [c for c in run_checks(config(tmp_path, "A-6x6"), machine(tmp_path)) if c.name == "GPIO"]
    assert not check.ok and "is a Raspberry Pi's header bank (no chip answered; " in check.detail


def test_mcu_port_firmware_version_and_a_failed_handshake(tmp_path, monkeypatch):
    m = machine(tmp_path)
    port = m.dev / "pentago-mcu"
    cfg = config(tmp_path, "B-6x6")
    monkeypatch.setattr("controller.daemon.doctor.load_profile", _with_port(port))
    text = report(run_checks(cfg, m))[0]
    assert "FAIL  MCU port: " in text
    # issue 22, item 17: a new Pico has no port until MicroPython is on it, and the fix says how
    assert "A new Pico has no serial port until MicroPython v1.28.0 is on it: hold its BOOTSEL button" in text
    assert "then: pentago-board firmware flash" in text
    port.touch()
    assert "OK    MCU firmware: version 1.2.0, protocol 1, 6x6" in lines(run_checks(cfg, m))
    m.mcu_hello = lambda profile: (_ for _ in ()).throw(LinkError("protocol 0, want 1"))
    text, status = report(run_checks(cfg, m))
    assert "FAIL  MCU firmware: no handshake: protocol 0, want 1" in text and status == 1


def _with_port(port):
    from dataclasses import replace

    from controller.profile import load_profile

    def load(name):
        profile = load_profile(name)
        return replace(profile, mcu=replace(profile.mcu, port=str(port)))

    return load


def test_bad_profile_and_unwritable_journal(tmp_path):
    cfg = Config(profile="nope", journal=Path("/proc/pentago/journal.jsonl"))
    text, status = report(run_checks(cfg, machine(tmp_path)))
    assert status == 1
    assert "FAIL  profile: no shipped profile named 'nope'" in text
    assert "FAIL  journal: cannot create /proc/pentago: " in text


def test_journal_directory_is_probed_by_writing(tmp_path):
    state, m = tmp_path / "state", machine(tmp_path)
    assert f"OK    journal: {state} can be created" in lines(run_checks(config(tmp_path, "virtual-6x6"), m))
    state.mkdir()
    assert f"OK    journal: {state} is writable" in lines(run_checks(config(tmp_path, "virtual-6x6"), m))
    assert list(state.iterdir()) == []  # the probe leaves nothing behind


def test_the_command_on_the_virtual_profile_passes():
    result = subprocess.run([sys.executable, "-m", "controller", "doctor", "--profile", "virtual-6x6"],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("OK    profile: virtual-6x6: 6x6, colour sensing, virtual driver")


def test_the_real_handshake_reads_the_firmware_version_over_a_pty(tmp_path, monkeypatch):
    from pentago_firmware import wire
    from tests.drivers.fake_mcu import FakeMcu

    from controller.daemon.doctor import _mcu_hello

    mcu = FakeMcu(tmp_path)
    try:
        mcu.expect(wire.CONNECT, [mcu.hello(), mcu.snapshot()])
        m = machine(tmp_path)
        m.mcu_hello = _mcu_hello
        monkeypatch.setattr("controller.daemon.doctor.load_profile", _with_port(Path(mcu.port)))
        assert f"OK    MCU firmware: version 0.1.0-fake, protocol {wire.PROTOCOL_VERSION}, 6x6" in lines(run_checks(config(tmp_path, "B-6x6"), m))
    finally:
        mcu.close()


def test_a_refused_hello_is_named_with_what_to_do(tmp_path, monkeypatch):
    from pentago_firmware import wire
    from tests.drivers.fake_mcu import FakeMcu

    from controller.daemon.doctor import _mcu_hello

    mcu = FakeMcu(tmp_path, size=9)
    try:
        mcu.answer(wire.CONNECT, lambda seq, fields: [mcu.hello()])
        m = machine(tmp_path)
        m.mcu_hello = _mcu_hello
        monkeypatch.setattr("controller.daemon.doctor.load_profile", _with_port(Path(mcu.port)))
        text = "\n".join(lines(run_checks(config(tmp_path, "B-6x6"), m)))
    finally:
        mcu.close()
    assert ("FAIL  MCU firmware: no handshake: the board MCU is set up for a 9x9 board but the hardware profile "
            "says 6x6: fix the profile's size or the MCU config") in text
    assert "fix: do as it says; a running daemon keeps trying and comes up by itself once it is done" in text


def test_pwm_leds_need_root(tmp_path, monkeypatch):
    from dataclasses import replace

    from controller.profile import load_profile

    def pwm_profile(name):
        profile = load_profile(name)
        return replace(profile, leds=replace(profile.leds, driver="pwm", pin=18))

    monkeypatch.setattr("controller.daemon.doctor.load_profile", pwm_profile)
    text, status = report(run_checks(config(tmp_path, "A-6x6"), machine(tmp_path)))
    assert status == 1 and "FAIL  LEDs: PWM-driven NeoPixels need root (/dev/mem)" in text


def test_the_service_state_directory_may_not_exist_yet(tmp_path, monkeypatch):
    monkeypatch.setattr("controller.daemon.doctor.STATE_DIRECTORY", tmp_path / "lib" / "pentago-board")
    cfg = Config(profile="virtual-6x6", journal=tmp_path / "lib" / "pentago-board" / "journal.jsonl")
    assert f"OK    journal: {tmp_path}/lib/pentago-board is made by systemd when the service starts" in \
        lines(run_checks(cfg, machine(tmp_path)))


def test_a_journal_set_aside_is_named_with_what_to_do(tmp_path):
    from controller.journal import Journal

    cfg = config(tmp_path, "virtual-6x6")
    cfg.journal.parent.mkdir(parents=True)
    Journal(cfg.journal).clear([{"kind": "place", "hole": 5}])
    aside = Journal(cfg.journal).set_aside()
    text, status = report(run_checks(cfg, machine(tmp_path)))
    assert status == 0, text  # a warning: the board runs
    assert f"WARN  journal set aside: {aside}" in text
    assert "could not resume" in text
    assert f"rm {aside}" in text


def test_no_journal_set_aside_no_line(tmp_path):
    text, _ = report(run_checks(config(tmp_path, "virtual-6x6"), machine(tmp_path)))
    assert "set aside" not in text


def test_the_computer_check_says_what_it_searches_with_and_how_to_compile_it(tmp_path, monkeypatch):
    from dataclasses import replace

    from controller.ai import compiled

    board = machine(tmp_path)

    def computer(cfg):
        return next(c for c in run_checks(cfg, board) if c.name == "computer")

    monkeypatch.setattr(compiled, "available", lambda: False)
    plain = computer(config(tmp_path, "virtual-6x6"))
    assert plain.ok and "install.sh --fast" in plain.detail
    monkeypatch.setattr(compiled, "available", lambda: True)
    fast = computer(config(tmp_path, "virtual-6x6"))
    assert fast.ok and fast.detail.startswith("searches compiled")
    chosen = replace(config(tmp_path, "virtual-6x6"), game=replace(Config().game, engine="python"))
    assert computer(chosen).detail == 'searches in Python (engine = "python" in the config)'


# -- issue 22, item 18: the Pi's boot configuration ----------------------------------------------

def test_build_a_s_missing_config_txt_lines_are_named_with_why_and_what_to_add(tmp_path):
    m = machine(tmp_path, config_txt="# Raspberry Pi OS\ndtparam=audio=on\n[pi4]\ndtparam=spi=on\n[none]\nenable_uart=0\n")
    text, status = report(run_checks(config(tmp_path, "A-6x6"), m))
    firmware = tmp_path / "boot" / "firmware"
    assert status == 1
    assert (f"FAIL  boot config: {firmware / 'config.txt'} lacks dtoverlay=spi0-1cs (GPIO7 (SPI0's CE1) is encoder "
            "2's B pin); enable_uart=0 (GPIO14 (the UART's) is matrix row 1 and GPIO15 (the UART's) is matrix row 2)\n"
            f"      fix: add these lines to {firmware / 'config.txt'} (sudo nano {firmware / 'config.txt'}), then sudo reboot:\n"
            "           dtoverlay=spi0-1cs\n"
            "           enable_uart=0\n") in text
    assert f"OK    serial console: none on the UART ({firmware / 'cmdline.txt'})" in text


def test_a_login_console_on_build_a_s_uart_pins_fails_with_its_fix(tmp_path):
    m = machine(tmp_path, cmdline="console=serial0,115200 " + CMDLINE)
    text, status = report(run_checks(config(tmp_path, "A-6x6"), m))
    assert status == 1 and "OK    boot config: " in text
    assert "FAIL  serial console: " in text and "starts a login console on the UART (console=serial0,115200)" in text
    assert "fix: sudo raspi-config: Interface Options, Serial Port: no login shell, no serial hardware" in text


def test_an_older_pi_os_s_boot_config_is_read_and_build_b_needs_only_spi(tmp_path):
    m = machine(tmp_path, config_txt="")
    for name in ("config.txt", "cmdline.txt"):
        (m.boot / "firmware" / name).unlink()
    (m.boot / "firmware").rmdir()
    (m.boot / "config.txt").write_text("dtparam=i2c_arm=on,spi=on\n")
    checks = {c.name: c for c in run_checks(config(tmp_path, "B-6x6"), m)}
    assert checks["boot config"].ok and checks["boot config"].detail == f"{m.boot / 'config.txt'} has dtparam=spi=on"
    assert "serial console" not in checks  # build B leaves the UART's pins alone


def test_a_journal_file_system_too_full_for_the_next_records_fails(tmp_path, monkeypatch):
    from controller.daemon import doctor

    (tmp_path / "state").mkdir()
    monkeypatch.setattr(doctor.os, "statvfs", lambda path: SimpleNamespace(f_bavail=100, f_frsize=4096))
    [check] = [c for c in run_checks(config(tmp_path, "virtual-6x6")) if c.name == "journal"]
    assert not check.ok and check.detail.startswith(f"only 400 KiB free where the journal goes ({tmp_path / 'state'})")
    assert "cannot save" in check.detail and "free space" in check.hint


def test_what_the_running_daemon_says_of_its_referee(tmp_path):
    words = {"paused": "cannot save: the board is paused (No space left on device); it goes on by itself ...",
             "stopped": "stopped: the referee has not answered for 12 s; the service restarts it ...",
             "live": "the referee is following the board"}
    m = machine(tmp_path)
    for status, said in words.items():
        m.daemon_health = lambda config, status=status, said=said: {"status": status, "words": said}
        [check] = [c for c in run_checks(config(tmp_path, "virtual-6x6"), m) if c.name == "running board"]
        assert (check.ok, check.detail) == (status == "live", said)
    m.daemon_health = lambda config: None  # no console answers: nothing to say
    assert "running board" not in [c.name for c in run_checks(config(tmp_path, "virtual-6x6"), m)]
