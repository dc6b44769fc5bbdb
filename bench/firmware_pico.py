"""The firmware's scan on MicroPython's own RP2040 build, measured in emulated cycles.

Run: .venv/bin/python bench/firmware_pico.py [--wasm]
(needs the UF2 in firmware/micropython/ (or PENTAGO_PICO_UF2), and `npm ci --prefix tests/firmware/pico`;
--wasm also times App.step in the WebAssembly port, which needs `npm ci --prefix tests/firmware/mpy`)

For 36 and 81 holes, the stock MicroPython v1.28.0 UF2 boots in rp2040js (tests/firmware/pico)
with the firmware on its littlefs as `firmware flash` copies it (main.py, the other modules as
native .mpy; --source: every module as .py, as before), on a quiet simulated board:

* time from reset to the first hello (emulated ms);
* at the default pace (scan_ms 10, 100 scans a second): CPU cycles per scan (every cycle the
  core executes in the window, USB and heartbeats included, divided by the scans), the CPU's busy
  share, and the scan overruns the firmware logged;
* flat out (scan_ms 1: the loop never waits): scans a second and cycles per scan;
* on the device, through the raw REPL after the loop stops (pico.heap_per_scan): free heap with
  the app built; the heap allocations one scan (App.step) makes, counted in MicroPython's block
  table (micropython.mem_info(1): the heads added with gc disabled over 50 scans) and in bytes
  (gc.mem_alloc), what scans keep past a collection (a leak), and what the allocations cost: one
  full collection's time and how often one falls due; beside them, the bytes one App.step
  allocates in the WebAssembly port (--wasm: bytecode, the modules as .py);
* a full heap (pico.HEAP_HOG fills it with live data, as a leak would, so every allocation
  collects first): the scan rate, CPU busy share and overrun lines at the default pace;

with the old op-count estimate (bench/firmware_scan.py) beside them. Emulated cycles are exact
and repeat run to run; a real Pico is somewhat slower (flash wait states and XIP cache misses are
not emulated: tests/firmware/pico/FACTS.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "firmware" / "pico"))
sys.path.insert(0, str(ROOT / "bench"))

from pico import (HOG_FILL_PIN, HEAP_SCANS, Pico, device_files, heap_per_scan, missing,  # noqa: E402, I001
                  source_files, with_heap_hog)
import wire  # noqa: E402, I001
from firmware_scan import count_step, micropython_scan, rp2040_estimate  # noqa: E402

CYCLE_NS = 8
WINDOW_MS = 1000
GOALS = {36: {"flat_hz": 600}, 81: {"flat_hz": 300, "busy_100hz": 0.35}}
HELLO_GOAL_MS = 300

def window(pico: Pico, reads_per_scan: int) -> dict[str, float]:
    """Run WINDOW_MS and return scans/s, cycles per scan, busy share and overruns logged."""
    start, logged = pico.stats(), len(pico.messages())
    end = pico.run(WINDOW_MS)
    seconds = (end["ns"] - start["ns"]) / 1e9
    scans = (end["adc_reads"] - start["adc_reads"]) / reads_per_scan
    cycles = end["busy_cycles"] - start["busy_cycles"]
    overruns = sum(1 for m in pico.messages()[logged:] if m.name == "log" and "overrun" in m.fields["text"])
    return {"scans_s": scans / seconds, "cycles_scan": cycles / scans,
            "busy": cycles * CYCLE_NS / 1e9 / seconds, "overruns": overruns}


def measure(size: int, source: bool = False) -> dict[str, float]:
    reads_per_scan = count_step(size)["adc_reads"]
    with Pico(size, files=source_files(size) if source else None) as pico:
        hello = pico.wait_for("hello", limit_ms=5000, run_ms=5)
        figures = {"hello_ms": hello.ns / 1e6}
        pico.run(500)
        paced = window(pico, reads_per_scan)
        pico.request(wire.SET_CONFIG, 1, {"key": "scan_ms", "value": 1})
        pico.run(200)
        flat = window(pico, reads_per_scan)
        figures.update(heap_per_scan(pico))
    with Pico(size, files=with_heap_hog(source_files(size) if source else device_files(size))) as pico:
        pico.wait_for("hello", limit_ms=5000)
        pico.drive(HOG_FILL_PIN, 1)
        pico.run(500)
        full = window(pico, reads_per_scan)
    figures.update({"paced_" + k: v for k, v in paced.items()})
    figures.update({"flat_" + k: v for k, v in flat.items()})
    figures.update({"full_" + k: v for k, v in full.items()})
    return figures


def report(size: int, f: dict[str, float], wasm: dict[int, dict[str, Any]] | None) -> None:
    holes = size * size
    goal = GOALS[holes]
    estimate = rp2040_estimate(count_step(size), 1.0)
    print(f"{holes} holes:")
    print(f"  first hello {f['hello_ms']:.0f} ms after reset (goal <= {HELLO_GOAL_MS})")
    busy_goal = f" (goal <= {goal['busy_100hz']:.0%})" if "busy_100hz" in goal else ""
    print(f"  at 100 Hz: {f['paced_scans_s']:.1f} scans/s, {f['paced_cycles_scan']:,.0f} cycles/scan "
          f"({f['paced_cycles_scan'] * CYCLE_NS / 1e6:.2f} ms), CPU busy {f['paced_busy']:.0%}{busy_goal}, "
          f"{f['paced_overruns']} overrun lines")
    print(f"  flat out: {f['flat_scans_s']:.0f} scans/s (goal >= {goal['flat_hz']}), "
          f"{f['flat_cycles_scan']:,.0f} cycles/scan ({f['flat_cycles_scan'] * CYCLE_NS / 1e6:.2f} ms)")
    every = f["free_heap"] / f["alloc_step"] if f["alloc_step"] else float("inf")
    print(f"  heap: {f['free_heap']:,} bytes free with the app built; a scan makes {f['allocs_step']:.1f} "
          f"allocations, {f['alloc_step']:.0f} bytes (gc off over {HEAP_SCANS} scans), keeping "
          f"{f['kept_bytes']} bytes past a collection over {HEAP_SCANS * 4} more; a full collection "
          f"takes {f['gc_ms']:.2f} ms, due every {every:,.0f} scans ({every / f['paced_scans_s']:.1f} s at 100 Hz)")
    print(f"  heap full of live data (each allocation collects first): {f['full_scans_s']:.1f} scans/s, "
          f"CPU busy {f['full_busy']:.0%}, {f['full_overruns']} overrun lines in {WINDOW_MS} ms")
    old = f"  before: op-count estimate {estimate['scan_ms']:.2f} ms/scan ({estimate['scan_hz']:.0f} Hz)"
    if wasm and size in wasm:
        median = statistics.median(wasm[size]["us"])
        old += (f"; WebAssembly port (bytecode, this machine) {median:.0f} us/step ({1e6 / median:.0f} "
                f"steps/s), {wasm[size]['alloc_bytes']} heap bytes allocated per step")
    print(old)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wasm", action="store_true", help="also time App.step in the WebAssembly port")
    parser.add_argument("--size", type=int, choices=(6, 9), action="append", help="board size (both)")
    parser.add_argument("--source", action="store_true",
                        help="flash the modules as .py source instead of firmware flash's native .mpy")
    args = parser.parse_args()
    reason = missing()
    if reason:
        print(f"skipped: {reason}")
        return 0
    wasm = micropython_scan(scans=1000) if args.wasm else None
    for size in args.size or (6, 9):
        started = time.monotonic()
        figures = measure(size, args.source)
        report(size, figures, wasm)
        print(f"  ({time.monotonic() - started:.0f} s of wall time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
