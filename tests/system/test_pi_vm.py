"""bench/pi_vm: the daemon under real systemd, in a container and in a virtual machine.

What CI runs here: the daemon installed by ``systemd/install.sh`` under real systemd booted in a
container of this machine's own Debian (``run.py --container``: systemd-nspawn, about a minute
and a half), with every check of the issue but build A's GPIO chip (a container has no kernel of
its own; the udev rule is tried on a synthetic USB serial device). The VM itself
(``run.py --short``) runs where KVM can boot Debian's kernel; on a host whose KVM is PVM (kvm_pvm:
only PVM guest kernels boot) qemu would have to emulate the CPU, about fifty times slower, so CI
skips that part, saying why, and the bench runs it long by hand. Also everywhere: the mirror read
from apt's configuration, the GPIO chip module compiled against Debian's headers for the image's
kernel, and the scripted games checked by the rules.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.rules import ClassicGame

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench/pi_vm"
sys.path.insert(0, str(BENCH))

import guest_board  # noqa: E402
import mirror  # noqa: E402
import run  # noqa: E402
from vm import accelerator  # noqa: E402


def test_the_mirror_is_read_from_deb822_and_one_line_sources(tmp_path):
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list").write_text("# none here\ndeb-src http://src.example/debian bookworm main\n")
    (tmp_path / "sources.list.d/other.sources").write_text(
        "Types: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\nComponents: main\n\n"
        "Types: deb\n# a comment\nURIs: http://mirror.example/debian/\nSuites: bookworm bookworm-updates\n"
        "Components: main contrib\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    assert mirror.debian_mirror(apt=tmp_path) == "http://mirror.example/debian"
    (tmp_path / "sources.list").write_text("deb [arch=amd64 signed-by=/k.gpg] http://one.example/debian bookworm main\n")
    assert mirror.debian_mirror(apt=tmp_path) == "http://one.example/debian"


def test_no_source_for_the_suite_says_which_files_were_read(tmp_path):
    (tmp_path / "sources.list.d").mkdir()
    with pytest.raises(ValueError, match=r"no 'deb' source for bookworm main in .*sources.list"):
        mirror.debian_mirror(apt=tmp_path)


def test_the_power_cut_game_wins_for_nobody():
    game = ClassicGame()
    for text in run.GAME:
        game.push_text(text)
        assert not game.is_over(), text


def test_the_build_a_game_is_legal_and_won_on_placement_by_white():
    game = ClassicGame()
    played: list[str] = []
    for step in guest_board.GAME:
        if step == "take_back":
            game.pop()
            played.pop()
            continue
        text = step[0] if len(step) == 1 else f"{step[0]} {step[1]}{'R' if step[2] else 'L'}"
        game.push_text(text)
        played.append(text)
    assert game.is_over() and game.standings[0] == (1,)


@pytest.mark.parametrize("block, clockwise", [(1, True), (2, False), (3, True), (4, False)])
def test_the_boards_quarter_turn_moves_marbles_as_the_rules_rotate_them(block, clockwise, tmp_path, monkeypatch):
    from controller.rules import geometry, hole_name, parse_hole

    g = geometry(6)
    board = guest_board.Board(ROOT / "hardware/profiles/A-6x6.toml")
    monkeypatch.setattr(board, "write", lambda marbles=None: None)
    monkeypatch.setattr(board, "level", lambda pin, value: None)
    marbles = {"a6", "b5", "c4", "d6", "f4", "a1", "c2", "e3", "f1"}
    board.marbles = set(marbles)
    board.quarter(block, clockwise, edge_s=0)
    stones = sum(1 << parse_hole(name, g) for name in marbles)
    rotated = g.rotate(stones, block, clockwise)
    assert board.marbles == {hole_name(h, g) for h in range(36) if rotated >> h & 1}


def test_the_gpio_chip_module_compiles_against_debian_12s_kernel_headers(tmp_path):
    headers = sorted(Path("/usr/src").glob("linux-headers-*-amd64"))
    assert headers, "Debian's kernel headers are needed: apt-get install linux-headers-amd64 (.ci/run does)"
    built = run.build_module(headers[-1].name.removeprefix("linux-headers-"), tmp_path)
    assert built.exists() and built.stat().st_size > 0


@pytest.mark.hardware("a KVM that boots Debian's kernel")
@pytest.mark.timeout(3600)
def test_the_short_vm_run_passes_every_check():
    accel, why = accelerator()
    if accel != "kvm":
        pytest.skip(f"the VM part needs hardware KVM here ({why}); bench/pi_vm/run.py runs it under TCG by hand")
    assert os.geteuid() == 0, "the VM part needs root (CI runs as root here)"
    missing = [tool for tool in ("debootstrap", "qemu-system-x86_64", "mkfs.ext4") if not shutil.which(tool)]
    assert not missing, f"{missing} missing: apt-get install debootstrap qemu-system-x86 e2fsprogs (.ci/run does on KVM)"
    result = subprocess.run([sys.executable, str(BENCH / "run.py"), "--short"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


# Every check of the container run: one missing (a step that never ran) fails as one that failed.
CONTAINER_CHECKS = {"install.sh", "doctor", "ready", "stop", "watchdog", "power cut", "udev", "security"}
SHOWN = ("install_s", "boot_s", "ready_s", "stop_s", "watchdog_kill_s", "watchdog_active_again_s",
         "power_cuts", "moves_shown", "moves_lost", "boot_after_cut_s", "udev", "security", "total_s")


@pytest.mark.timeout(900)
def test_the_daemon_under_real_systemd_in_a_container_passes_every_check(capsys):
    assert os.geteuid() == 0, "the container needs root (CI runs as root here)"
    assert shutil.which("systemd-nspawn"), "apt-get install systemd-container (.ci/run does)"
    process = subprocess.Popen([sys.executable, str(BENCH / "run.py"), "--container"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=600)
    finally:  # a time-out (this one or pytest's): SIGTERM, on which run.py takes its container down
        if process.poll() is None:
            process.terminate()
            out, err = process.communicate(timeout=120)
    figures = json.loads(out) if out.strip().startswith("{") else {}
    with capsys.disabled():
        print(f"\npi_vm container: {json.dumps({k: figures.get(k) for k in SHOWN})}")
    assert process.returncode == 0, out[-3000:] + err[-3000:]
    assert figures["checks"] == dict.fromkeys(CONTAINER_CHECKS, "ok"), figures["checks"]
