"""Work per full firmware scan (36 and 81 holes) and the scan rate it implies on an RP2040.

The measurement is bench/firmware_pico.py (MicroPython's RP2040 build in an emulated Pico, in
emulated cycles); this op-count estimate stays as the figure it replaced, printed beside it.

Run: .venv/bin/python bench/firmware_scan.py   (the MicroPython part needs
`npm ci --prefix tests/firmware/mpy` and Node 20; it is skipped with a note otherwise)

1. Counts, on the host, for one ``App.step`` (full scan, classification, debounce, encoder
   service, request poll, heartbeat check) on a quiet board: ADC reads and select-pin writes
   (counted by mux.py), function calls and Python bytecode operations executed in firmware code
   (CPython's opcode trace; MicroPython's compiler emits bytecode of similar granularity).
2. An RP2040 estimate at 125 MHz from those counts and the per-item costs below (stated with
   their sources; they are estimates, not measurements on a Pico).
3. The measured scan rate of the same App.step inside MicroPython (the WebAssembly port under
   Node, on this machine) for comparison: median and p99 over many scans.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
HARNESS = ROOT / "tests" / "firmware" / "mpy"
sys.path.insert(0, str(FIRMWARE))

import boardconfig  # noqa: E402
from app import App  # noqa: E402

# Per-item costs on an RP2040 at 125 MHz running MicroPython (estimates, see the sources):
ADC_CONVERSION_US = 2.0   # RP2040 datasheet / Pico SDK hardware_adc: 500 kS/s on a 48 MHz clock
NATIVE_CALL_US = 5.0      # a bound-method call into C (read_u16, Pin.value) beyond its bytecode:
                          # assumption, consistent with the next line's source
OP_US = (1.0, 2.0)        # per bytecode op, central and pessimistic. Source: Roy Longbottom's
                          # Pico bit-banging benchmark (roylongbottom.org.uk, "Raspberry Pi Pico,
                          # Pi 4 and Pi 400 Python and C ... Bit Banging Benchmarks") measured
                          # ~31 us per MicroPython loop iteration toggling one output at 125 MHz.
                          # Such a loop is ~10-15 ops plus two Pin.value calls: at 5 us a call
                          # that leaves ~1-2 us per op. Our ops are counted by CPython 3.11,
                          # whose call sequences take more ops than MicroPython's: the op count
                          # errs high, which the pessimistic figure compounds.
SETTLE_US = 10            # mux.py's settle_us per select-line change (real waiting)
TARGET_HZ = 100


class QuietIO:
    """A board at rest: every ADC input reads its baseline; no USB traffic. Counts the ADC
    reads and select-pin writes the firmware makes (the shim's side of the count)."""

    def __init__(self, config):
        self.config = config
        self.adc_reads = 0
        self.pin_writes = 0

    def select_setters(self):
        return [self._write for _ in self.config.select_pins]

    def _write(self, level):
        self.pin_writes += 1

    def adc_readers(self):
        return [self._read for _ in self.config.adc_pins]

    def _read(self):
        self.adc_reads += 1
        return 32768

    def encoder_pins(self):
        return []

    def irq_both_edges(self, pin, handler):
        pass

    def sleep_us(self, us):
        pass

    def read(self):
        return b""

    def write(self, data):
        pass

    def reset_cause(self):
        return 0

    def boot_id(self):
        return 1

    def restarted_because(self):
        return None


def build(size: int) -> App:
    config = boardconfig.parse(boardconfig.default(size))
    app = App(config, QuietIO(config), calibration_file=os.devnull + "/none")
    app.start(0)
    for now in range(10, 60, 10):    # warm: the scan plan reversed once, debounce idle
        app.step(now)
    return app


def count_ops(action) -> tuple[int, int]:
    """(bytecode ops, calls) that ``action()`` executes in firmware code."""
    ops = calls = 0
    firmware = str(FIRMWARE)

    def tracer(frame, event, arg):
        nonlocal ops, calls
        if not frame.f_code.co_filename.startswith(firmware):
            return None
        if event == "call":
            calls += 1
            frame.f_trace_opcodes = True
        elif event == "opcode":
            ops += 1
        return tracer

    sys.settrace(tracer)
    action()
    sys.settrace(None)
    return ops, calls


def count_step(size: int) -> dict[str, int]:
    app = build(size)
    io = app.io
    reads, writes = io.adc_reads, io.pin_writes
    ops, calls = count_ops(lambda: app.step(60))
    return {"holes": size * size, "adc_reads": io.adc_reads - reads,
            "pin_writes": io.pin_writes - writes, "calls": calls, "ops": ops}


def count_heartbeat(size: int, builtin_crc: bool) -> int:
    """Ops of one heartbeat (hash of the state, frame, CRC) with or without binascii.crc32."""
    import wire
    app = build(size)
    saved = wire._builtin_crc32
    wire._builtin_crc32 = saved if builtin_crc else None
    try:
        return count_ops(lambda: app.link.heartbeat(app.state_hash()))[0]
    finally:
        wire._builtin_crc32 = saved


def rp2040_estimate(work: dict[str, int], op_us: float) -> dict[str, float]:
    adc_us = work["adc_reads"] * (ADC_CONVERSION_US + NATIVE_CALL_US)
    pins_us = work["pin_writes"] * (NATIVE_CALL_US + SETTLE_US)
    ops_us = work["ops"] * op_us
    total_us = adc_us + pins_us + ops_us
    return {"adc_ms": adc_us / 1000, "pins_ms": pins_us / 1000, "ops_ms": ops_us / 1000,
            "scan_ms": total_us / 1000, "scan_hz": 1e6 / total_us}


MPY_BENCH = '''
import boardconfig, gc, time
from app import App

class QuietIO:
    def __init__(self, config): self.config = config
    def select_setters(self): return [lambda level: None for _ in self.config.select_pins]
    def adc_readers(self): return [lambda: 32768 for _ in self.config.adc_pins]
    def encoder_pins(self): return []
    def irq_both_edges(self, pin, handler): pass
    def sleep_us(self, us): pass
    def read(self): return b""
    def write(self, data): pass
    def reset_cause(self): return 0
    def boot_id(self): return 1
    def restarted_because(self): return None

def test_bench():
    for size in (6, 9):
        config = boardconfig.parse(boardconfig.default(size))
        app = App(config, QuietIO(config), "/nonexistent/calibration.json")
        app.start(0)
        # This port's clock ticks in whole milliseconds: time batches of BATCH scans.
        times = []
        i = 0
        for _ in range(SCANS // BATCH):
            t0 = time.ticks_ms()
            for _ in range(BATCH):
                app.step(10 * i)
                i += 1
            times.append(time.ticks_diff(time.ticks_ms(), t0) * 1000 // BATCH)
        print("BENCH", size, " ".join(str(t) for t in times))
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for _ in range(BATCH):
            app.step(10 * i)
            i += 1
        allocated = gc.mem_alloc() - before
        gc.enable()
        print("ALLOC", size, allocated // BATCH)
'''


def micropython_scan(scans: int = 4000, batch: int = 50) -> dict[int, dict[str, Any]] | None:
    """App.step inside MicroPython, by board size: ``us``, microseconds per step, one value per
    batch of ``batch`` scans; ``alloc_bytes``, heap bytes one step allocates (gc off over a batch)."""
    node = shutil.which("node")
    if not node or not (HARNESS / "node_modules").is_dir():
        return None
    with tempfile.TemporaryDirectory() as tables:
        code = MPY_BENCH.replace("SCANS", str(scans)).replace("BATCH", str(batch))
        Path(tables, "test_fw_bench.py").write_text(code)
        out = subprocess.run([node, str(HARNESS / "run.mjs"), str(FIRMWARE), tables],
                             capture_output=True, text=True, timeout=600).stdout
    result: dict[int, dict[str, Any]] = {}
    for line in out.splitlines():
        if line.startswith("BENCH "):
            _, size, *times = line.split()
            result.setdefault(int(size), {})["us"] = [int(t) for t in times[2:]]   # no warm-up batches
        elif line.startswith("ALLOC "):
            _, size, allocated = line.split()
            result.setdefault(int(size), {})["alloc_bytes"] = int(allocated)
    return result


def p99(values: list[int]) -> float:
    return sorted(values)[int(0.99 * (len(values) - 1))]


def main() -> None:
    works = {size: count_step(size) for size in (6, 9)}
    print("Work per full scan (one App.step on a quiet board):")
    print(f"{'holes':>6}{'ADC reads':>11}{'pin writes':>12}{'calls':>8}{'bytecode ops':>14}")
    for w in works.values():
        print(f"{w['holes']:>6}{w['adc_reads']:>11}{w['pin_writes']:>12}{w['calls']:>8}{w['ops']:>14}")
    print(f"ratio 81/36 holes: ops x{works[9]['ops'] / works[6]['ops']:.2f}, "
          f"ADC reads x{works[9]['adc_reads'] / works[6]['adc_reads']:.2f}")
    print()
    print(f"RP2040 @ 125 MHz estimate ({ADC_CONVERSION_US} us/conversion + {NATIVE_CALL_US} us per "
          f"native call, {SETTLE_US} us settle per select change):")
    for op_us in OP_US:
        print(f" at {op_us} us per bytecode op:")
        for size, w in works.items():
            e = rp2040_estimate(w, op_us)
            verdict = "meets" if e["scan_hz"] >= TARGET_HZ else "MISSES"
            print(f"  {w['holes']} holes: ADC {e['adc_ms']:.2f} ms + pins {e['pins_ms']:.2f} ms + "
                  f"Python {e['ops_ms']:.2f} ms = {e['scan_ms']:.2f} ms/scan -> {e['scan_hz']:.0f} Hz "
                  f"({verdict} the {TARGET_HZ} Hz target)")
    print()
    for size in (6, 9):
        fast, slow = count_heartbeat(size, True), count_heartbeat(size, False)
        print(f"heartbeat ({size * size} holes, every 250 ms): {fast} ops with a built-in "
              f"binascii.crc32, {slow} ops with wire.py's bitwise fallback")
    print()
    measured = micropython_scan()
    if measured is None:
        print("MicroPython (WebAssembly) measurement skipped: run npm ci --prefix tests/firmware/mpy")
        return
    print("Measured inside MicroPython 1.27 (WebAssembly port, Node, this machine), per App.step:")
    for size, figures in sorted(measured.items()):
        times = figures["us"]
        median = statistics.median(times)
        print(f"  {size * size} holes: median {median:.0f} us, p99 {p99(times):.0f} us "
              f"-> {1e6 / median:.0f} scans/s ({len(times)} batches of 50 scans); "
              f"{figures['alloc_bytes']} heap bytes allocated per step")
    if 6 in measured and 9 in measured:
        ratio = statistics.median(measured[9]["us"]) / statistics.median(measured[6]["us"])
        print(f"  ratio 81/36 holes: x{ratio:.2f}")


if __name__ == "__main__":
    main()
