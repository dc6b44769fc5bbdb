"""`pentago-board doctor`: is this machine ready for the daemon? One line per check, with a fix.

Checks the profile, SPI (when the LEDs use it), the Pi's boot configuration (the config.txt
lines the build's pins need, and no serial console on pins it uses), the device nodes the
drivers open, the groups that grant them, the board MCU (port, handshake, firmware version), the
journal directory (writable, with room for the next records) and any journal the daemon set aside
because it could not resume it in full, the tape's path, and what a running daemon says of its
referee (asked of its web console: paused because it cannot save, or stopped).
Everything the checks touch comes through :class:`Machine`, so tests point them at a temporary
directory and fake answers.
"""

from __future__ import annotations

import contextlib
import grp
import json
import os
import tempfile
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..commands.firmware import NEEDS_MICROPYTHON
from ..errors import LinkError, PentagoError
from ..journal import Journal
from ..profile import Profile, load_profile
from . import boot_config
from .config import Config

SPI_NODE = "spidev0.0"
MCU_TIMEOUT_S = 3.0
DAEMON_TIMEOUT_S = 2.0  # how long the running daemon's console may take to answer
MAX_STATE_BYTES = 4 << 20
MIN_FREE_BYTES = 1 << 20  # below this the next records may not fit: the board would pause
STATE_DIRECTORY = Path("/var/lib/pentago-board")  # the unit's StateDirectory=
RELOGIN = "then log out and in again (or reboot)"


@dataclass(frozen=True)
class Check:
    """One verdict: ``ok`` or a failure with a hint that says what to do."""

    name: str
    ok: bool
    detail: str
    hint: str = ""
    required: bool = True

    def lines(self) -> list[str]:
        mark = "OK  " if self.ok else ("FAIL" if self.required else "WARN")
        out = [f"{mark}  {self.name}: {self.detail}"]
        if not self.hint or self.ok:
            return out
        first, *more = self.hint.splitlines()  # a hint of several lines: lines to type or to add
        return out + [f"      fix: {first}"] + [f"           {line}" for line in more]


def _user_groups() -> set[str]:
    return {grp.getgrgid(gid).gr_name for gid in os.getgroups()}


def _mcu_hello(profile: Profile) -> dict[str, Any]:
    """Open the serial link and return the MCU's hello (raises LinkError or TimeoutError)."""
    from ..drivers.serial_link import SerialLink

    assert profile.mcu is not None
    link = SerialLink(profile.mcu.port, profile.size, profile.colours, baud=profile.mcu.baud,
                      detents_per_quarter=profile.detents_per_quarter)
    link.start(lambda event: None)
    try:
        if not link.wait_up(MCU_TIMEOUT_S):
            raise TimeoutError(f"no handshake within {MCU_TIMEOUT_S:.0f} s")
        return link.hello
    finally:
        link.stop()


def _daemon_health(config: Config) -> dict[str, Any] | None:
    """The running daemon's health from its web console's state (None without an answer)."""
    if not config.web.enabled:
        return None
    from .service import TOKEN_ENV, TOKEN_FILE

    host = "127.0.0.1" if config.web.bind in ("0.0.0.0", "::") else config.web.bind
    token = config.web.token or os.environ.get(TOKEN_ENV, "")
    with contextlib.suppress(OSError, UnicodeDecodeError):
        token = token or (config.journal.parent / TOKEN_FILE).read_text(encoding="ascii").strip()
    request = urllib.request.Request(f"http://{'[' + host + ']' if ':' in host else host}:{config.web.port}/api/state",
                                     headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=DAEMON_TIMEOUT_S) as answer:
            return json.loads(answer.read(MAX_STATE_BYTES)).get("health")
    except (OSError, ValueError, AttributeError):
        return None


@dataclass
class Machine:
    """Where the checks look: the device directory, the user's groups, the MCU's hello and
    the running daemon's health."""

    dev: Path = Path("/dev")
    boot: Path = Path("/boot")  # the Pi's boot partition: firmware/config.txt (config.txt before Bookworm)
    groups: Callable[[], set[str]] = _user_groups
    is_root: Callable[[], bool] = lambda: os.geteuid() == 0
    mcu_hello: Callable[[Profile], dict[str, Any]] = _mcu_hello
    daemon_health: Callable[[Config], dict[str, Any] | None] = _daemon_health


