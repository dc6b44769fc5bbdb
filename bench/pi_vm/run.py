"""The daemon on a Pi's software in a KVM virtual machine: real systemd, real udev, installed the
way the README tells a hobbyist. Prints its figures; exits 1 when a check fails.

What it does (as root, on a machine with /dev/kvm, debootstrap, qemu-system-x86 and e2fsprogs):

1. the VM's disk: Debian 12 from debootstrap with Debian's kernel (image.py; cached under
   ~/.cache/pentago-board/pi_vm, or $PI_VM_CACHE), and a payload disk holding this checkout as
   a git bundle and a wheelhouse of the packages constraints.txt pins (the VM has no network;
   its pip reads the wheelhouse instead of PyPI);
2. the README's steps, as the user pi: ``git clone``, ``sudo systemd/install.sh``, the profile
   and the web console set in /etc/pentago-board/config.toml (the virtual board, played through
   the console's API), then the checks:

   - ready: seconds from ``systemctl start`` to its return (Type=notify: READY=1 sent);
   - stop: seconds ``systemctl stop`` takes, and that the daemon exited by itself (not killed);
   - watchdog: the daemon SIGSTOPped (hung); seconds until systemd kills it (WatchdogSec) and
     until it is active again with a new process;
   - power cut: a classic game played move by move, qemu killed right after a move was shown
     (and once more while a move is being placed); after the boot, every move shown before the
     cut must be in the resumed game;
   - udev: a USB CDC-ACM device with the Pico's IDs (the guest kernel's dummy_hcd + g_serial)
     must appear as /dev/pentago-mcu, group dialout, mode 0660;
   - doctor: ``pentago-board doctor`` as the user pentago on the installed system;
   - security: ``systemd-analyze security`` of the installed unit (<= 1.5).

``--short`` plays fewer moves and cuts the power once (tests/system/test_pi_vm.py runs it
where KVM boots Debian's kernel). ``--container`` (what CI runs) makes the checks that need
systemd but no kernel of its own in a container of this machine's root (container.py), in
about a minute and a half: the udev rule on a synthetic device (guest_udev.sh), no build A.
Usage: sudo .venv/bin/python bench/pi_vm/run.py [--short | --container] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import image  # noqa: E402
from container import Container  # noqa: E402
from vm import GuestError, Vm, accelerator  # noqa: E402

CONFIG = "/etc/pentago-board/config.toml"
PLAY = "python3 /media/payload/guest_play.py"
BOARD = "PI_VM_SLOW=10 python3 /media/payload/guest_board.py /opt/pentago-board/profiles/A-6x6.toml"
BOARD_VENV = "PI_VM_SLOW=10 /opt/pentago-board/venv/bin/python /media/payload/guest_board.py /opt/pentago-board/profiles/A-6x6.toml"
A_PROFILE = tomllib.loads((image.ROOT / "hardware/profiles/A-6x6.toml").read_text())
A_ROWS, A_COLS = A_PROFILE["gpio"]["matrix_rows"], A_PROFILE["gpio"]["matrix_columns"]
# The limits: READY within a few seconds of `systemctl start` (a Pi 4 starts Python in
# about one; this allows a loaded machine), `systemctl stop` within 2 s. An emulated CPU: x slow.
READY_S, STOP_S = 10.0, 2.0
# A classic game that wins for nobody in its first 12 moves (checked by tests/system).
GAME = ["a1 1R", "f6 4L", "c3 2R", "d4 3L", "b5 1L", "e2 4R", "a6 2L", "f1 3R", "c6 1R", "d1 2L",
        "b2 3R", "e5 4L"]


class Bench:
    def __init__(self, vm: Vm, figures: dict) -> None:
        self.vm, self.figures, self.failures = vm, figures, []
        self.slow = 10 if vm.accel == "tcg" else 1  # an emulated CPU: timeouts x 10

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        self.figures.setdefault("checks", {})[name] = "ok" if ok else f"FAILED {detail}".strip()
        if not ok:
            self.failures.append(f"{name}: {detail}")

    def timed(self, command: str, timeout_s: float = 1200) -> float:
        """Seconds ``command`` takes in the guest, timed in the guest."""
        out = self.vm.sh(f"t0=$(date +%s.%N); {command}; t1=$(date +%s.%N); python3 -c \"print($t1 - $t0)\"",
                         timeout_s=timeout_s).out
        return round(float(out.split()[-1]), 3)

    # -- the README's steps ---------------------------------------------------------------------

    def install(self) -> None:
        """The README's steps: the user pi clones, then runs the installer with sudo (in the
        container, which has no sudo, root runs it in pi's clone)."""
        clone = f"cd ~ && git clone --quiet -b {image.BUNDLE_BRANCH} /media/payload/pentago-board.bundle pentago-board"
        t0 = time.monotonic()
        if self.vm.sh("command -v sudo", check=False).rc == 0:
            result = self.vm.sh(f"runuser -l pi -c {shlex.quote(clone + ' && cd pentago-board && sudo systemd/install.sh')}",
                                timeout_s=3600)
        else:
            result = self.vm.sh(f"runuser -l pi -c {shlex.quote(clone)} && cd ~pi/pentago-board && systemd/install.sh",
                                timeout_s=3600)
        self.figures["install_s"] = round(time.monotonic() - t0, 1)
        self.check("install.sh", "pentago-board is installed" in result.out, result.out[-500:])
        if self.slow > 1:  # the only change to the unit, for an emulated CPU: more time to start
            self.vm.sh("mkdir -p /etc/systemd/system/pentago-board.service.d && printf '[Service]\\nTimeoutStartSec=900\\n'"
                       " > /etc/systemd/system/pentago-board.service.d/emulated-cpu.conf && systemctl daemon-reload")

    def configure(self, profile: str) -> None:
        """What the hobbyist does with nano: the profile, and the web console on (localhost)."""
        self.vm.sh(f"sed -i 's/^profile = .*/profile = \"{profile}\"/' {CONFIG} && "
                   f"sed -i '/^\\[web\\]/,/^\\[/ s/^enabled = false/enabled = true/' {CONFIG} && "
                   f"grep -q '^profile = \"{profile}\"' {CONFIG}")

    # -- the checks -------------------------------------------------------------------------

    def ready(self) -> None:
        took = self.figures["ready_s"] = self.timed("systemctl start pentago-board")
        active = self.vm.sh("systemctl is-active pentago-board", check=False).out.strip()
        self.check("ready", active == "active" and took <= READY_S * self.slow, f"{active} after {took} s")

    def stop(self) -> None:
        took = self.figures["stop_s"] = self.timed("systemctl stop pentago-board")
        shown = self._show("Result", "ExecMainCode", "ExecMainStatus")
        # ExecMainCode 1 = exited (by itself); 2 = killed by a signal
        self.check("stop", shown["Result"] == "success" and shown["ExecMainCode"] == "1"
                   and took <= STOP_S * self.slow, f"{json.dumps(shown)} after {took} s")

    def watchdog(self) -> None:
        self.vm.sh("systemctl start pentago-board", timeout_s=1200)
        old = self._show("MainPID")["MainPID"]
        script = f"""
            kill -STOP {old}; t0=$(date +%s.%N); killed=""
            while python3 -c "import sys; sys.exit($(date +%s.%N) - $t0 > 600)"; do
                sleep 0.1
                read -r pid state sub < <(systemctl show -p MainPID,ActiveState,SubState --value pentago-board | tr '\\n' ' ')
                [ -z "$killed" ] && ! kill -0 {old} 2>/dev/null && killed=$(date +%s.%N)
                if [ "$pid" != "{old}" ] && [ "$pid" != 0 ] && [ "$state" = active ]; then
                    python3 -c "print($killed - $t0, $(date +%s.%N) - $t0)"; exit 0
                fi
            done
            exit 1"""
        result = self.vm.sh(script, timeout_s=900, check=False)
        if result.rc == 0:
            killed_s, active_s = (round(float(x), 1) for x in result.out.split())
            self.figures["watchdog_kill_s"], self.figures["watchdog_active_again_s"] = killed_s, active_s
        log = self.vm.sh("journalctl -u pentago-board --no-pager -o cat | grep -i 'watchdog timeout' | tail -1",
                         check=False).out.strip()
        self.check("watchdog", result.rc == 0 and bool(log), result.out + result.err + log)

    def power_cut(self, moves: int, cuts: int) -> None:
        self.vm.sh(f"{PLAY} ready && {PLAY} new")
        played: list[str] = []
        lost = 0
        for cut in range(cuts):
            for text in GAME[len(played):len(played) + moves]:
                played = json.loads(self.vm.sh(f"{PLAY} move {shlex.quote(text)}").out)
            if cut % 2 == 1:  # a move in flight: placed, not yet twisted, when the power goes
                self.vm.sh(f"{PLAY} place {GAME[len(played)].split()[0]}")
            self.vm.power_cut()
            self.figures.setdefault("boot_after_cut_s", []).append(round(self.vm.boot(600), 1))
            resumed = json.loads(self.vm.sh(f"{PLAY} ready").out)
            lost += sum(1 for a, b in zip(played, resumed + [None] * len(played)) if a != b)
            if resumed[:len(played)] != played:
                self.failures.append(f"power cut {cut + 1}: shown {played}, resumed {resumed}")
            # the board as the cut left it (the virtual board's marbles were in the daemon's
            # memory), then the game goes on: the move in flight, if any, is made again whole
            played = json.loads(self.vm.sh(f"{PLAY} restore").out)
            if cut % 2 == 1:
                played = json.loads(self.vm.sh(f"{PLAY} move {shlex.quote(GAME[len(played)])}").out)
        self.figures["power_cuts"], self.figures["moves_shown"], self.figures["moves_lost"] = cuts, len(played), lost
        self.check("power cut", lost == 0, f"{lost} shown moves lost")

    def udev(self) -> None:
        script = """
            modprobe dummy_hcd && modprobe g_serial use_acm=1 idVendor=0x2e8a idProduct=0x0005 || exit 2
            for i in $(seq 1 100); do [ -e /dev/pentago-mcu ] && break; sleep 0.1; done
            udevadm settle
            target=$(readlink -f /dev/pentago-mcu) || exit 3
            echo "$target $(stat -c '%G %a' "$target")" """
        result = self.vm.sh(script, check=False)
        self.figures["udev"] = result.out.strip() or result.err.strip()[-200:]
        self.check("udev", re.fullmatch(r"/dev/ttyACM\d+ dialout 660", result.out.strip()) is not None,
                   self.figures["udev"])

    def udev_synthetic(self) -> None:
        """The installed rule on synthetic USB serial devices (guest_udev.sh), where no kernel of
        our own can make a real one: the Pico's IDs get /dev/pentago-mcu, group dialout, mode 0660;
        another maker's serial adapter gets no such name."""
        found = {}
        for label, ids in (("pico", "2e8a 0005 0"), ("other", "0403 6001 1")):
            result = self.vm.sh(f"unshare --mount bash /media/payload/guest_udev.sh {ids}", check=False)
            found[label] = result.out.strip() or f"exit {result.rc}: {result.err.strip()[-200:]}"
        self.figures["udev"] = found
        self.check("udev", re.fullmatch(r"/dev/ttyACM0 dialout 660", found["pico"]) is not None
                   and found["other"] == "none", json.dumps(found))

    def doctor(self, label: str) -> None:
        result = self.vm.sh(f"cd / && runuser -u pentago -- pentago-board doctor --config {CONFIG}", check=False)
        self.figures[label] = [line for line in result.out.splitlines() if line.strip()]
        self.check(label, result.rc == 0, result.out[-800:] + result.err[-400:])

    def security(self) -> None:
        out = self.vm.sh("systemd-analyze security --no-pager pentago-board.service", check=False).out
        found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", out)
        self.figures["security"] = float(found.group(1)) if found else None
        self.check("security", found is not None and float(found.group(1)) <= 1.5, out[-300:])

    # -- build A on the simulated GPIO bank ------------------------------------------------------

    def wire_build_a(self) -> None:
        """The chip wired as A-6x6 says, loaded at every boot like a Pi's own bank (labelled as a
        Pi 4's, which is how the daemon finds it); the profile in the config.
        The LEDs are the one thing a VM cannot drive (no SPI): the config names a copy of A-6x6
        whose [leds] driver is "virtual", every input pin as A-6x6 has it."""
        self.vm.sh(f"""
            set -e
            mkdir -p /lib/modules/$(uname -r)/extra && cp /media/payload/pentago_gpio.ko /lib/modules/$(uname -r)/extra/
            depmod -a
            echo pentago_gpio > /etc/modules-load.d/pentago_gpio.conf
            echo 'options pentago_gpio rows={",".join(map(str, A_ROWS))} cols={",".join(map(str, A_COLS))}' > /etc/modprobe.d/pentago_gpio.conf
            # Raspberry Pi OS's own rule (raspberrypi-sys-mods): the gpio group may use the GPIO chips
            echo 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' > /etc/udev/rules.d/99-pi-gpio.rules
            udevadm control --reload-rules
            modprobe pentago_gpio
            udevadm settle
            sed -e 's/^name = "A-6x6"/name = "A-6x6-vm"/' -e '/^\\[leds\\]/,/^\\[/ s/^driver = "spi"/driver = "virtual"/' \\
                /opt/pentago-board/profiles/A-6x6.toml > /opt/pentago-board/profiles/A-6x6-vm.toml
            mkdir -p /boot/firmware
            printf 'dtparam=spi=on\\ndtoverlay=spi0-1cs\\nenable_uart=0\\n' > /boot/firmware/config.txt
            echo 'console=tty1 root=PARTUUID=0-02 rootfstype=ext4 fsck.repair=yes rootwait' > /boot/firmware/cmdline.txt
            """, timeout_s=1800)
        self.configure("A-6x6-vm")
        self.figures["gpio_chip"] = self.vm.sh("gpiodetect").out.strip()

    def matrix_reads(self, n: int) -> None:
        out = self.vm.sh(f"systemctl stop pentago-board; cd /tmp && {BOARD_VENV} reads {n}", timeout_s=3600).out
        self.figures["matrix_reads"] = reads = json.loads(out)
        wrong = sum(case.get("wrong_holes", 0) + case.get("not_read", 0) for case in reads.values())
        self.check("matrix reads", wrong == 0, f"{wrong} wrong holes")

    def scan_cpu(self, seconds: float) -> None:
        """The driver's matrix scan alone, in a root shell, with no marble and with 36."""
        self.vm.sh("systemctl stop pentago-board")
        self.figures["scan_cpu_percent"] = {
            f"{fill}_marbles": json.loads(self.vm.sh(f"cd /tmp && {BOARD_VENV} scan-cpu {seconds} {fill}", timeout_s=1200).out)
            for fill in (0, 36)}

    def cpu(self, label: str, seconds: float, fill: int = 0) -> None:
        """The service's CPU (its cgroup's usage) over ``seconds`` with ``fill`` marbles down."""
        self.vm.sh(f"{BOARD} fill {fill}", timeout_s=600)
        time.sleep(1.0)
        self.figures.setdefault("cpu_percent", {})[label] = self._cpu_over(f"sleep {seconds}")

    def _cpu_over(self, command: str) -> float:
        out = self.vm.sh(f"""
            f=/sys/fs/cgroup/system.slice/pentago-board.service/cpu.stat
            u0=$(awk '/usage_usec/ {{print $2}}' $f); t0=$(date +%s.%N)
            {command} >/tmp/during.out
            u1=$(awk '/usage_usec/ {{print $2}}' $f); t1=$(date +%s.%N)
            python3 -c "print(($u1 - $u0) / 1e6 / ($t1 - $t0) * 100)" """, timeout_s=3600).out
        return round(float(out.split()[-1]), 1)

    def game(self) -> None:
        self.vm.sh("systemctl restart pentago-board", timeout_s=1200)
        self.vm.sh(f"{PLAY} ready && {PLAY} new", timeout_s=1800)
        percent = self._cpu_over(f"{BOARD} game")
        game = json.loads(self.vm.sh("cat /tmp/during.out").out)
        game["cpu_percent_playing"] = percent
        self.figures["build_a_game"] = game
        ok = (game["missed"] == 0 and game["false"] == 0 and game["outcome"] is not None
              and game["repairs"] == 1 and game["take_backs"] == 1 and game["ok_to_menu"])
        self.check("build A game", ok, json.dumps(game))

    def clean_stop(self) -> None:
        self.figures["stop_s_build_a"] = self.timed("systemctl stop pentago-board")
        log = self.vm.sh("journalctl -u pentago-board --no-pager -o cat -n 200", check=False).out
        tracebacks = log.count("Traceback")
        self.figures["stop_log"] = [line for line in log.splitlines() if "release" in line][-5:]
        self.check("stop on the Pi's chip", tracebacks == 0, f"{tracebacks} tracebacks in the log")

    def _show(self, *names: str) -> dict[str, str]:
        out = self.vm.sh(f"systemctl show pentago-board {' '.join('-p ' + n for n in names)}").out
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def payload(work: Path, figures: dict, ref: str | None = None) -> dict[str, Path]:
    """What every run brings: the checkout as a bundle, the wheelhouse, the guest scripts."""
    bundle = image.checkout_bundle(work / "pentago-board.bundle", ref)
    figures["checkout"] = ref or "work tree"
    return {"pentago-board.bundle": bundle, "wheels": image.wheelhouse(image.cache_dir()),
            "guest_play.py": HERE / "guest_play.py", "guest_board.py": HERE / "guest_board.py",
            "guest_udev.sh": HERE / "guest_udev.sh"}


