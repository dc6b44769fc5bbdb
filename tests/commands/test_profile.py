"""`pentago-board profile`: lists the shipped profiles, checks one, and fails clearly on a bad one."""

from __future__ import annotations

from controller.cli import main
from controller.profile import PROFILE_DIR


def test_lists_the_shipped_profiles(capsys):
    assert main(["profile"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "A-6x6", "B-6x6", "B-9x9", "virtual-6x6", "virtual-9x9",
    ]


def test_summarises_a_good_profile(capsys):
    assert main(["profile", "B-6x6"]) == 0
    assert capsys.readouterr().out == (
        "B-6x6: Build B (mcu): Pico + DRV5055 linear Hall sensors, two marble colours, 6x6\n"
        "  board 6x6 (4 blocks), polarity sensing, mcu driver, 6 detents per quarter turn\n"
        "  colours: north up white, south up black\n"
        "  buttons: ok GPIO5, back GPIO6\n"
        "  colour input: confirm (cycle with back, confirm with ok)\n"
        "  mcu: /dev/pentago-mcu at 115200 baud\n"
        "  leds: 79 GRB pixels on GPIO10 (spi): 36 hole, 24 arrow, 4 status, 15 card (3 cards x 5); "
        "brightness cap 0.3\n"
        "  current: every pixel white at the cap draws 335 mA in all (the cap goes through "
        "gamma 2.2: 0.3 gives 7% of full current)\n"
        "  budget 1500 mA: more than the LEDs can draw at the cap, so it never dims a frame; the hardware "
        "docs size the 5 V supply for 1500 mA of LEDs (the budget: the most the daemon ever lets them "
        "draw, so a higher cap still fits)\n"
    )


def test_the_big_board_says_its_budget_is_never_reached(capsys):
    assert main(["profile", "B-9x9"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "  current: every pixel white at the cap draws 601 mA in all (the cap goes through "
        "gamma 2.2: 0.3 gives 7% of full current)",
        "  budget 2000 mA: more than the LEDs can draw at the cap, so it never dims a frame; the hardware "
        "docs size the 5 V supply for 2000 mA of LEDs (the budget: the most the daemon ever lets them "
        "draw, so a higher cap still fits)",
    ]


def test_a_budget_under_the_full_draw_says_frames_are_dimmed(tmp_path, capsys):
    path = tmp_path / "tight.toml"
    path.write_text((PROFILE_DIR / "B-9x9.toml").read_text().replace(
        "current_budget_ma = 2000", "current_budget_ma = 300"))
    assert main(["profile", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "  budget 300 mA: a frame that would draw more is dimmed as a whole to fit, hues kept; "
        "the hardware docs size the 5 V supply for 300 mA of LEDs (the budget: the most the daemon "
        "ever lets them draw, so a higher cap still fits)")


def test_virtual_pixels_need_no_supply(capsys):
    assert main(["profile", "virtual-6x6"]) == 0
    assert capsys.readouterr().out.splitlines()[-3:] == [
        "  colour input: sensed",
        "  leds: 79 GRB pixels virtual: 36 hole, 24 arrow, 4 status, 15 card (3 cards x 5); brightness cap 1",
        "  current: virtual pixels draw nothing; there is no supply to size",
    ]


def test_checks_a_profile_by_path(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text((PROFILE_DIR / "A-6x6.toml").read_text().replace('name = "A-6x6"\n', ""))
    assert main(["profile", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[3:5] == [
        "  colour input: confirm (cycle with back, confirm with ok)",
        "  gpio: 6 matrix rows x 6 columns, 4 encoders",
    ]


def test_bad_profile_exits_2_with_the_message(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text((PROFILE_DIR / "A-6x6.toml").read_text().replace("ok = 3", "ok = 40"))
    assert main(["profile", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"pentago-board profile: {path}: buttons.ok: GPIO 40 is not on the Pi's 40-pin header "
        "(GPIO 0-27)\n"
    )