def run_checks(config: Config, machine: Machine = Machine()) -> list[Check]:
    """Every check that applies to ``config``'s profile, in order."""
    try:
        profile = load_profile(config.profile)
    except PentagoError as exc:
        return [Check("profile", False, str(exc), "set profile = in the config to A-6x6, B-6x6, "
                      "B-9x9 or the path of your own profile"), _journal(config), *_tape(config),
                *_set_aside(config)]
    checks = [Check("profile", True, f"{profile.name}: {profile.size}x{profile.size}, "
                    f"{profile.sensing} sensing, {profile.driver} driver, {profile.leds.length} LEDs")]
    if profile.driver != "virtual":
        checks += _devices(profile, machine)
        checks += _boot(profile, machine)
        checks.append(_groups(profile, machine))
    if profile.driver == "mcu":
        checks += _mcu(profile, machine)
    checks += [_journal(config), *_tape(config), *_running(config, machine), _computer(config)]
    return checks + _set_aside(config)


def _computer(config: Config) -> Check:
    """What the classic computer searches with (the config already refused "compiled" without
    numba); a note, never a failure."""
    from ..ai import engine_in_use

    if engine_in_use(config.game.engine) == "compiled":
        return Check("computer", True, "searches compiled (numba): about 20 times as deep a look in the same time")
    if config.game.engine == "python":
        return Check("computer", True, 'searches in Python (engine = "python" in the config)')
    return Check("computer", True, "searches in Python; on 64-bit Raspberry Pi OS `sudo systemd/install.sh "
                 "--fast` compiles it (stronger in the same thinking time)")


def _devices(profile: Profile, machine: Machine) -> list[Check]:
    chips = sorted(machine.dev.glob("gpiochip*"))
    checks = [_node("GPIO", chips, "the buttons and sensors", "enable GPIO: use Raspberry Pi OS "
                    "(the gpiochip nodes come with its kernel)")]
    if checks[0].ok:
        checks[0] = _header(profile, machine.dev)
    if profile.leds.driver == "spi":
        checks.append(_node("SPI", [machine.dev / SPI_NODE] if (machine.dev / SPI_NODE).exists() else [],
                            "the NeoPixels", "sudo raspi-config nonint do_spi 0 && sudo reboot"))
    elif profile.leds.driver == "pwm" and not machine.is_root():
        # PWM NeoPixels go through /dev/mem, which only root may map; the service runs as pentago.
        checks.append(Check("LEDs", False, "PWM-driven NeoPixels need root (/dev/mem)",
                            'wire the LED data line to GPIO 10 (SPI MOSI) and set leds.driver = "spi"'))
    return checks


def _header(profile: Profile, dev: Path) -> Check:
    """Which chip carries the Pi's 40-pin header, found as the drivers find it: the drivers
    request the profile's lines from that chip, and without one the daemon cannot reach them."""
    from ..drivers.gpio.cdev import PI_BANKS, chip_labels, pi_bank

    try:
        labels, bank = dict(chip_labels(dev)), pi_bank(dev)
    except OSError as exc:
        return Check("GPIO", False, f"cannot read the GPIO chips' labels: {exc}",
                     "add the user to the gpio group (see the groups check), " + RELOGIN)
    named = {number: f"{dev / f'gpiochip{number}'} ({label})" for number, label in labels.items()}
    if bank is None:
        pins = "the matrix, encoders and buttons" if profile.driver == "gpio" else "the buttons"
        return Check("GPIO", False, f"none of the GPIO chips is a Raspberry Pi's header bank "
                     f"({', '.join(named.values()) or 'no chip answered'}; the header's is labelled "
                     f"one of {', '.join(PI_BANKS)}): {pins} of {profile.name} are wired to the header's "
                     "pins, so the daemon will not start here",
                     "run the board on a Raspberry Pi under Raspberry Pi OS (its kernel labels the header's chip)")
    others = [text for number, text in named.items() if number != bank]
    return Check("GPIO", True, f"{named[bank]}: the Pi's header" + (f"; also {', '.join(others)}" if others else ""))


