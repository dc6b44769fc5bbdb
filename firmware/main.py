"""Entry point on the Pico: load board.json, build the app on the real hardware, run forever.

Production mode (a file named ``production`` on flash, written by ``pentago-board firmware
flash --production``) arms the hardware watchdog: a hang resets the board, and the next hello
says so (reset cause "watchdog"). Without the file the watchdog stays off, because on the
RP2040 it cannot be stopped once started and would reset a board someone is debugging at the
REPL. When mpremote knocks (see link.py), the loop ends and the REPL gets the port back.

Before anything else, keyboard interrupts go off: MicroPython turns a 0x03 from the host into
KeyboardInterrupt while main.py runs, Pi frames can hold 0x03 bytes (a connect with host seq 3
does), and the Pi may send while the Pico boots; an interrupt then would stop the firmware for
good (tests/firmware/pico/test_pico_boot_bytes.py sends every frame the Pi can send at boot).
Bytes that arrive before this line are handed to stdin by the USB task only once the program
runs, so they are data by then.
"""

import micropython

micropython.kbd_intr(-1)

import boardconfig  # noqa: E402
from app import App  # noqa: E402

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
