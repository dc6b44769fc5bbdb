"""The systemd unit, the udev rule and the installer, checked as far as a machine without a Pi
allows: `systemd-analyze verify` and `security`, shellcheck, and install/uninstall runs against a
root prefix with the system tools (useradd, systemctl, ...) replaced by recording fakes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "pentago-board.service"
INSTALLED_BINARY = "/opt/pentago-board/venv/bin/pentago-board"


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is needed for this test: apt-get install {'systemd' if 'systemd' in name else name}"
    return path


@pytest.fixture
def unit_copy(tmp_path):
    """The unit with ExecStart pointing at a binary that exists here (verify checks it)."""
    text = UNIT.read_text()
    assert INSTALLED_BINARY in text
    copy = tmp_path / "pentago-board.service"
    copy.write_text(text.replace(INSTALLED_BINARY, sys.executable))
    return copy


def test_unit_verifies_without_any_warning(unit_copy):
    result = subprocess.run([tool("systemd-analyze"), "verify", str(unit_copy)],
                            capture_output=True, text=True, cwd=unit_copy.parent)
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stdout + result.stderr


def test_unit_security_exposure_is_1_5_or_better(unit_copy):
    result = subprocess.run([tool("systemd-analyze"), "security", "--offline=yes", str(unit_copy)],
                            capture_output=True, text=True, cwd=unit_copy.parent)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= 1.5  # 1.6 before PrivateMounts=yes


def test_unit_keeps_the_devices_and_the_contract():
    text = UNIT.read_text()
    for line in ("Type=notify", "Restart=on-failure", "User=pentago", "SupplementaryGroups=gpio spi dialout",
                 "StateDirectory=pentago-board", "DeviceAllow=char-gpiochip rw", "DeviceAllow=char-spi rw",
                 "DeviceAllow=char-ttyACM rw", "ProtectSystem=strict", "CapabilityBoundingSet=\n"):
        assert line in text + "\n", line
    assert re.search(r"^WatchdogSec=\d+", text, re.M)
    assert not re.search(r"^PrivateDevices=", text, re.M)


def test_udev_rule_names_the_pico():
    rule = (SYSTEMD / "99-pentago-mcu.rules").read_text()
    assert 'ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005"' in rule
    assert 'SYMLINK+="pentago-mcu"' in rule


def test_installer_is_shellcheck_clean():
    result = subprocess.run([tool("shellcheck"), str(SYSTEMD / "install.sh"), str(SYSTEMD / "pentago-board.sh")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


# -- installer runs against fakes --------------------------------------------------------------

FAKES = {
    "getent": 'grep -q "^$2$" "$STATE/$1" 2>/dev/null',
    "groupadd": 'echo "groupadd $*" >> "$STATE/log"; echo "$2" >> "$STATE/group"',
    "useradd": 'echo "useradd $*" >> "$STATE/log"; echo "${@: -1}" >> "$STATE/passwd"',
    "userdel": 'echo "userdel $*" >> "$STATE/log"; : > "$STATE/passwd"; : > "$STATE/member"',
    "usermod": 'echo "usermod $*" >> "$STATE/log"; echo "$3" | tr , "\\n" >> "$STATE/member"',
    "id": 'tr "\\n" " " < "$STATE/member" 2>/dev/null',
    "systemctl": 'echo "systemctl $*" >> "$STATE/log"',
    # the pentago group exists only in the fakes: chgrp records it, stat -c %G reads it back
    "chgrp": 'echo "chgrp $*" >> "$STATE/log"; echo "$1" > "$STATE/group-of-$(basename "$2")"',
    "stat": ('if [ "$2" = %G ]; then cat "$STATE/group-of-$(basename "$3")" 2>/dev/null || echo root; '
             'else exec /usr/bin/stat "$@"; fi'),
    "udevadm": 'echo "udevadm $*" >> "$STATE/log"',
    # python3 -m venv DIR: a venv whose python only logs what it is asked to do (pip install)
    "fakepython": ('echo "python $*" >> "$STATE/log"; mkdir -p "$3/bin"; '
                   'printf "#!/bin/sh\\necho \\"venv-python \\$*\\" >> \\"$STATE/log\\"\\n" > "$3/bin/python"; '
                   'chmod +x "$3/bin/python"'),
}


@pytest.fixture
def fake_system(tmp_path):
    bin_dir, state, root = tmp_path / "bin", tmp_path / "state", tmp_path / "root"
    for d in (bin_dir, state, root):
        d.mkdir()
    for name, body in FAKES.items():
        (bin_dir / name).write_text(f"#!/bin/bash\n{body}\n")
        (bin_dir / name).chmod(0o755)
    (state / "group").write_text("dialout\n")  # like Debian: dialout exists, gpio and spi do not
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "STATE": str(state),
           "PENTAGO_ROOT": str(root), "PYTHON": str(bin_dir / "fakepython")}

    def install(*args: str) -> tuple[str, list[str]]:
        before = _log(state)
        result = subprocess.run(["bash", str(SYSTEMD / "install.sh"), *args], env=env,
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return result.stdout, _log(state)[len(before):]

    return install, root


def _log(state: Path) -> list[str]:
    path = state / "log"
    return path.read_text().splitlines() if path.exists() else []


def test_dry_run_prints_every_step_and_changes_nothing(fake_system):
    install, root = fake_system
    out, ran = install("--dry-run")
    assert ran == [] and list(root.iterdir()) == []
    for expected in ("+ groupadd --system gpio", "+ groupadd --system spi", "useradd --system",
                     "usermod --append --groups gpio,spi,dialout pentago", " -m venv ",
                     "pip install --quiet --upgrade", "/etc/systemd/system/pentago-board.service",
                     "/etc/udev/rules.d/99-pentago-mcu.rules", "systemctl daemon-reload",
                     "raspi-config nonint do_spi 0", "journalctl -u pentago-board"):
        assert expected in out, expected
    assert "groupadd --system dialout" not in out


def test_install_twice_changes_nothing_the_second_time(fake_system):
    install, root = fake_system
    _, first = install()
    assert any(line.startswith("useradd") for line in first)
    assert (root / "etc/systemd/system/pentago-board.service").read_bytes() == UNIT.read_bytes()
    assert (root / "etc/udev/rules.d/99-pentago-mcu.rules").exists()
    assert (root / "opt/pentago-board/profiles/B-6x6.toml").exists()
    assert (root / "usr/local/bin/pentago-board").stat().st_mode & 0o111
    config = root / "etc/pentago-board/config.toml"
    config.write_text('profile = "A-6x6"\n')  # the user's edit survives a re-install

    dry, _ = install("--dry-run")
    _, second = install()
    assert config.read_text() == 'profile = "A-6x6"\n'
    assert [line.split()[0] for line in second] == ["venv-python", "systemctl", "systemctl"]
    assert "useradd" not in dry and "install -D" not in dry and "daemon-reload" not in dry


def test_the_config_holding_the_passwords_is_readable_by_the_service_s_group_only(fake_system):
    """Issue 19, item 18: config.toml (the MQTT password, the console's token) was installed 0644."""
    install, root = fake_system
    _, ran = install()
    config = root / "etc/pentago-board/config.toml"
    assert config.stat().st_mode & 0o777 == 0o640
    assert f"chgrp pentago {config}" in ran
    # An older install's world-readable config is mended by the upgrade, its settings kept.
    config.write_text('profile = "B-6x6"\n[mqtt]\npassword = "pw"\n')
    config.chmod(0o644)
    (root.parent / "state" / "group-of-config.toml").write_text("root\n")
    _, upgrade = install()
    assert config.stat().st_mode & 0o777 == 0o640 and f"chgrp pentago {config}" in upgrade
    assert config.read_text() == 'profile = "B-6x6"\n[mqtt]\npassword = "pw"\n'
    _, again = install()
    assert not [line for line in again if line.startswith(("chmod", "chgrp"))]


def test_uninstall_removes_the_service_and_keeps_config_and_journal(fake_system):
    install, root = fake_system
    install()
    _, ran = install("--uninstall")
    assert "systemctl disable --now pentago-board.service" in ran and "userdel pentago" in ran
    assert not (root / "etc/systemd/system/pentago-board.service").exists()
    assert not (root / "opt/pentago-board").exists()
    assert not (root / "usr/local/bin/pentago-board").exists()
    assert (root / "etc/pentago-board/config.toml").exists()
    _, again = install("--uninstall")
    assert again == []


def test_the_next_steps_and_the_readme_give_every_boot_line_doctor_asks_of_build_a(fake_system):
    """Issue 22, item 18: build A's config.txt lines were only in hardware/README.md."""
    from controller.daemon.boot_config import needs
    from controller.profile import load_profile

    install, _ = fake_system
    steps, _ = install("--dry-run")
    readme = (ROOT / "README.md").read_text()
    wanted = [need.line for need in needs(load_profile("A-6x6"))]
    assert "dtoverlay=spi0-1cs" in wanted and "enable_uart=0" in wanted
    for line in wanted[1:]:  # dtparam=spi=on is raspi-config's do_spi, named in both
        assert line in steps and f"`{line}`" in readme, line
    assert "Serial Port" in steps and "Serial Port" in readme


def test_the_next_steps_and_the_readme_put_micropython_on_build_b_s_pico_before_the_firmware(fake_system):
    """Issue 22, item 17: neither said that build B's Pico needs MicroPython, then `firmware flash`."""
    install, _ = fake_system
    steps, _ = install("--dry-run")
    readme = (ROOT / "README.md").read_text()
    for said in (steps, readme):
        assert "MicroPython v1.28.0" in said and "BOOTSEL" in said and "firmware flash" in said
    assert steps.index("MicroPython v1.28.0") < steps.index("firmware flash") < steps.index("doctor --config")
    assert "firmware/README.md" in steps and "before `doctor`: [firmware/README.md](firmware/README.md#install" in readme


def test_a_dry_run_never_says_it_installed_or_removed_anything(fake_system):
    """Issue 22, item 21: `--dry-run --uninstall` ended "pentago-board is removed"."""
    install, root = fake_system
    installed, _ = install("--dry-run")
    assert "is installed" not in installed and "Dry run: nothing was installed" in installed
    removed, _ = install("--dry-run", "--uninstall")
    assert "is removed" not in removed and "Dry run: nothing was removed" in removed
    install()
    real, _ = install("--uninstall")
    assert real.strip().endswith("pentago-board is removed; kept /etc/pentago-board/config.toml and the "
                                 "journal in /var/lib/pentago-board.")


def test_the_unit_s_documentation_is_the_installed_guides(fake_system):
    """Issue 22, item 21: Documentation= named systemd's own man page."""
    install, root = fake_system
    install()
    (line,) = [line for line in UNIT.read_text().splitlines() if line.startswith("Documentation=")]
    pages = line.removeprefix("Documentation=").split()
    assert pages and all(page.startswith("file:/opt/pentago-board/doc/") for page in pages)
    for page in pages:
        assert (root / page.removeprefix("file:/")).read_text().startswith("# ")


def test_fast_installs_the_extra_and_the_drop_in_that_lets_the_compiled_search_run(fake_system):
    install, root = fake_system
    _, plain = install()
    assert any(line.endswith("[pi,mqtt]") for line in plain)
    drop_in = root / "etc/systemd/system/pentago-board.service.d/fast-search.conf"
    assert not drop_in.exists()
    _, fast = install("--fast")
    assert any(line.endswith("[pi,mqtt,fast]") for line in fast) and "systemctl daemon-reload" in fast
    assert _sections(drop_in.read_text())["Service"] == {
        "MemoryDenyWriteExecute": "no", "Environment": "NUMBA_CACHE_DIR=/var/lib/pentago-board/numba"}
    _, again = install("--fast")
    assert "systemctl daemon-reload" not in again  # nothing changed
    install("--uninstall")
    assert not drop_in.parent.exists()


def test_an_install_where_udev_does_not_run_says_when_the_rule_applies(fake_system, tmp_path):
    """In a container udevd does not run: `udevadm control --reload-rules` failed and, with
    `set -e`, the install stopped half-way (seen in bench/pi_vm's systemd-nspawn run)."""
    install, root = fake_system
    (tmp_path / "bin/udevadm").write_text('#!/bin/bash\necho "udevadm $*" >> "$STATE/log"\n'
                                          '[ "$2" != --ping ] || exit 1\n')
    out, ran = install()
    assert "udev is not running here" in out and "pentago-board is installed" in out
    assert "udevadm control --reload-rules" not in ran and "systemctl enable pentago-board.service" in ran
    assert (root / "etc/udev/rules.d/99-pentago-mcu.rules").exists()


def test_installer_refuses_unknown_options():
    result = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--bogus"], capture_output=True, text=True)
    assert result.returncode == 2 and "unknown option '--bogus'" in result.stderr


def _sections(text: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        elif "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            current[key] = value
    return sections


def test_a_crash_loop_stops_at_the_start_limit():
    """Restart=on-failure alone restarts every RestartSec for ever (issue 9, item 5): the start
    limit must sit in [Unit] (systemd ignores it in [Service]) and be reachable, i.e. more
    restarts than the burst fit in the interval."""
    sections = _sections(UNIT.read_text())
    unit, service = sections["Unit"], sections["Service"]
    assert "StartLimitIntervalSec" not in service and "StartLimitBurst" not in service
    interval_s, burst = int(unit["StartLimitIntervalSec"]), int(unit["StartLimitBurst"])
    restart_s = int(service["RestartSec"])
    assert 2 <= burst <= 10
    assert burst * restart_s < interval_s, "the loop never hits the limit: each start falls out of the interval"

