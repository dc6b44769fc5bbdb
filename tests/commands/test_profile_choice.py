"""Item 19 of issue 9: every command names a profile the same way, and `doctor` and `selftest`
say which profile they use instead of quietly testing the virtual board."""

from __future__ import annotations

import pytest

from controller.cli import build_parser, main

TAKE_A_PROFILE = ["doctor", "selftest", "leds", "inputs", "profile"]
NAME_YOUR_BOARD = ("name your board with --profile A-6x6, B-6x6, B-9x9 or a .toml path, "
                   "or with --config FILE")


@pytest.mark.parametrize("command", TAKE_A_PROFILE)
@pytest.mark.parametrize("spelling", [["B-6x6"], ["--profile", "B-6x6"], ["--profile=B-6x6"]])
def test_every_command_takes_a_profile_either_way(command, spelling):
    assert build_parser().parse_args([command, *spelling]).profile == "B-6x6"


@pytest.mark.parametrize("command", TAKE_A_PROFILE)
def test_two_profiles_at_once_are_refused(command, capsys):
    with pytest.raises(SystemExit) as caught:
        build_parser().parse_args([command, "B-6x6", "--profile", "A-6x6"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"pentago-board {command}: error: argument --profile: not allowed with argument PROFILE")


@pytest.mark.parametrize("command", ["leds", "inputs"])
def test_commands_that_need_a_profile_say_so(command, capsys):
    with pytest.raises(SystemExit) as caught:
        build_parser().parse_args([command])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"pentago-board {command}: error: one of the arguments PROFILE --profile is required")


def test_leds_runs_with_the_option_spelling(capsys, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    assert main(["leds", "--profile", "virtual-6x6", "--step-s", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "pixel 0: hole a1"


def test_doctor_without_a_config_says_it_checks_the_virtual_board(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("note: no --config or --profile given, so this checks virtual-6x6, the "
                      f"virtual board; {NAME_YOUR_BOARD}")
    assert out[1].startswith("OK    profile: virtual-6x6")


def test_doctor_with_a_profile_has_no_note(capsys):
    assert main(["doctor", "--profile", "virtual-9x9"]) == 0
    assert capsys.readouterr().out.startswith("OK    profile: virtual-9x9")


def test_selftest_without_a_config_refuses_the_virtual_board(capsys):
    assert main(["selftest", "--timeout", "0"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "pentago-board selftest: no --config or --profile given, so the profile is virtual-6x6, "
        "the virtual board: it has no LEDs, sensors or encoders to test; "
        f"{NAME_YOUR_BOARD}\n")


def test_selftest_of_a_virtual_profile_is_refused(capsys, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('profile = "virtual-9x9"\n')
    assert main(["selftest", "--config", str(config), "--timeout", "0"]) == 2
    assert capsys.readouterr().err == (
        f"pentago-board selftest: the profile is virtual-9x9 (from {config}), the virtual board: "
        f"it has no LEDs, sensors or encoders to test; {NAME_YOUR_BOARD}\n")


def test_selftest_says_which_profile_it_tests(capsys, monkeypatch):
    from controller.errors import DriverUnavailable

    def no_pins(profile):
        raise DriverUnavailable("no GPIO here")

    monkeypatch.setattr("controller.drivers.factory.build_inputs", no_pins)
    assert main(["selftest", "--profile", "A-6x6", "--timeout", "0"]) == 2
    captured = capsys.readouterr()
    assert captured.out == (
        "> testing A-6x6 (from --profile): Build A (direct): reed switch diode matrix and "
        "encoders on Pi GPIO, 6x6\n")
    assert captured.err == "pentago-board selftest: no GPIO here\n"
