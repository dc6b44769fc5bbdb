"""Entry point on the Pico: load board.json, build the app on the real hardware, run forever.

Production mode (a file named ``production`` on flash, written by ``pentago-board firmware
flash --production``) arms the hardware watchdog: a hang resets the board, and the next hello
says so (reset cause "watchdog"). Without the file the watchdog stays off, because on the
RP2040 it cannot be stopped once started and would reset a board someone is debugging at the
REPL. When mpremote knocks (see link.py), the loop ends and the REPL gets the port back.
"""

import boardconfig
from app import App

# Near the RP2040's maximum (8388 ms): a hang still resets the board within seconds, and
# `firmware flash` has time to remove the production marker after its knock stops the loop.
WATCHDOG_MS = 8000


def production():
    try:
        open("production").close()
        return True
    except OSError:
        return False


def main(usb=None):
    """Run the board until mpremote knocks; ``usb`` replaces the USB port (tests only)."""
    import hal   # imports machine: only ever on the device
    import machine
    config = boardconfig.load("board.json")
    io = hal.MachineIO(config, usb)
    app = App(config, io)
    app.start()
    wdt = machine.WDT(timeout=WATCHDOG_MS) if production() else None
    try:
        app.run(wdt)
    finally:
        io.release_repl()


if __name__ == "__main__":
    main()
