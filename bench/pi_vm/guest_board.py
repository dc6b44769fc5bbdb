#!/usr/bin/python3
"""Build A's board in the VM, played by flipping the lines of the pentago_gpio chip: reed
switches closing under marbles, encoder contacts in quadrature, buttons pressed. It reads the
wiring from the build-A profile, as the daemon does, and watches the daemon through its web
console's state (standard library only: it runs on the guest's own Python, as root).

    guest_board.py PROFILE game        play the bench's classic game; print its figures as JSON
    guest_board.py PROFILE reads N     N matrix reads per case straight through the daemon's
                                       KernelMatrix (service stopped): wrong reads, timing, and
                                       how soon a marble dropped on the empty board wakes it
    guest_board.py PROFILE scan-cpu S K  CPU of the driver's matrix scan alone, S seconds with K
                                       marbles down (service stopped)
    guest_board.py PROFILE service-cpu S  the service's CPU over S seconds: its cgroup's, each thread's
    guest_board.py PROFILE baseline S  the emulated CPU's own cost: an empty loop at the rest pace
    guest_board.py PROFILE idle        set every switch open and every line to rest
    guest_board.py PROFILE fill K      close the first K switches (board filled in reading order)
"""

import json
import os
import random
import statistics
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

SYSFS = Path("/sys/devices/platform/pentago_gpio")
URL = "http://127.0.0.1:8080/api/state"
COLUMNS = "abcdef"
SLOW = float(os.environ.get("PI_VM_SLOW", "1"))  # timeouts x this on an emulated CPU
# One detent, clockwise seen from above: A falls first, then B, then A rises, then B (the
# driver's wiring; counter-clockwise is B first).
CLOCKWISE = (("a", 0), ("b", 0), ("a", 1), ("b", 1))
COUNTER = (("b", 0), ("a", 0), ("b", 1), ("a", 1))
BLOCK_ORIGIN = {1: (0, 3), 2: (3, 3), 3: (0, 0), 4: (3, 0)}  # (column, row) of each block's bottom-left


def hole_xy(name):
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def hole_name(x, y):
    return f"{COLUMNS[x]}{y + 1}"


class Board:
    """The marbles on the board and the lines they make, written to the chip."""

    def __init__(self, profile):
        data = tomllib.loads(Path(profile).read_text())
        gpio = data["gpio"]
        self.rows, self.cols = gpio["matrix_rows"], gpio["matrix_columns"]
        self.crossing = {name: (r, c) for r, row in enumerate(gpio["matrix_holes"]) for c, name in enumerate(row)}
        self.encoders = [tuple(pins) for pins in gpio["encoders"]]
        self.buttons = data["buttons"]
        self.detents = data["detents_per_quarter"]
        self.marbles = set()  # hole names whose switch is closed
        self.flips = 0

    def write(self, marbles=None):
        closed = self.marbles if marbles is None else marbles
        cells = ["0"] * (len(self.rows) * len(self.cols))
        for name in closed:
            r, c = self.crossing[name]
            cells[r * len(self.cols) + c] = "1"
        (SYSFS / "switches").write_text("".join(cells))
        self.flips += 1

    def level(self, pin, value):
        (SYSFS / "level").write_text(f"{pin} {value}")
        self.flips += 1

    def place(self, name):
        self.marbles.add(name)
        self.write()

    def lift(self, name):
        self.marbles.discard(name)
        self.write()

    def press(self, button, hold_s=0.12):
        self.level(self.buttons[button], 0)
        time.sleep(hold_s)
        self.level(self.buttons[button], 1)

    def rest(self):
        self.marbles.clear()
        self.write()
        for a, b in self.encoders:
            self.level(a, 1)
            self.level(b, 1)
        for pin in self.buttons.values():
            self.level(pin, 1)

    def quarter(self, block, clockwise, edge_s=0.006, knock=None, rng=random.Random(1)):
        """A hand turns ``block`` a quarter: encoder edges, the block's holes reading garbage on
        the way (marbles passing over the switches), then the marbles rotated. ``knock``: a
        marble outside the block knocked out of its hole half-way through."""
        a, b = self.encoders[block - 1]
        pins = {"a": a, "b": b}
        x0, y0 = BLOCK_ORIGIN[block]
        inside = [hole_name(x0 + i, y0 + j) for i in range(3) for j in range(3)]
        for detent in range(self.detents):
            for pin, value in CLOCKWISE if clockwise else COUNTER:
                self.level(pins[pin], value)
                time.sleep(edge_s)
            if 0 < detent < self.detents - 1:  # half-way: marbles over the wrong switches
                self.write((self.marbles - set(inside)) | {h for h in inside if rng.random() < 0.4})
            if knock and detent == self.detents // 2:
                self.marbles.discard(knock)
        turned = set()
        for name in self.marbles:
            x, y = hole_xy(name)
            if name in inside:
                i, j = x - x0, y - y0
                i, j = (j, 2 - i) if clockwise else (2 - j, i)
                name = hole_name(x0 + i, y0 + j)
            turned.add(name)
        self.marbles = turned
        self.write()


