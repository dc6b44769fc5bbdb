"""The factory picks the backend the profile names, says what to install when it cannot load,
and falls back only when asked, with a warning that says why."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from controller.drivers.factory import DriverFallback, build_inputs, build_pixels
from controller.drivers.gpio import GpioInputs
from controller.drivers.neopixel import NeoPixelOutput
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.errors import DriverUnavailable
from controller.profile import load_profile

from .rigs import CapturingStrip

ROOT = Path(__file__).resolve().parents[2]


def test_virtual_profile_builds_the_virtual_board_and_pixels(clock):
    profile = load_profile("virtual-6x6")
    board = build_inputs(profile, clock=clock)
    pixels = build_pixels(profile)
    assert isinstance(board, VirtualBoard) and board.detents_per_quarter == 6
    assert isinstance(pixels, VirtualPixels) and pixels.length == profile.leds.length


def test_gpio_profile_builds_gpio_inputs_on_the_given_pin_factory(mock_factory):
    driver = build_inputs(load_profile("A-6x6"), pin_factory=mock_factory, scan_interval_ms=None)
    assert isinstance(driver, GpioInputs)
    driver.stop()


def test_gpio_without_a_pin_library_says_what_to_install(no_pi):
    with pytest.raises(DriverUnavailable) as caught:
        build_inputs(load_profile("A-6x6"))
    assert str(caught.value).startswith("the gpio driver cannot reach the Pi's pins: no Raspberry Pi GPIO chip "
                                        "here (a /dev/gpiochip labelled pinctrl-bcm2835, pinctrl-bcm2711, pinctrl-rp1)")
    assert str(caught.value).endswith("; the gpio driver runs on a Raspberry Pi")


@pytest.mark.parametrize("driver, library", [
    ("spi", "adafruit-circuitpython-neopixel-spi"), ("pwm", "adafruit-circuitpython-neopixel"),
])
def test_neopixels_without_their_library_say_what_to_install(no_pi, driver, library):
    profile = _with_leds(load_profile("A-6x6"), driver=driver, pin=10 if driver == "spi" else 18)
    with pytest.raises(DriverUnavailable) as caught:
        build_pixels(profile)
    message = str(caught.value)
    assert message.startswith(f"LED driver {driver!r} cannot open the NeoPixels (")
    assert message.endswith(f"run pip install 'pentago-board[pi]' (installs {library})")


def test_neopixel_output_is_built_from_the_strip_the_chain_names(monkeypatch):
    leds = load_profile("A-6x6").leds
    opened = []

    def fake_open(chain):
        opened.append(chain)
        return CapturingStrip(chain.length, chain.order)

    monkeypatch.setattr("controller.drivers.neopixel.open_strip", fake_open)
    output = build_pixels(load_profile("A-6x6"))
    assert isinstance(output, NeoPixelOutput) and opened == [leds]


def test_fallback_is_explicit_and_warns_why(no_pi, clock):
    profile = load_profile("A-6x6")
    with pytest.warns(DriverFallback, match=r"input driver 'gpio' unavailable \(the gpio driver "
                      r"cannot reach .*\); using 'virtual' as asked"):
        board = build_inputs(profile, fallback="virtual", clock=clock)
    assert isinstance(board, VirtualBoard) and board._clock is clock
    with pytest.warns(DriverFallback, match=r"LED driver 'spi' unavailable .*using 'virtual'"):
        pixels = build_pixels(profile, fallback="virtual")
    assert isinstance(pixels, VirtualPixels)


def test_mcu_profile_builds_the_serial_link_on_its_port_and_the_buttons_on_pi_pins(clock, mock_factory):
    from controller.drivers.gpio.buttons import GpioButtons
    from controller.drivers.group import InputGroup
    from controller.drivers.serial_link import SerialLink

    profile = load_profile("B-6x6")
    group = build_inputs(profile, clock=clock, pin_factory=mock_factory)  # built, not started: no port opened
    assert isinstance(group, InputGroup)
    link, buttons = group.drivers
    assert isinstance(link, SerialLink) and isinstance(buttons, GpioButtons)
    assert (link.port, link.baud, link.clock) == (profile.mcu.port, profile.mcu.baud, clock)
    assert {mock_factory.pin(pin).function for pin in (5, 6)} == {"input"}  # GPIO5/6 claimed
    group.stop()


def test_mcu_profile_without_buttons_builds_the_link_alone(clock):
    from controller.drivers.serial_link import SerialLink

    profile = dataclasses.replace(load_profile("B-6x6"), buttons={})
    assert isinstance(build_inputs(profile, clock=clock), SerialLink)


def test_mcu_buttons_without_a_pin_library_say_what_to_install(no_pi):
    with pytest.raises(DriverUnavailable) as caught:
        build_inputs(load_profile("B-9x9"))
    assert str(caught.value).startswith("the B-9x9 buttons ([buttons]) cannot reach the Pi's pins: no Raspberry "
                                        "Pi GPIO chip here")


def test_mcu_profile_without_the_serial_link_is_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "controller.drivers.serial_link", None)
    with pytest.raises(DriverUnavailable, match="the mcu driver needs the serial link"):
        build_inputs(load_profile("B-6x6"))


def test_unknown_backend_names_are_refused():
    profile = _with_leds(load_profile("virtual-6x6"), driver="dmx")
    with pytest.raises(DriverUnavailable, match=r"LED driver 'dmx' does not exist \(one of spi, pwm, virtual\)"):
        build_pixels(profile)
    with pytest.raises(DriverUnavailable, match=r"input driver 'usb' does not exist"):
        build_inputs(dataclasses.replace(load_profile("virtual-6x6"), driver="usb"))


def test_importing_the_factory_loads_no_hardware_library():
    code = (
        "import sys, controller.drivers.factory, controller.drivers.virtual,"
        " controller.drivers.neopixel, controller.drivers.pixels;"
        "bad = [m for m in ('gpiozero', 'serial', 'neopixel', 'neopixel_spi', 'board', 'lgpio')"
        " if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def _with_leds(profile, **changes):
    return dataclasses.replace(profile, leds=dataclasses.replace(profile.leds, **changes))
