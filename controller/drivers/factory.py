"""Build the input driver and the pixel output a hardware profile names.

The backend is chosen by ``profile.driver`` ("gpio", "mcu", "virtual") and ``profile.leds.driver``
("spi", "pwm", "virtual"). Each real backend imports its library in its own module, imported
here only when chosen. A backend that cannot load raises DriverUnavailable saying what to
install; another backend is used only when the caller names it as ``fallback``, and then with a
DriverFallback warning that says why. The virtual board is never chosen silently.

>>> from controller.profile import load_profile
>>> board = build_inputs(load_profile("virtual-6x6"))
>>> type(board).__name__, board.detents_per_quarter
('VirtualBoard', 6)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import DriverUnavailable
from .base import InputDriver, PixelOutput

if TYPE_CHECKING:
    from ..profile import LedChain, Profile

PI_EXTRA = "pip install 'pentago-board[pi]'"


class DriverFallback(RuntimeWarning):
    """A backend could not load and the caller's fallback backend is used instead."""


def build_inputs(profile: Profile, *, fallback: str | None = None, **overrides: Any) -> InputDriver:
    """The input driver for ``profile``; ``overrides`` go to its constructor.

    ``fallback`` names the input driver to use if the profile's one cannot load (only a
    ``clock`` override is passed on to it). Raises DriverUnavailable when none loads.
    """
    try:
        return _input_builder(profile.driver)(profile, **overrides)
    except DriverUnavailable as error:
        if fallback is None:
            raise
        _warn_fallback(f"input driver {profile.driver!r}", error, fallback)
        kept = {k: v for k, v in overrides.items() if k == "clock"}
        return _input_builder(fallback)(profile, **kept)


def build_pixels(profile: Profile, *, fallback: str | None = None) -> PixelOutput:
    """The pixel output for ``profile.leds``; ``fallback`` as for :func:`build_inputs`."""
    try:
        return _pixel_builder(profile.leds.driver)(profile.leds)
    except DriverUnavailable as error:
        if fallback is None:
            raise
        _warn_fallback(f"LED driver {profile.leds.driver!r}", error, fallback)
        return _pixel_builder(fallback)(profile.leds)


def _warn_fallback(what: str, error: DriverUnavailable, fallback: str) -> None:
    warnings.warn(f"{what} unavailable ({error}); using {fallback!r} as asked", DriverFallback,
                  stacklevel=3)


# -- input backends ---------------------------------------------------------------------------

def _gpio_inputs(profile: Profile, **overrides: Any) -> InputDriver:
    def build() -> InputDriver:
        from .gpio import GpioInputs

        return GpioInputs.from_profile(profile, **overrides)
    return _reaching_the_pins("the gpio driver", build)


def _reaching_the_pins(what: str, build: Callable[[], InputDriver]) -> InputDriver:
    """``build()`` with gpiozero's reasons for not reaching the pins in the error.

    gpiozero tries its pin libraries in turn and warns why each failed; those reasons are
    what the user needs, so they go into our error instead of scrolling past.
    """
    with warnings.catch_warnings(record=True) as tried:
        warnings.simplefilter("always")
        try:
            driver = build()
        except ImportError as error:  # gpiozero missing, or BadPinFactory: no pin library
            from .gpio.cdev import PI_BANKS

            reasons = "; ".join([str(w.message) for w in tried] + [str(error)])
            raise DriverUnavailable(
                f"{what} cannot reach the Pi's pins: no Raspberry Pi GPIO chip here (a /dev/gpiochip "
                f"labelled {', '.join(PI_BANKS)}) and no pin library of gpiozero's ({reasons}); "
                "the gpio driver runs on a Raspberry Pi"
            ) from error
        except OSError as error:  # the Pi's chip refused: not ours to open, or a line taken
            raise DriverUnavailable(
                f"{what} cannot request the Pi's GPIO lines ({error}); the service's user needs the "
                "gpio group, and no other program may hold the profile's pins (doctor checks both)"
            ) from error
    for warning in tried:  # it loaded: pass on any other warning (e.g. a pin library fallback)
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return driver


def _mcu_inputs(profile: Profile, *, pin_factory: Any = None, **overrides: Any) -> InputDriver:
    """The serial link to the Pico; with the profile's ``[buttons]`` on the Pi's own pins
    beside it (build B wires them to the Pi, so the firmware and the protocol know no buttons).
    ``pin_factory`` goes to the buttons, a ``clock`` to both, other overrides to the link."""
    if profile.mcu is None:
        raise DriverUnavailable(f"profile {profile.name!r} uses the mcu driver but has no [mcu]")
    try:
        from .serial_link import SerialLink
    except ImportError as error:
        raise DriverUnavailable(
            f"the mcu driver needs the serial link ({error}); run pip install pyserial"
        ) from error
    link = SerialLink(profile.mcu.port, profile.size, profile.colours, baud=profile.mcu.baud,
                      detents_per_quarter=profile.detents_per_quarter, **overrides)
    if not profile.buttons:
        return link
    clock = {k: v for k, v in overrides.items() if k == "clock"}

    def buttons() -> InputDriver:
        from .gpio.buttons import GpioButtons

        return GpioButtons(profile.buttons, pin_factory=pin_factory, **clock)
    from .group import InputGroup

    return InputGroup(link, _reaching_the_pins(f"the {profile.name} buttons ([buttons])", buttons))


def _virtual_inputs(profile: Profile, **overrides: Any) -> InputDriver:
    from .virtual import VirtualBoard

    return VirtualBoard.from_profile(profile, **overrides)


INPUT_BUILDERS: dict[str, Callable[..., InputDriver]] = {
    "gpio": _gpio_inputs, "mcu": _mcu_inputs, "virtual": _virtual_inputs,
}


def _input_builder(name: str) -> Callable[..., InputDriver]:
    if name not in INPUT_BUILDERS:
        raise DriverUnavailable(
            f"input driver {name!r} does not exist (one of {', '.join(INPUT_BUILDERS)})"
        )
    return INPUT_BUILDERS[name]


# -- pixel backends ---------------------------------------------------------------------------

def _neopixel_output(leds: LedChain) -> PixelOutput:
    from .neopixel import NeoPixelOutput

    try:
        return NeoPixelOutput.from_chain(leds)
    # Blinka raises NotImplementedError/RuntimeError off a Pi, AttributeError for a missing
    # board pin; all mean the same to the user: these LEDs cannot be driven here.
    except (ImportError, NotImplementedError, RuntimeError, AttributeError, OSError) as error:
        library = "adafruit-circuitpython-neopixel" + ("-spi" if leds.driver == "spi" else "")
        raise DriverUnavailable(
            f"LED driver {leds.driver!r} cannot open the NeoPixels ({type(error).__name__}: "
            f"{error}); on a Raspberry Pi run {PI_EXTRA} (installs {library})"
        ) from error


def _virtual_pixels(leds: LedChain) -> PixelOutput:
    from .virtual import VirtualPixels

    return VirtualPixels(leds.length)


PIXEL_BUILDERS: dict[str, Callable[[LedChain], PixelOutput]] = {
    "spi": _neopixel_output, "pwm": _neopixel_output, "virtual": _virtual_pixels,
}


def _pixel_builder(name: str) -> Callable[[LedChain], PixelOutput]:
    if name not in PIXEL_BUILDERS:
        raise DriverUnavailable(
            f"LED driver {name!r} does not exist (one of {', '.join(PIXEL_BUILDERS)})"
        )
    return PIXEL_BUILDERS[name]