def state():
    with urllib.request.urlopen(URL, timeout=5) as response:
        message = json.loads(response.read())
    return message.get("state", message) if isinstance(message.get("state"), dict) else message


def until(test, timeout_s=10.0):
    timeout_s *= SLOW
    """The first state that passes ``test`` and the seconds it took; (last state, None) if none."""
    t0 = time.monotonic()
    now = None
    while time.monotonic() - t0 < timeout_s:
        try:
            now = state()
            if test(now):
                return now, time.monotonic() - t0
        except (OSError, ValueError):
            pass
        time.sleep(0.2)  # each look is a request the daemon serves: polled faster, the bench is its CPU
    return now, None


def physical(board):
    """What the daemon should see: its state's physical rows (top row first)."""
    return ["".join("*" if hole_name(x, y) in board.marbles else "." for x in range(6)) for y in reversed(range(6))]


# The bench's game: White builds column a (blocks 1 and 3, never twisted), Black plays and twists
# on the right half. Black's third move is taken back with the Back button (its twist, turned
# back by hand, then its placement, lifted) and played again elsewhere; during White's fourth
# twist a2 is knocked out of its hole and put back when the board asks for it; White's fifth
# placement wins at once.
GAME = [("a1", 2, True), ("e5", 2, False), ("a2", 4, True), ("e2", 4, False), ("a3", 2, True),
        ("d2", 4, True), "take_back", ("f3", 4, True), ("a4", 4, False, "a2"), ("d5", 2, True), ("a5",)]


def play(board):
    figures = {"moves": 0, "missed": 0, "false": 0, "wrong_physical": 0, "latency_s": [], "repairs": 0,
               "take_backs": 0}
    board.rest()
    started, _ = until(lambda s: s.get("state") in ("awaiting_placement", "choosing", "game_over"), 30)
    expected = []
    for step in GAME:
        if step == "take_back":  # Back takes the twist back, a second Back the placement
            board.press("back")
            now, _ = until(lambda s: len(s["moves"]) == len(expected) - 1)
            if now is None or len(now["moves"]) != len(expected) - 1:
                figures["missed"] += 1
                continue
            last = expected.pop()
            hole, block, clockwise = last[:3]
            board.quarter(block, not clockwise)  # the board lights what to undo: turn back, lift
            until(lambda s: not s["repair"] and s["physical"] == physical(board))
            board.press("back")
            now, _ = until(lambda s: s.get("state") in ("awaiting_placement", "repair"))
            figures["take_backs"] += now is not None and now.get("state") in ("awaiting_placement", "repair")
            board.lift(hole)
            until(lambda s: not s["repair"] and s["physical"] == physical(board)
                  and s.get("state") == "awaiting_placement")
            continue
        hole = step[0]
        board.place(hole)
        if len(step) == 1:
            expected.append(step)
            t0 = time.monotonic()
            now, took = until(lambda s: s.get("outcome") is not None and len(s["moves"]) == len(expected))
            break
        _, block, clockwise = step[:3]
        knock = step[3] if len(step) > 3 else None
        until(lambda s: s["physical"] == physical(board), 5)
        t0 = time.monotonic()
        board.quarter(block, clockwise, knock=knock)
        expected.append(step)
        if knock:
            now, _ = until(lambda s: bool(s["repair"]), 15)
            figures["repairs"] += bool(now and now["repair"])
            board.place(knock)  # put back where the board lights it
        now, took = until(lambda s: len(s["moves"]) == len(expected) and not s["repair"], 15)
        if took is not None:
            figures["latency_s"].append(round(time.monotonic() - t0, 3))
        if now is None or now["physical"] != physical(board):
            figures["wrong_physical"] += 1
    final = state()
    played = [m for m in final["moves"]]
    want = [f"{s[0]} {s[1]}{'R' if s[2] else 'L'}" if len(s) > 1 else s[0] for s in expected]
    figures["moves"] = len(played)
    figures["missed"] += sum(1 for m in want if m not in played)
    figures["false"] = sum(1 for m in played if m not in want)
    figures["moves_played"], figures["moves_expected"] = played, want
    figures["outcome"] = final.get("outcome")
    board.press("ok")  # game over: OK goes back to the menu
    after, _ = until(lambda s: s.get("state") == "choosing", 5)
    figures["ok_to_menu"] = after is not None and after.get("state") == "choosing"
    figures["line_flips"] = board.flips
    return figures


