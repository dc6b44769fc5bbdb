"""Bill of materials and power budget of a build, with quantities counted from its profile.

Part numbers are the ones the hardware docs recommend; equivalents work (the notes say what
matters). Currents are datasheet figures, named where they are used.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.drivers.pixels import DEFAULT_GAMMA, white_at_cap_ma
from controller.profile import Profile

# Raspberry Pi 4 Model B: its 3 A supply rating less the 1.2 A it reserves for USB peripherals
# (the Pico's few mA are counted on their own line).
PI_MA = 1800
PICO_MA = 25  # Raspberry Pi Pico running the scan loop (RP2040 datasheet: ~20-25 mA)
HALL_MA = 10  # DRV5055 supply current, datasheet maximum (6 mA typical)
PIXEL_IDLE_MA = 1.0  # WS2812B quiescent current per pixel, all channels off
HEADROOM = 1.25  # run a supply at no more than 80 % of its rating

# 5 V supplies by rating, smallest first (Mean Well enclosed, screw terminals, 100-240 V AC in).
SUPPLIES = (
    ("Mean Well RS-15-5 (5 V 3 A)", 3000),
    ("Mean Well RS-25-5 (5 V 5 A)", 5000),
    ("Mean Well LRS-35-5 (5 V 7 A)", 7000),
    ("Mean Well LRS-50-5 (5 V 10 A)", 10000),
    ("Mean Well LRS-75-5 (5 V 14 A)", 14000),
)


@dataclass(frozen=True)
class Part:
    """One BOM line."""

    quantity: int
    part: str
    use: str


@dataclass(frozen=True)
class Load:
    """One line of the power budget: what draws, how it is counted, and the current in mA."""

    what: str
    formula: str
    ma: float


def bill_of_materials(profile: Profile, muxes: int, inverters: int) -> list[Part]:
    """The parts of the build; ``muxes``/``inverters`` come from the Pico wiring (0 on build A)."""
    g = profile.geometry
    parts = [Part(1, "Raspberry Pi 4 Model B (2 GB or more) + 16 GB microSD card", "runs the daemon")]
    parts += _sensor_parts(profile, muxes, inverters)
    parts += [
        Part(g.block_count, "Bourns PEC11R-4220F-S0024 rotary encoder (24 detents, 24 PPR)",
             "one per block, turned 1:1 by the block (6 detents per quarter turn)"),
        Part(4 * g.block_count, "10 kohm resistor, 1/4 W",
             "encoder filter (Bourns' datasheet circuit): pull-up and series resistor per channel"),
        Part(2 * g.block_count, "10 nF ceramic capacitor", "encoder filter, one per channel"),
        Part(len(profile.buttons), "Omron B3F-4055 12 mm tactile switch + cap",
             f"buttons: {', '.join(profile.buttons)}"),
    ]
    return parts + _led_parts(profile) + _power_parts(profile, muxes > 0)


def _sensor_parts(profile: Profile, muxes: int, inverters: int) -> list[Part]:
    holes = profile.geometry.hole_count
    magnet = Part(holes, "N52 neodymium disc magnet, 4 x 2 mm",
                  "one glued into each marble" + ("; all of one colour north pole up"
                                                   if profile.sensing == "polarity" else ""))
    if profile.gpio is not None:
        return [
            Part(holes, "Standex-Meder MK24-B-2 reed sensor (or Littelfuse MDSR-4 glass reed)",
                 "one under each hole"),
            Part(holes, "1N4148 diode (1N4148W-7-F in SOD-123 for SMD)",
                 "one per reed switch, cathode towards the matrix row"),
            magnet,
        ]
    parts = [
        Part(1, "Raspberry Pi Pico (RP2040) + micro-USB cable to the Pi", "scans sensors, counts encoders"),
        Part(holes, "TI DRV5055A1QLPG linear Hall sensor (TO-92)", "one under each hole"),
        Part(holes, "100 nF ceramic capacitor", "decoupling, one at each Hall sensor"),
        Part(muxes, "TI CD74HC4067 16-channel analog mux (SparkFun BOB-09056 breakout)",
             "Hall sensor outputs to the Pico's ADC inputs"),
        Part(1, "Pololu D24V10F3 3.3 V 1 A step-down regulator",
             "the Hall sensor rail, fed from the 5 V supply"),
        magnet,
    ]
    if inverters:
        parts.insert(4, Part(inverters, "TI SN74LVC1G04 single inverter (or one gate of a 74HC04)",
                             "bank select: enables the second mux of each pair"))
    return parts


def _led_parts(profile: Profile) -> list[Part]:
    leds = profile.leds
    holes, arrows = len(leds.hole_pixel), sum(map(len, leds.arrow_pixels.values()))
    slots = leds.pattern_slots
    cards = (f"{len(leds.card_pixels)} card pixels ({len(slots)} cards x {len(slots[0])}: the card "
             "strip)" if slots else f"{len(leds.card_pixels)} card pixels")
    return [
        Part(leds.length, "WS2812B NeoPixel (e.g. 30 LED/m strip cut to segments, or 5 mm WS2812D-F5)",
             f"{holes} hole, {arrows} arrow, {len(leds.status_pixels)} status, {cards}"),
        Part(1, "74AHCT125N quad level shifter (DIP-14)", "lifts the 3.3 V data line to 5 V"),
        Part(1, "330 ohm resistor", "in the data line, at the first pixel"),
        Part(1, "1000 uF 10 V electrolytic capacitor", "across the LED chain's supply at its input"),
        Part(1, "100 nF ceramic capacitor", "decoupling at the 74AHCT125"),
    ]


def _power_parts(profile: Profile, has_mcu: bool) -> list[Part]:
    supply, _ = supply_for(profile, has_mcu)
    return [
        Part(1, supply, "one 5 V supply for LEDs, sensors and the Pi (see the power budget)"),
        Part(1, "USB-C power lead with bare 5 V / GND ends (pigtail), 20 AWG",
             "feeds the Pi from the 5 V supply through its own USB-C input and protection"),
        Part(1, "18 AWG wire, red/black", "5 V and GND to both ends of the LED chain"),
    ]


def power_budget(profile: Profile, has_mcu: bool) -> list[Load]:
    """Every load on the 5 V supply with the LED chain at its brightness cap."""
    leds = profile.leds
    channels = len(leds.order)
    budget = min(leds.current_budget_ma, leds.full_current_ma())
    loads = [
        Load("LED chain, at most its current budget",
             f"`current_budget_ma`, the most the daemon lets a frame draw (every pixel white at the "
             f"brightness cap {leds.brightness_cap:g} draws {white_at_cap_ma(leds):.0f}: {leds.length} pixels x "
             f"{channels} channels x {leds.ma_per_channel:g} mA x {leds.brightness_cap:g} through gamma "
             f"{DEFAULT_GAMMA:g})", budget),
        Load("LED quiescent", f"{leds.length} pixels x {PIXEL_IDLE_MA:g} mA",
             leds.length * PIXEL_IDLE_MA),
        Load("Raspberry Pi 4", "3 A rating less 1.2 A for USB peripherals", PI_MA),
    ]
    if has_mcu:
        holes = profile.geometry.hole_count
        loads += [Load("Raspberry Pi Pico", "via the Pi's USB", PICO_MA),
                  Load("Hall sensors", f"{holes} x {HALL_MA} mA (datasheet maximum)", holes * HALL_MA)]
    return loads


def supply_for(profile: Profile, has_mcu: bool) -> tuple[str, float]:
    """The smallest listed supply with HEADROOM over the total, and the current it must give."""
    need = sum(load.ma for load in power_budget(profile, has_mcu)) * HEADROOM
    for name, rating in SUPPLIES:
        if rating >= need:
            return name, need
    raise ValueError(f"{profile.name}: {need:.0f} mA is more than any listed 5 V supply")
