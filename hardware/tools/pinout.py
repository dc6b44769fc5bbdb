"""Who uses which pin: the Pi's 40-pin header and the Pico's 40 pins, filled in from a profile.

The Pi side comes from the hardware profile. The Pico side of build B comes from the firmware's
reference board config (``pentago_firmware.boardconfig.default``), the one the Pico is flashed
with, so the docs and the firmware cannot disagree.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from controller.profile import Profile
from controller.rules import hole_name

# Raspberry Pi 40-pin header: physical pin -> BCM GPIO number, or the name of a power pin.
PI_HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
PI_PHYSICAL = {bcm: pin for pin, bcm in PI_HEADER.items() if isinstance(bcm, int)}

# Raspberry Pi Pico: physical pin -> GPn number, or the name of a power/system pin.
PICO_HEADER: dict[int, int | str] = {
    1: 0, 2: 1, 3: "GND", 4: 2, 5: 3, 6: 4, 7: 5, 8: "GND", 9: 6, 10: 7,
    11: 8, 12: 9, 13: "GND", 14: 10, 15: 11, 16: 12, 17: 13, 18: "GND", 19: 14, 20: 15,
    21: 16, 22: 17, 23: "GND", 24: 18, 25: 19, 26: 20, 27: 21, 28: "GND", 29: 22, 30: "RUN",
    31: 26, 32: 27, 33: "AGND", 34: 28, 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN",
    38: "GND", 39: "VSYS", 40: "VBUS",
}
PICO_PHYSICAL = {gp: pin for pin, gp in PICO_HEADER.items() if isinstance(gp, int)}

MUX_CHANNELS = 16  # CD74HC4067


@dataclass(frozen=True)
class PinUse:
    """One used pin: physical header pin, its name (GPIO17, GP26, 5V ...), signal and wiring."""

    physical: int
    name: str
    signal: str
    goes_to: str


def pi_pins(profile: Profile) -> list[PinUse]:
    """Every Pi header pin the build uses, in header order."""
    uses = _sensor_pins(profile) + _button_pins(profile) + _led_pins(profile)
    uses += _pi_power(profile)
    return sorted(uses, key=lambda use: use.physical)


def _gpio(bcm: int, signal: str, goes_to: str) -> PinUse:
    return PinUse(PI_PHYSICAL[bcm], f"GPIO{bcm}", signal, goes_to)


def _holes(profile: Profile, holes: tuple[int, ...]) -> str:
    return " ".join(hole_name(h, profile.geometry) for h in holes)


def _sensor_pins(profile: Profile) -> list[PinUse]:
    gpio = profile.gpio
    if gpio is None:
        return []
    width = len(gpio.matrix_columns)
    uses = []
    for r, bcm in enumerate(gpio.matrix_rows):
        holes = gpio.matrix_holes[r * width:(r + 1) * width]
        uses.append(_gpio(bcm, f"matrix row R{r + 1} (output)",
                          f"diode cathodes of holes {_holes(profile, holes)}"))
    for c, bcm in enumerate(gpio.matrix_columns):
        holes = gpio.matrix_holes[c::width]
        uses.append(_gpio(bcm, f"matrix column C{c + 1} (input, pull-up)",
                          f"reed switches of holes {_holes(profile, holes)}"))
    for block, pair in enumerate(gpio.encoders, start=1):
        for channel, bcm in zip("AB", pair):
            uses.append(_gpio(bcm, f"encoder {block} {channel}",
                              f"block {block} encoder pin {channel} (via RC filter)"))
    return uses


def _button_pins(profile: Profile) -> list[PinUse]:
    return [_gpio(bcm, f"button {name}", f"{name} button, other leg to GND")
            for name, bcm in profile.buttons.items()]


def _led_pins(profile: Profile) -> list[PinUse]:
    leds = profile.leds
    kind = "SPI0 MOSI" if leds.driver == "spi" else "PWM"
    return [_gpio(leds.pin, f"NeoPixel data ({kind})",
                  "74AHCT125 1A; 1Y -> 330 ohm -> DIN of pixel 0")]


def _pi_power(profile: Profile) -> list[PinUse]:
    uses = [PinUse(6, "GND", "ground", "common ground: supply 0 V, LED chain GND, 74AHCT125 GND")]
    if profile.gpio is not None:
        uses.append(PinUse(1, "3V3", "3.3 V", "encoder pull-ups (10 k) and encoder filters"))
        uses.append(PinUse(9, "GND", "ground", "encoder common pins, buttons"))
    else:
        uses.append(PinUse(9, "GND", "ground", "buttons"))
    return uses


# ---------------------------------------------------------------------------------------------
# Build B: the Pico


@dataclass(frozen=True)
class SensorWire:
    """Where one hole's Hall sensor goes: mux chip (1-based), mux channel and ADC pin."""

    hole: int
    mux: int
    channel: int
    adc_gp: int


