"""`pentago-board run` exactly as the command runs it (controller.cli.main, then service.build
and serve), with the Pi's own buttons on gpiozero's MockFactory, whose pins this script presses
for the test: each line on stdin is a BCM pin number, pressed for PRESS_S (the button pulls its
pin to ground) and let go.

Build B reads its OK and Back buttons on the Pi's GPIO beside the serial link to the Pico
(drivers/factory.py); in a daemon subprocess they are mock pins no test can reach, and the
daemon must stay a subprocess, its clock slowed to the emulator's pace by libfaketime
(pico_daemon.py). gpiozero's mock factory is the library's own way to drive its pins from a
test: the presses go through the real GpioButtons, the input group and the core.

Run: python tests/firmware/pico/pressed_daemon.py run --config CONFIG
"""

import sys
import threading
import time

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.cli import main

PRESS_S = 0.2   # how long a finger holds a button down (the daemon's seconds)


def press_what_stdin_names(factory: MockFactory) -> None:
    for line in sys.stdin:
        pin = factory.pin(int(line))
        pin.drive_low()
        time.sleep(PRESS_S)
        pin.drive_high()


if __name__ == "__main__":
    Device.pin_factory = MockFactory()
    threading.Thread(target=press_what_stdin_names, args=(Device.pin_factory,), daemon=True).start()
    sys.exit(main(sys.argv[1:]))