def _boot(profile: Profile, machine: Machine) -> list[Check]:
    """The config.txt lines the build's pins need, and no login console on its UART pins."""
    wanted = boot_config.needs(profile)
    if not wanted:
        return []
    folder = next((p for p in (machine.boot / "firmware", machine.boot) if (p / "config.txt").exists()),
                  machine.boot / "firmware")
    config, cmdline = folder / "config.txt", folder / "cmdline.txt"
    try:
        missing = boot_config.lacking(config.read_text(encoding="utf-8", errors="replace"), wanted)
    except OSError as exc:
        missing, problem = [need.line for need in wanted], f"cannot read {config}: {exc.strerror}"
    else:
        problem = f"{config} lacks " + "; ".join(f"{n.line} ({n.why})" for n in wanted if n.line in missing)
    checks = [Check("boot config", not missing, problem if missing else f"{config} has {', '.join(n.line for n in wanted)}",
                    f"add these lines to {config} (sudo nano {config}), then sudo reboot:\n" + "\n".join(missing))]
    if any(n.line == "enable_uart=0" for n in wanted):
        checks.append(_serial_console(cmdline))
    return checks


def _serial_console(cmdline: Path) -> Check:
    try:
        console = boot_config.serial_console(cmdline.read_text(encoding="utf-8", errors="replace"))
    except OSError as exc:
        return Check("serial console", False, f"cannot read {cmdline}: {exc.strerror}",
                     "is this a Raspberry Pi? The build uses the UART's pins GPIO14/15")
    if console is not None:
        return Check("serial console", False, f"{cmdline} starts a login console on the UART ({console}), "
                     "whose pins GPIO14/15 this build uses",
                     "sudo raspi-config: Interface Options, Serial Port: no login shell, no serial hardware\n"
                     f"(or delete {console} from {cmdline}), then sudo reboot")
    return Check("serial console", True, f"none on the UART ({cmdline})")


def _node(name: str, nodes: list[Path], used_for: str, hint: str) -> Check:
    if not nodes:
        return Check(name, False, f"no device node for {used_for}", hint)
    blocked = [str(n) for n in nodes if not os.access(n, os.R_OK | os.W_OK)]
    if blocked:
        return Check(name, False, f"{', '.join(blocked)} not readable and writable by this user",
                     "add the user to the group owning it (see the groups check), " + RELOGIN)
    return Check(name, True, ", ".join(str(n) for n in nodes))


def _groups(profile: Profile, machine: Machine) -> Check:
    wanted = ["gpio"] + (["spi"] if profile.leds.driver == "spi" else []) + \
        (["dialout"] if profile.driver == "mcu" else [])
    if machine.is_root():
        return Check("groups", True, "running as root (the service runs as user pentago)")
    missing = [g for g in wanted if g not in machine.groups()]
    if missing:
        return Check("groups", False, f"not in {', '.join(missing)}",
                     f"sudo usermod -aG {','.join(missing)} $USER, {RELOGIN}")
    return Check("groups", True, "in " + ", ".join(wanted))


def _mcu(profile: Profile, machine: Machine) -> list[Check]:
    assert profile.mcu is not None
    port = Path(profile.mcu.port)
    if not port.exists():
        return [Check("MCU port", False, f"{port} does not exist",
                      "plug the Pico in; is the udev rule installed (sudo systemd/install.sh)? "
                      f"{NEEDS_MICROPYTHON[0].upper()}{NEEDS_MICROPYTHON[1:]}; then: pentago-board firmware flash")]
    try:
        hello = machine.mcu_hello(profile)
    except (PentagoError, OSError, TimeoutError) as exc:
        # A refused hello says what to do itself; the daemon keeps trying, so fixing it is enough.
        hint = ("do as it says; a running daemon keeps trying and comes up by itself once it is done"
                if isinstance(exc, LinkError) else "flash the firmware: pentago-board firmware flash")
        return [Check("MCU port", True, str(port)), Check("MCU firmware", False, f"no handshake: {exc}", hint)]
    return [Check("MCU port", True, str(port)),
            Check("MCU firmware", True, f"version {hello.get('firmware', '?')}, protocol "
                  f"{hello.get('protocol', '?')}, {hello.get('size', '?')}x{hello.get('size', '?')}")]


