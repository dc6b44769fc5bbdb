"""The VM's disk: Debian 12 for amd64 from debootstrap, with Debian's kernel, cached.

``base_image(cache)`` builds (once) a directory tree with debootstrap from the mirror apt is
configured with (mirror.py), adds the bench's agent (guest_agent.py), a user ``pi`` with sudo as
on a Raspberry Pi, and pip pointed at the host's wheelhouse (the VM has no network), then packs
it into an ext4 image with ``mkfs.ext4 -d`` (no loop mount). The kernel and its initrd are
copied beside it for qemu's -kernel/-initrd. Each run boots a copy-on-write overlay of it.

``payload_image(...)`` packs what a run brings: the checkout as a git bundle (the hobbyist's
``git clone``), the wheelhouse (pip download on the host, from constraints.txt), and any extra
files (the GPIO chip's module).

Needs root (debootstrap, file ownership in the image) and Debian's debootstrap and e2fsprogs.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from mirror import debian_mirror  # noqa: E402

# What the hobbyist's Raspberry Pi OS has that a minimal Debian lacks, and the kernel.
PACKAGES = ["systemd-sysv", "udev", "dbus", "linux-image-amd64", "initramfs-tools", "kmod",
            "python3", "python3-venv", "git", "sudo", "procps", "e2fsprogs", "gpiod"]
# Timers that would wake during a measurement on a VM that lives for minutes.
MASKED = ["apt-daily.timer", "apt-daily-upgrade.timer", "e2scrub_all.timer", "fstrim.timer",
          "systemd-tmpfiles-clean.timer"]
ROOT_SIZE = "4G"  # sparse: the image takes the space its files take
AGENT_UNIT = """\
[Unit]
Description=pentago-board bench agent (commands from the host over virtio-serial)
BindsTo=dev-virtio\\x2dports-pentago\\x2dbench.device
After=dev-virtio\\x2dports-pentago\\x2dbench.device

