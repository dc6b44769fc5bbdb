"""Build A in the VM, alone: the real ``pentago-board run`` on the A-6x6 profile, on the kernel
GPIO chip (gpio_board/pentago_gpio.c) through its character device, refereeing a classic game played
by flipping lines (guest_board.py), and what the service costs at rest and while playing.

The steps of run.py that concern build A, without the virtual board's checks (power cuts,
watchdog, udev), so the figures come in one boot: the README's install, the chip wired,
``doctor``, the matrix's reads and a marble's wake on the empty board, the scan alone, the emulated CPU's own
cost (an empty loop at the rest scan's pace, and a fixed piece of pure Python timed here and in
the guest), then the service's cgroup and threads at rest (no marble, 36 marbles), the game
(missed and false moves, wrong physical boards, the knocked marble's repair, the take-back, OK to
the menu) with the service's CPU over it, and a clean stop.

Usage: sudo .venv/bin/python bench/pi_vm/build_a.py [--seconds 60] [--keep DIR]
Prints its figures as JSON; exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import guest_board  # noqa: E402
import run  # noqa: E402
from vm import GuestError, Vm, accelerator  # noqa: E402


def service_cpu(bench: run.Bench, label: str, seconds: float, fill: int) -> None:
    """The service's cgroup and threads over ``seconds`` with ``fill`` marbles down."""
    bench.vm.sh(f"{run.BOARD} fill {fill}", timeout_s=600)
    time.sleep(3.0)  # past the scan's busy window after the change: at rest
    out = bench.vm.sh(f"{run.BOARD} service-cpu {seconds}", timeout_s=int(seconds * 10) + 600).out
    bench.figures.setdefault("service_cpu", {})[label] = json.loads(out)


def baseline(bench: run.Bench, seconds: float) -> None:
    guest = json.loads(bench.vm.sh(f"{run.BOARD} baseline {seconds}", timeout_s=int(seconds * 10) + 600).out)
    guest["host_python_ms"] = guest_board.python_ms()
    guest["slowdown"] = round(guest["python_ms"] / guest["host_python_ms"], 1)
    bench.figures["emulated_baseline"] = guest


def steps(bench: run.Bench, seconds: float) -> list:
    start = lambda: bench.vm.sh("systemctl start pentago-board", timeout_s=1200)  # noqa: E731
    return [
        bench.install, bench.wire_build_a, lambda: bench.doctor("doctor_build_a"),
        lambda: bench.matrix_reads(1000), lambda: bench.scan_cpu(seconds),
        lambda: baseline(bench, seconds), start,
        lambda: service_cpu(bench, "rest_empty", seconds, 0),
        lambda: service_cpu(bench, "rest_36_marbles", seconds, 36),
        lambda: bench.vm.sh(f"{run.BOARD} idle"),  # an empty board for the new game
        bench.game, bench.clean_stop,
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="each CPU measurement's length")
    parser.add_argument("--ref", help="install this git ref (default: the work tree, uncommitted changes too)")
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it (console log, overlay disk)")
    args = parser.parse_args(argv)
    print(f"build_a: qemu accelerator {' '.join(accelerator())}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="pi_vm-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        figures: dict = {"accelerator": " ".join(accelerator())}
        t0 = time.monotonic()
        disk, kernel, initrd, payload = run.prepare(work, figures, args.ref)
        with Vm(disk, kernel, initrd, payload, work) as vm:
            bench = run.Bench(vm, figures)
            try:
                figures["boot_s"] = round(vm.boot(900), 1)
            except GuestError as error:
                print(f"build_a: {error}", file=sys.stderr)
                return 1
            for step in steps(bench, args.seconds):
                t1 = time.monotonic()
                try:
                    step()
                except GuestError as error:  # one failed step is a failure; the others still run
                    bench.failures.append(str(error)[:3000])
                    if vm.process is None or vm.process.poll() is not None:
                        break
                print(f"build_a: step {time.monotonic() - t1:.0f} s", file=sys.stderr)
                (work / "figures.json").write_text(json.dumps({**figures, "failures": bench.failures}, indent=1))
            vm.shutdown()
        figures["total_s"] = round(time.monotonic() - t0, 1)
    print(json.dumps(figures, indent=1))
    for failure in bench.failures:
        print(f"build_a: FAILED {failure}", file=sys.stderr)
    return 1 if bench.failures else 0


if __name__ == "__main__":
    sys.exit(main())
