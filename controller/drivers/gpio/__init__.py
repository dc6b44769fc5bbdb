"""GPIO backend (build A): sensors wired straight to the Pi, read from the kernel's GPIO chip
(:mod:`.cdev`), or through gpiozero's pins where a pin factory is given (the tests' MockFactory).

Importing this package imports gpiozero; nothing else in the controller imports it, so only the
factory's "gpio" choice needs the library.
"""

from .inputs import GpioInputs

__all__ = ["GpioInputs"]