def _journal(config: Config) -> Check:
    """Probe by writing: only creating a file proves a directory writable (root passes every
    permission check, a read-only file system passes none)."""
    directory = config.journal.parent
    if directory == STATE_DIRECTORY and not directory.exists():
        return Check("journal", True, f"{directory} is made by systemd when the service starts")
    existing = next((p for p in (directory, *directory.parents) if p.exists()), Path("/"))
    try:
        if existing == directory:
            with tempfile.NamedTemporaryFile(dir=directory, prefix=".doctor-"):
                pass
        else:
            os.rmdir(tempfile.mkdtemp(dir=existing, prefix=".doctor-"))
    except OSError as exc:
        verb = "write to" if existing == directory else "create"
        return Check("journal", False, f"cannot {verb} {directory}: {exc.strerror}",
                     "run the daemon as the service (it gets /var/lib/pentago-board), or set "
                     "storage.journal in the config to a writable path")
    return _journal_file(config.journal) or _journal_space(existing) or Check(
        "journal", True, f"{directory} is writable" if existing == directory else f"{directory} can be created")


def _journal_space(directory: Path) -> Check | None:
    """A file system too full for the next records: the board would pause ("cannot save")."""
    try:
        found = os.statvfs(directory)
    except OSError:
        return None
    free = found.f_bavail * found.f_frsize
    if free >= MIN_FREE_BYTES:
        return None
    return Check("journal", False, f"only {free // 1024} KiB free where the journal goes ({directory}): the board "
                 "stops saving moves and pauses (cannot save) when one does not fit",
                 "free space on that file system (e.g. sudo journalctl --vacuum-size=50M, remove old files)")


def _running(config: Config, machine: Machine) -> list[Check]:
    """What the running daemon says of its referee, asked of its web console (nothing when no
    console answers: the daemon is not running, or has no console)."""
    found = machine.daemon_health(config)
    if not isinstance(found, dict) or not isinstance(found.get("words"), str):
        return []
    status, words = found.get("status"), found["words"]
    if status == "paused":
        return [Check("running board", False, words, "free space where the journal goes (see the journal "
                      "check): the board goes on by itself, losing nothing it showed")]
    if status == "stopped":
        return [Check("running board", False, words, "sudo systemctl restart pentago-board; attach "
                      "journalctl -u pentago-board to a bug report")]
    return [Check("running board", True, words)]


def _journal_file(path: Path) -> Check | None:
    """The journal itself, read as a start reads it: a device, a FIFO, a directory or a file too
    big is named here, not met at the next start."""
    try:
        Journal(path).salvage()
    except OSError as exc:
        return Check("journal", False, f"cannot use {path}: {exc.strerror}",
                     "storage.journal must name a regular file (the daemon makes it) in a writable "
                     "directory: move what is there away, or set storage.journal to another path")
    return None


def _tape(config: Config) -> list[Check]:
    """The tape path holds nothing the daemon would refuse to move aside (see tape_path_problem)."""
    from ..tape import previous_tape, tape_path_problem
    from .service import TAPE_HINT, kept_from_tapes

    if config.tape is None:
        return []
    problem = tape_path_problem(config.tape, kept_from_tapes(config))
    if problem is not None:
        return [Check("tape", False, f"storage.tape = {str(config.tape)!r}: {problem}", TAPE_HINT)]
    return [Check("tape", True, f"{config.tape}: a new tape at each start, the one before kept as "
                  f"{previous_tape(config.tape)}")]


def _set_aside(config: Config) -> list[Check]:
    """Journals the daemon set aside at start-up because it could not resume them in full."""
    try:
        files = Journal(config.journal).set_aside_files()
    except OSError:
        return []  # an unreadable directory: the journal check says so
    if not files:
        return []
    names = " ".join(str(f) for f in files)
    return [Check("journal set aside", False,
                  f"{names}: the daemon could not resume {'these' if len(files) > 1 else 'this'} in full "
                  "and went on from the records before the problem (journalctl -u pentago-board says which)",
                  "if you did not edit the journal by hand, attach the file to a bug report; "
                  f"then delete it: rm {names}", required=False)]


def report(checks: list[Check]) -> tuple[str, int]:
    """The printed report and the exit status (1 if a required check failed)."""
    text = "\n".join(line for check in checks for line in check.lines())
    failed = [c for c in checks if not c.ok and c.required]
    summary = f"{len(failed)} problem(s) to fix" if failed else "all checks passed"
    return f"{text}\n{summary}", 1 if failed else 0