def prepare(work: Path, figures: dict, ref: str | None = None) -> tuple[Path, Path, Path, Path]:
    cache = image.cache_dir()
    t0 = time.monotonic()
    disk, kernel, initrd, took = image.base_image(cache)
    figures["image_build"] = {k: round(v, 1) for k, v in took.items()} or "cached"
    figures["kernel"] = image.kernel_version(disk)
    files = payload(work, figures, ref)
    t1 = time.monotonic()
    files["pentago_gpio.ko"] = build_module(image.kernel_version(disk), work)
    figures["module_build_s"] = round(time.monotonic() - t1, 1)
    disk_image = image.payload_image(work / "payload.img", files)
    figures["prepare_s"] = round(time.monotonic() - t0, 1)
    return disk, kernel, initrd, disk_image


def build_module(kernel: str, work: Path) -> Path:
    """gpio_board/pentago_gpio.ko for the guest's kernel, built on the host against Debian's
    headers for that kernel (apt-get installs them when missing)."""
    headers = Path(f"/usr/src/linux-headers-{kernel}")
    if not headers.exists():
        subprocess.run(["apt-get", "install", "-y", "-qq", f"linux-headers-{kernel}"], check=True,
                       capture_output=True, env={"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    build = work / "gpio_board"
    subprocess.run(["cp", "-r", str(HERE / "gpio_board"), str(build)], check=True)
    subprocess.run(["make", "-s", "-C", str(headers), f"M={build}", "modules"], check=True, capture_output=True)
    return build / "pentago_gpio.ko"


def vm_steps(bench: Bench, short: bool) -> list:
    """Everything, on a VM with a kernel of its own: build A's chip and the udev rule too."""
    return [
        bench.install, bench.wire_build_a, lambda: bench.doctor("doctor_build_a"),
        lambda: bench.matrix_reads(300 if short else 1000),
        lambda: bench.scan_cpu(10 if short else 60),
        lambda: bench.vm.sh("systemctl start pentago-board", timeout_s=1200),
        lambda: bench.cpu("rest_empty", 10 if short else 60),
        lambda: bench.cpu("rest_36_marbles", 10 if short else 60, fill=36),
        bench.game, bench.clean_stop,
        lambda: bench.configure("virtual-6x6"), bench.ready, bench.stop, bench.ready,
        bench.watchdog, lambda: bench.power_cut(moves=2 if short else 3, cuts=1 if short else 4),
        bench.udev, lambda: bench.doctor("doctor"), bench.security,
    ]


def container_steps(bench: Bench) -> list:
    """What needs systemd but no kernel of its own (CI's short run): the virtual board."""
    return [
        bench.install, lambda: bench.configure("virtual-6x6"), lambda: bench.doctor("doctor"),
        bench.ready, bench.stop, bench.ready, bench.watchdog,
        lambda: bench.power_cut(moves=2, cuts=2), bench.udev_synthetic, bench.security,
    ]


def run_steps(bench: Bench, steps: list, work: Path) -> None:
    """Each step in turn; one that fails is a failure, and the others still run."""
    for step in steps:
        t0 = time.monotonic()
        try:
            step()
        except GuestError as error:
            bench.failures.append(f"{getattr(step, '__name__', 'step')}: {error}"[:3000])
            if bench.vm.process is None or bench.vm.process.poll() is not None:
                break
        print(f"pi_vm: {getattr(step, '__name__', 'step')} {time.monotonic() - t0:.0f} s", file=sys.stderr)
        (work / "figures.json").write_text(json.dumps({**bench.figures, "failures": bench.failures}, indent=1))


def run(work: Path, short: bool, ref: str | None = None) -> tuple[dict, list[str]]:
    figures: dict = {"accelerator": " ".join(accelerator())}
    disk, kernel, initrd, payload_disk = prepare(work, figures, ref)
    with Vm(disk, kernel, initrd, payload_disk, work) as vm:
        bench = Bench(vm, figures)
        figures["boot_s"] = round(vm.boot(600), 1)
        run_steps(bench, vm_steps(bench, short), work)
        vm.shutdown()
    return figures, bench.failures


def run_container(work: Path, ref: str | None = None) -> tuple[dict, list[str]]:
    """The checks that need real systemd but no kernel of its own, in a container of this
    machine's root (container.py): seconds where the VM takes minutes."""
    figures: dict = {"machine": "systemd-nspawn container of this machine's root"}
    t0 = time.monotonic()
    files = image.payload_dir(work / "payload", payload(work, figures, ref))
    figures["prepare_s"] = round(time.monotonic() - t0, 1)
    with Container(files, work) as box:
        figures["boot_s"] = round(box.boot(), 1)
        # the host's own install, if any, is not the one checked (whiteouts in the overlay only)
        box.sh("rm -rf /opt/pentago-board /etc/pentago-board /var/lib/pentago-board "
               "/etc/systemd/system/pentago-board.service* /usr/local/bin/pentago-board; "
               "id pi >/dev/null 2>&1 || useradd --create-home --shell /bin/bash pi")
        bench = Bench(box, figures)
        run_steps(bench, container_steps(bench), work)
        box.shutdown()
    return figures, bench.failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="fewer moves and reads, one power cut")
    parser.add_argument("--container", action="store_true",
                        help="what CI runs: the systemd checks in a container of this machine's root (no VM)")
    parser.add_argument("--ref", help="install this git ref (default: the work tree, uncommitted changes too)")
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it (console log, overlay disk)")
    args = parser.parse_args(argv)
    if args.container and os.environ.get("PI_VM_PRIVATE_MOUNTS") != "1":
        # the container's mounts in a mount namespace of the run's own: the host never sees them,
        # and they go with the run's last process however it ends (even a SIGKILL)
        argv = sys.argv[1:] if argv is None else argv
        os.execvpe("unshare", ["unshare", "--mount", "--propagation", "private", sys.executable, __file__, *argv],
                   {**os.environ, "PI_VM_PRIVATE_MOUNTS": "1"})
    # a kill (a test's time-out, CI's) still takes the VM or the container down: SystemExit unwinds
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not args.container:
        accel, why = accelerator()
        print(f"pi_vm: qemu accelerator {accel}: {why}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="pi_vm-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        t0 = time.monotonic()
        try:
            figures, failures = (run_container(work, args.ref) if args.container
                                 else run(work, args.short, args.ref))
        except GuestError as error:
            print(f"pi_vm: {error}\n--- console ---\n{(work / 'console.log').read_text(errors='replace')[-3000:]}",
                  file=sys.stderr)
            return 1
        figures["total_s"] = round(time.monotonic() - t0, 1)
    print(json.dumps(figures, indent=1))
    for failure in failures:
        print(f"pi_vm: FAILED {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
