"""The wiring-check commands: `inputs` prints the driver's events, `leds` walks the chain."""

from __future__ import annotations


import pytest

from controller.cli import main
from controller.commands.inputs import describe
from controller.drivers.virtual import VirtualPixels
from controller.events import ButtonPress, LinkChange
from controller.rules import geometry


def test_inputs_prints_the_start_up_readings_by_hole_name(capsys):
    assert main(["inputs", "virtual-6x6", "--seconds", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 36
    assert lines[0].endswith("hole a1 empty") and lines[-1].endswith("hole f6 empty")


def test_inputs_off_a_pi_says_it_finds_no_pi_chip(no_pi, capsys):
    assert main(["inputs", "A-6x6", "--seconds", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pentago-board inputs: the gpio driver cannot reach the Pi's pins: no Raspberry Pi GPIO chip")


def test_inputs_with_a_broken_profile_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("size = 7\n")
    assert main(["inputs", str(bad)]) == 2
    assert "bad.toml" in capsys.readouterr().err


def test_describe_buttons_and_link():
    g = geometry(6)
    assert describe(ButtonPress(0.0, "ok"), g) == "button ok"
    assert describe(LinkChange(0.0, False, "unplugged"), g) == "link down (unplugged)"


def test_leds_light_each_pixel_alone_in_chain_order(monkeypatch, capsys):
    outputs: list[VirtualPixels] = []

    def build(profile):
        outputs.append(VirtualPixels(profile.leds.length))
        return outputs[-1]

    monkeypatch.setattr("controller.drivers.factory.build_pixels", build)
    assert main(["leds", "virtual-6x6", "--step-s", "0", "--colour", "red"]) == 0
    lines = capsys.readouterr().out.splitlines()
    (output,) = outputs
    assert len(lines) == 79 == len(output.frames) - 1  # one frame per pixel, then all off
    assert lines[0] == "pixel 0: hole a1" and lines[6] == "pixel 6: hole f2"  # serpentine
    assert lines[36] == "pixel 36: arrow 1R" and lines[78] == "pixel 78: card 14"
    for i, frame in enumerate(output.frames[:-1]):
        assert [j for j, rgb in enumerate(frame) if rgb != (0, 0, 0)] == [i]
        assert frame[i] == (255, 0, 0)
    assert output.closed and set(output.last) == {(0, 0, 0)}


@pytest.mark.parametrize("command", ["inputs", "leds"])
def test_commands_are_registered(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "PROFILE" in capsys.readouterr().out
