"""What a build asks of the Raspberry Pi's boot configuration, read from its profile's pins, and
whether the Pi's ``config.txt`` and ``cmdline.txt`` give it (`pentago-board doctor` checks it).

The Pi's firmware, not Linux, decides which pins SPI and the UART take, from
``/boot/firmware/config.txt`` (``/boot/config.txt`` before Raspberry Pi OS 12); the kernel's
command line in ``cmdline.txt`` may start a login console on the UART. So a build that wires
the NeoPixels to SPI0 needs SPI on; one that uses GPIO7 or GPIO8 for something else needs SPI0
to give up its chip selects; one that uses GPIO14/15 needs the UART and its console off:

>>> from controller.profile import load_profile
>>> [need.line for need in needs(load_profile("A-6x6"))]
['dtparam=spi=on', 'dtoverlay=spi0-1cs', 'enable_uart=0']
>>> [need.line for need in needs(load_profile("B-6x6"))]
['dtparam=spi=on']
>>> lacking("dtparam=spi=on\\n[none]\\nenable_uart=0\\n", needs(load_profile("A-6x6")))
['dtoverlay=spi0-1cs', 'enable_uart=0']
>>> serial_console("console=serial0,115200 console=tty1 root=PARTUUID=1-02 rootwait")
'console=serial0,115200'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..profile import Profile

SPI_MOSI = 10  # SPI0's data out: where the NeoPixels' data line goes
CHIP_SELECTS = {8: "CE0", 7: "CE1"}  # SPI0's chip-select pins, taken while SPI is on
UART_PINS = (14, 15)  # TXD and RXD of the primary UART
CONSOLES = ("serial0", "serial1", "ttyAMA0", "ttyAMA10", "ttyS0")  # a console on one of these uses the UART
TRUE = ("", "on", "true", "yes", "1")  # how config.txt spells a parameter switched on


@dataclass(frozen=True)
class Need:
    """One line the boot configuration must have, and why this build needs it."""

    line: str
    why: str


def pin_uses(profile: Profile) -> dict[int, str]:
    """What each of the profile's Pi pins is, in words (``{7: "encoder 2's B pin", ...}``)."""
    uses = {pin: f"the {name} button" for name, pin in profile.buttons.items()}
    if profile.gpio is not None:
        uses |= {pin: f"matrix row {n}" for n, pin in enumerate(profile.gpio.matrix_rows, 1)}
        uses |= {pin: f"matrix column {n}" for n, pin in enumerate(profile.gpio.matrix_columns, 1)}
        for block, pair in enumerate(profile.gpio.encoders, 1):
            uses |= {pin: f"encoder {block}'s {side} pin" for side, pin in zip("AB", pair)}
    return uses


def needs(profile: Profile) -> list[Need]:
    """The boot configuration lines the build of ``profile`` needs (none for the virtual board)."""
    if profile.driver == "virtual":
        return []
    uses, out = pin_uses(profile), []
    if profile.leds.driver == "spi":
        out.append(Need("dtparam=spi=on", f"the NeoPixels are clocked out on SPI0 MOSI (GPIO{SPI_MOSI})"))
        taken = [pin for pin in CHIP_SELECTS if pin in uses]
        if taken:
            overlay = "spi0-1cs" if taken == [7] else "spi0-0cs"  # keep CE0 on GPIO8, or claim no chip select
            said = " and ".join(f"GPIO{pin} (SPI0's {CHIP_SELECTS[pin]}) is {uses[pin]}" for pin in taken)
            out.append(Need(f"dtoverlay={overlay}", said))
    uart = [pin for pin in UART_PINS if pin in uses]
    if uart:
        out.append(Need("enable_uart=0", " and ".join(f"GPIO{pin} (the UART's) is {uses[pin]}" for pin in uart)))
    return out


def settings(text: str) -> list[tuple[str, str]]:
    """The ``(key, value)`` settings of a config.txt in force on every Pi: comments and the
    lines under ``[none]`` left out (another section's filter, such as ``[pi4]``, is taken as
    met: this is the Pi it was written for)."""
    out, live = [], True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            live = line.lower() != "[none]"
        elif live and line:
            key, _, value = line.partition("=")
            out.append((key.strip(), value.strip()))
    return out


def has(given: list[tuple[str, str]], line: str) -> bool:
    """Whether settings ``given`` say what ``line`` says: an overlay loaded (with the same
    parameters), a ``dtparam`` among several switched on, the last value of a setting."""
    key, _, value = line.partition("=")
    if key == "dtoverlay":
        return any(k == key and v.replace(" ", "") == value for k, v in given)
    if key == "dtparam":
        name = value.partition("=")[0]
        return any(_param_on(v, name) for k, v in given if k == key)
    values = [v for k, v in given if k == key]
    return bool(values) and values[-1] == value


def _param_on(params: str, name: str) -> bool:
    """Whether ``dtparam`` parameters ``params`` (``i2c_arm=on,spi=on``) switch ``name`` on."""
    for param in params.split(","):
        key, _, value = param.strip().partition("=")
        if key == name:
            return value.lower() in TRUE
    return False


def lacking(text: str, wanted: list[Need]) -> list[str]:
    """The lines of ``wanted`` that config.txt ``text`` does not give."""
    given = settings(text)
    return [need.line for need in wanted if not has(given, need.line)]


def serial_console(cmdline: str) -> str | None:
    """The ``console=`` argument of a kernel command line that puts a console on the UART, or None."""
    for argument in cmdline.split():
        device = argument.removeprefix("console=").split(",")[0] if argument.startswith("console=") else None
        if device in CONSOLES:
            return argument
    return None