def reads(board, n):
    """Every case read ``n`` times through the matrix the daemon uses (KernelMatrix, the
    kernel's GPIO chip), and how soon a marble dropped on the empty board, asleep in
    ``wait``, wakes it (``n // 50`` drops)."""
    import threading

    from controller.drivers.gpio.cdev import pi_bank
    from controller.drivers.gpio.kernel_matrix import KernelMatrix
    from controller.profile import load_profile

    pins = load_profile("A-6x6").gpio
    names = [f"{c}{r}" for r in range(1, 7) for c in COLUMNS]  # hole index order: a1 = 0
    cases = {"none": set(), "one": {"c4"}, "eight": {"a1", "b2", "c3", "d4", "e5", "f6", "a6", "f1"},
             "all": set(names)}
    out = {}
    matrix = KernelMatrix(pins.matrix_rows, pins.matrix_columns, pins.matrix_holes, pi_bank())
    for case, marbles in cases.items():
        board.marbles = set(marbles)
        board.write()
        want = [name in marbles for name in names]
        times, wrong = [], 0
        for _ in range(n):
            t0 = time.perf_counter()
            got = matrix.read()
            times.append(time.perf_counter() - t0)
            wrong += sum(1 for g, w in zip(got, want) if g != w)
        times.sort()
        out[f"kernel {case}"] = {"reads": n, "wrong_holes": wrong,
                                 "scan_ms_median": round(statistics.median(times) * 1e3, 3),
                                 "scan_ms_p99": round(times[int(0.99 * (n - 1))] * 1e3, 3)}
    wakes, missed = [], 0
    for i in range(max(1, n // 50)):
        board.marbles = set()
        board.write()
        matrix.read()  # empty: every row low, asleep until an edge
        woke = []
        waiter = threading.Thread(target=lambda: (matrix.wait(0.015), woke.append(time.monotonic())))
        waiter.start()
        time.sleep(0.1)
        board.marbles = {names[i % 36]}
        t0 = time.monotonic()
        board.write()
        waiter.join(5)
        missed += not matrix.read()[i % 36]
        wakes.append(woke[0] - t0)
    wakes.sort()
    out["drop on the empty board"] = {"drops": len(wakes), "not_read": missed,
                                      "wake_ms_median": round(statistics.median(wakes) * 1e3, 2),
                                      "wake_ms_max": round(wakes[-1] * 1e3, 2)}
    matrix.close()
    board.rest()
    return out


def scan_cpu(board, seconds, fill):
    """CPU of the matrix scan alone, in this process, for ``seconds`` with ``fill`` marbles
    down, as GpioInputs scans on the Pi's chip (asleep on an empty board, 15 ms at rest)."""
    from controller.drivers.gpio import GpioInputs
    from controller.profile import load_profile

    names = [f"{c}{r}" for r in range(1, 7) for c in COLUMNS]
    board.marbles = set(names[:fill])
    board.write()
    profile = load_profile("A-6x6")
    driver = GpioInputs(6, profile.gpio, profile.buttons)
    events = []
    driver.start(events.append)
    time.sleep(3.0)  # past the start's busy window: at rest
    c0, t0 = time.process_time(), time.monotonic()
    time.sleep(seconds)
    out = {"cpu_percent": round((time.process_time() - c0) / (time.monotonic() - t0) * 100, 1),
           "matrix": type(driver.matrix).__name__}
    driver.stop()
    board.rest()
    return out


def service_cpu(seconds):
    """The service's CPU over ``seconds``: its cgroup's (cpu.stat usage_usec) and each of its
    threads' (utime + stime) with the system call it sits in, which tells them apart (7 poll:
    the driver's edge threads and the scan thread asleep on an empty board; 230 clock_nanosleep:
    a plain sleep; 232 epoll_wait: the event loop; 202 futex: Python's waits)."""
    pid = subprocess.run(["systemctl", "show", "-p", "MainPID", "--value", "pentago-board"],
                         capture_output=True, text=True, check=True).stdout.strip()
    cgroup = Path("/sys/fs/cgroup/system.slice/pentago-board.service/cpu.stat")
    tick = os.sysconf("SC_CLK_TCK")

    def usage():
        return int(next(line.split()[1] for line in cgroup.read_text().splitlines() if line.startswith("usage_usec")))

    def threads():
        out = {}
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                out[task.name] = (int(fields[11]) + int(fields[12]), (task / "syscall").read_text().split()[0])
            except (OSError, IndexError):
                pass  # a thread that ended
        return out
    u0, a, t0 = usage(), threads(), time.monotonic()
    time.sleep(seconds)
    u1, b, t1 = usage(), threads(), time.monotonic()
    took = t1 - t0
    per_thread = sorted(({"tid": tid, "syscall": b[tid][1], "percent": round((b[tid][0] - a[tid][0]) / tick / took * 100, 1)}
                         for tid in a.keys() & b.keys()), key=lambda t: -t["percent"])
    return {"cgroup_percent": round((u1 - u0) / 1e6 / took * 100, 1), "seconds": round(took, 1), "threads": per_thread}


def baseline(seconds, pace_s=0.015):
    """What the emulated CPU costs with no GPIO work, to read the other figures by: an empty
    loop woken at the rest scan's pace, and a fixed piece of pure Python (its milliseconds
    against the host's give the emulation's slowdown)."""
    c0, t0, wakes = time.process_time(), time.monotonic(), 0
    while time.monotonic() - t0 < seconds:
        time.sleep(pace_s)
        wakes += 1
    took = time.monotonic() - t0
    return {"empty_loop_percent": round((time.process_time() - c0) / took * 100, 2),
            "wakes_per_s": round(wakes / took, 1), "python_ms": python_ms()}


def python_ms():
    """Milliseconds of a fixed piece of pure Python (200,000 additions), the median of five."""
    times = []
    for _ in range(5):
        t0, total = time.perf_counter(), 0
        for i in range(200_000):
            total += i
        times.append((time.perf_counter() - t0) * 1e3)
    return round(statistics.median(times), 1)


def main(argv):
    board = Board(argv[0])
    if argv[1:2] == ["game"]:
        print(json.dumps(play(board)))
    elif argv[1:2] == ["reads"]:
        print(json.dumps(reads(board, int(argv[2]))))
    elif argv[1:2] == ["scan-cpu"]:
        print(json.dumps(scan_cpu(board, float(argv[2]), int(argv[3]))))
    elif argv[1:2] == ["service-cpu"]:
        print(json.dumps(service_cpu(float(argv[2]))))
    elif argv[1:2] == ["baseline"]:
        print(json.dumps(baseline(float(argv[2]))))
    elif argv[1:2] == ["idle"]:
        board.rest()
    elif argv[1:2] == ["fill"]:
        names = [f"{c}{r}" for r in range(1, 7) for c in COLUMNS]
        board.marbles = set(names[:int(argv[2])])
        board.write()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
