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
        "  mcu: /dev/pentago-mcu at 115200 baud\n"
        "  leds: 67 GRB pixels on GPIO10 (spi): 36 hole, 24 arrow, 4 status, 3 card; "
        "cap 0.3, budget 1500 mA, 1206 mA all on at the cap\n"
    )


def test_checks_a_profile_by_path(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text((PROFILE_DIR / "A-6x6.toml").read_text().replace('name = "A-6x6"\n', ""))
    assert main(["profile", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[3] == (
        "  gpio: 6 matrix rows x 6 columns, 4 encoders"
    )


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