[Service]
ExecStart=/usr/bin/python3 /usr/local/lib/pentago-bench/guest_agent.py
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
"""
FSTAB = """\
/dev/vda / ext4 defaults,errors=remount-ro 0 1
/dev/vdb /media/payload ext4 ro,nofail 0 2
"""
PIP_CONF = """\
# The VM has no network: pip installs from the wheelhouse the host downloaded (pip download,
# constraints.txt), the same packages a Raspberry Pi would fetch from PyPI.
[global]
no-index = true
find-links = /media/payload/wheels
"""


def cache_dir() -> Path:
    base = os.environ.get("PI_VM_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pentago-board/pi_vm"
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _key() -> str:
    """Changes when what goes into the image changes (packages, its configuration, the agent)."""
    digest = hashlib.sha256()
    for part in (" ".join(PACKAGES + MASKED), AGENT_UNIT, FSTAB, PIP_CONF, inspect.getsource(_configure),
                 (HERE / "guest_agent.py").read_text()):
        digest.update(part.encode())
    return digest.hexdigest()[:12]


def base_image(cache: Path, say=print) -> tuple[Path, Path, Path, dict[str, float]]:
    """(disk image, kernel, initrd, build seconds by step; empty when cached)."""
    where = cache / f"base-{_key()}"
    disk, kernel, initrd = where / "root.img", where / "vmlinuz", where / "initrd.img"
    if disk.exists() and kernel.exists() and initrd.exists():
        return disk, kernel, initrd, {}
    for old in cache.glob("base-*"):
        shutil.rmtree(old, ignore_errors=True)
    where.mkdir(parents=True)
    tree = where / "tree"
    took: dict[str, float] = {}
    mirror = debian_mirror()
    say(f"pi_vm: debootstrap bookworm (amd64) from {mirror} ...")
    t0 = time.monotonic()
    _sh(["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", "bookworm",
         str(tree), mirror], quiet=True)
    took["debootstrap_s"] = time.monotonic() - t0
    t0 = time.monotonic()
    _configure(tree)
    (kernel_file,) = sorted((tree / "boot").glob("vmlinuz-*"))[-1:]
    (initrd_file,) = sorted((tree / "boot").glob("initrd.img-*"))[-1:]
    shutil.copy(kernel_file, kernel)
    shutil.copy(initrd_file, initrd)
    _sh(["mkfs.ext4", "-q", "-F", "-L", "pentago-root", "-d", str(tree), str(disk), ROOT_SIZE])
    took["pack_s"] = time.monotonic() - t0
    (where / "kernel-version").write_text(kernel_file.name.removeprefix("vmlinuz-"))
    shutil.rmtree(tree)
    return disk, kernel, initrd, took


def kernel_version(disk: Path) -> str:
    return (disk.parent / "kernel-version").read_text().strip()


def _configure(tree: Path) -> None:
    (tree / "etc/hostname").write_text("pentago-vm\n")
    (tree / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 pentago-vm\n")
    (tree / "etc/fstab").write_text(FSTAB)
    (tree / "media/payload").mkdir(parents=True, exist_ok=True)
    (tree / "etc/pip.conf").write_text(PIP_CONF)
    agent = tree / "usr/local/lib/pentago-bench"
    agent.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "guest_agent.py", agent / "guest_agent.py")
    (tree / "etc/systemd/system/pentago-bench-agent.service").write_text(AGENT_UNIT)
    _chroot(tree, "useradd --create-home --shell /bin/bash --groups sudo pi && passwd -d root")
    (tree / "etc/sudoers.d/pi").write_text("pi ALL=(ALL) NOPASSWD: ALL\n")
    (tree / "etc/sudoers.d/pi").chmod(0o440)
    _sh(["systemctl", f"--root={tree}", "enable", "pentago-bench-agent.service"], quiet=True)
    _sh(["systemctl", f"--root={tree}", "mask", *MASKED], quiet=True)
    shutil.rmtree(tree / "var/cache/apt/archives", ignore_errors=True)
    (tree / "var/cache/apt/archives/partial").mkdir(parents=True)


def payload_image(path: Path, files: dict[str, Path], size: str = "1G") -> Path:
    """An ext4 image holding ``files`` (name in the image -> file or folder on the host)."""
    tree = payload_dir(path.with_suffix(".tree"), files)
    _sh(["mkfs.ext4", "-q", "-F", "-L", "payload", "-d", str(tree), str(path), size])
    shutil.rmtree(tree)
    return path


def payload_dir(tree: Path, files: dict[str, Path]) -> Path:
    """A folder holding ``files`` (name in it -> file or folder on the host), made afresh."""
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    for name, source in files.items():
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    return tree


# The bundle's one branch: named for this run, as the repository's worktrees share their
# branches and two benches at once must not bundle each other's checkout (not the PID: a
# container run is PID 1 of a namespace of its own).
BUNDLE_BRANCH = f"pi-vm-bench-{secrets.token_hex(4)}"


def checkout_bundle(path: Path, ref: str | None = None) -> Path:
    """The checkout as a git bundle of BUNDLE_BRANCH: ``ref``, or the work tree with its
    uncommitted changes to tracked files (git stash create makes a commit of them without
    touching the work tree or the stash)."""
    if ref is None:
        ref = subprocess.run(["git", "stash", "create"], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "HEAD"
    _sh(["git", "branch", "-f", BUNDLE_BRANCH, ref], cwd=ROOT, quiet=True)
    try:
        _sh(["git", "bundle", "create", str(path), BUNDLE_BRANCH], cwd=ROOT, quiet=True)
    finally:
        _sh(["git", "branch", "-D", BUNDLE_BRANCH], cwd=ROOT, quiet=True)
    return path


def wheelhouse(cache: Path, extras: str = "pi,mqtt", also: tuple[str, ...] = ()) -> Path:
    """Every wheel the guest's pip needs for ``systemd/install.sh`` (the project's extras at the
    constraints' versions, setuptools to build the project) and ``also``, for this machine's
    architecture (the guest's: amd64, Python 3.11). Cached by the constraints' contents."""
    constraints = ROOT / "constraints.txt"
    key = hashlib.sha256(constraints.read_bytes() + (ROOT / "pyproject.toml").read_bytes()
                         + f"{extras} {also}".encode()).hexdigest()[:12]
    where = cache / f"wheels-{key}"
    if not where.exists():
        for old in cache.glob("wheels-*"):
            shutil.rmtree(old, ignore_errors=True)
        part = where.with_suffix(".part")
        shutil.rmtree(part, ignore_errors=True)
        _sh([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
             "--dest", str(part), "--constraint", str(constraints), f"{ROOT}[{extras}]",
             "setuptools>=68", "wheel", *also], quiet=True)
        for sdist in part.glob("pentago_board-*"):
            sdist.unlink()  # the project comes from the checkout, never from the wheelhouse
        part.rename(where)
    return where


def _chroot(tree: Path, command: str) -> None:
    _sh(["chroot", str(tree), "/bin/sh", "-c", command], quiet=True)


def _sh(argv: list[str], *, cwd: Path | None = None, quiet: bool = False) -> None:
    result = subprocess.run(argv, cwd=cwd, capture_output=quiet, text=True)
    if result.returncode != 0:
        detail = (result.stdout or "")[-3000:] + (result.stderr or "")[-3000:] if quiet else ""
        raise RuntimeError(f"{' '.join(argv[:4])} ... failed with exit {result.returncode}\n{detail}")