def pico_config(profile: Profile) -> dict:
    """The firmware's reference board config for this board size (what the Pico is flashed with)."""
    import pentago_firmware

    # Firmware modules import each other by flat name, as on the Pico.
    folder = str(Path(pentago_firmware.__file__).parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import boardconfig

    return boardconfig.default(profile.size)


def muxes_per_adc(config: dict) -> int:
    return (1 << len(config["select_pins"])) // MUX_CHANNELS


def sensor_wires(config: dict) -> list[SensorWire]:
    """Every hole's sensor, in hole order."""
    per_adc = muxes_per_adc(config)
    wires = []
    for adc, holes in enumerate(config["channels"]):
        for address, hole in enumerate(holes):
            if hole is not None:
                mux = adc * per_adc + address // MUX_CHANNELS + 1
                wires.append(SensorWire(hole, mux, address % MUX_CHANNELS, config["adc_pins"][adc]))
    return sorted(wires, key=lambda w: w.hole)


def mux_count(config: dict) -> int:
    return len({w.mux for w in sensor_wires(config)})


def pico_pins(profile: Profile, config: dict) -> list[PinUse]:
    """Every Pico pin the build uses, in pin order."""
    uses = _mux_pins(config) + _pico_encoder_pins(config) + _pico_power()
    return sorted(uses, key=lambda use: use.physical)


def _gp(gp: int, signal: str, goes_to: str) -> PinUse:
    return PinUse(PICO_PHYSICAL[gp], f"GP{gp}", signal, goes_to)


def _mux_pins(config: dict) -> list[PinUse]:
    per_adc = muxes_per_adc(config)
    muxes = mux_count(config)
    every = ", ".join(f"U{n}" for n in range(1, muxes + 1))
    uses = [_gp(gp, f"mux select S{i}", f"S{i} of {every}")
            for i, gp in enumerate(config["select_pins"][:4])]
    if per_adc == 2:
        firsts = ", ".join(f"U{n}" for n in range(1, muxes + 1, 2))
        seconds = ", ".join(f"U{n}" for n in range(2, muxes + 1, 2))
        uses.append(_gp(config["select_pins"][4], "mux bank select",
                        f"EN of {firsts}; through the inverter to EN of {seconds}"))
    for adc, gp in enumerate(config["adc_pins"]):
        chips = ", ".join(f"U{adc * per_adc + k + 1}" for k in range(per_adc))
        uses.append(_gp(gp, f"ADC{adc}", f"SIG of {chips}"))
    return uses


def _pico_encoder_pins(config: dict) -> list[PinUse]:
    return [_gp(gp, f"encoder {block} {channel}",
                f"block {block} encoder pin {channel} (via RC filter)")
            for block, pair in enumerate(config["encoders"], start=1)
            for channel, gp in zip("AB", pair)]


def _pico_power() -> list[PinUse]:
    return [
        PinUse(33, "AGND", "analog ground", "GND of the muxes and the Hall sensor rail"),
        PinUse(36, "3V3(OUT)", "3.3 V", "encoder pull-ups (10 k) and encoder filters; mux VCC"),
        PinUse(38, "GND", "ground", "encoder common pins"),
    ]
