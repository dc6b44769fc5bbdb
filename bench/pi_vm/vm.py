"""One KVM virtual machine booting the bench's image, and the host's end of its agent.

``Vm(disk, kernel, initrd, payload, workdir).boot()`` starts qemu-system-x86_64 with KVM on a
copy-on-write overlay of the cached image (so every run starts from the same disk and a power
cut damages only the overlay), Debian's kernel given to qemu directly, the payload disk
read-only, no network, and the agent's virtio-serial port on a unix socket. ``sh`` runs a shell
command in the guest as root. ``power_cut`` kills qemu (SIGKILL: the guest gets no chance to
write anything more); ``boot`` again starts the same disk.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


class GuestError(RuntimeError):
    """A command in the guest failed, or the guest did not answer."""


@dataclass
class Result:
    rc: int
    out: str
    err: str
    secs: float


class Vm:
    def __init__(self, disk: Path, kernel: Path, initrd: Path, payload: Path, workdir: Path, *,
                 memory_mb: int = 1024, cpus: int = 2, append: str = "") -> None:
        self.kernel, self.initrd, self.payload, self.workdir = kernel, initrd, payload, workdir
        self.memory_mb, self.cpus, self.append = memory_mb, cpus, append
        self.accel, self.accel_reason = accelerator()
        self.overlay = workdir / "overlay.qcow2"
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(disk), "-F", "raw",
                        str(self.overlay)], check=True)
        self.socket_path = workdir / "agent.sock"
        self.console = workdir / "console.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._pending = b""
        self._next_id = 0

    def boot(self, timeout_s: float = 120) -> float:
        """Start the VM; the seconds until its agent says hello (kernel, systemd, agent)."""
        self.socket_path.unlink(missing_ok=True)
        started = time.monotonic()
        self.process = subprocess.Popen(self._argv(), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=open(self.workdir / "qemu.err", "ab"))
        self._sock = self._connect(started + 30)
        hello = self._receive(started + timeout_s)
        if "hello" not in hello:
            raise GuestError(f"the agent's first line was not a hello: {hello}")
        return time.monotonic() - started

    def _argv(self) -> list[str]:
        return [
            "qemu-system-x86_64", "-machine", f"q35,accel={self.accel}", "-cpu", CPU[self.accel],
            "-smp", str(self.cpus), "-m", str(self.memory_mb), "-display", "none",
            "-no-reboot", "-nic", "none", "-monitor", "none",
            "-serial", f"file:{self.console}",
            "-kernel", str(self.kernel), "-initrd", str(self.initrd),
            "-append", f"root=/dev/vda rw console=ttyS0 panic=-1 quiet {self.append}".strip(),
            "-drive", f"file={self.overlay},if=virtio,format=qcow2",
            "-drive", f"file={self.payload},if=virtio,format=raw,readonly=on",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=bench,path={self.socket_path},server=on,wait=on",
            "-device", "virtserialport,chardev=bench,name=pentago-bench",
        ]

    def _connect(self, deadline: float) -> socket.socket:
        while True:
            self._check_alive()
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(str(self.socket_path))
                return sock
            except (FileNotFoundError, ConnectionRefusedError):
                sock.close()
                if time.monotonic() > deadline:
                    raise GuestError("qemu never opened the agent's socket") from None
                time.sleep(0.05)

    def sh(self, command: str, *, timeout_s: float = 1200, check: bool = True) -> Result:
        """Run ``command`` with bash in the guest, as root; GuestError if it fails and ``check``."""
        self._next_id += 1
        request = {"id": self._next_id, "sh": command, "timeout": timeout_s}
        assert self._sock is not None, "the VM is not running"
        self._sock.sendall((json.dumps(request) + "\n").encode())
        while True:
            reply = self._receive(time.monotonic() + timeout_s + 30)
            if reply.get("id") == self._next_id:
                break
        result = Result(reply["rc"], reply["out"], reply["err"], reply["secs"])
        if check and result.rc != 0:
            raise GuestError(f"guest: {command!r} exited {result.rc}\n{result.out[-2000:]}{result.err[-2000:]}")
        return result

    def _receive(self, deadline: float) -> dict:
        assert self._sock is not None
        while b"\n" not in self._pending:
            self._check_alive()
            self._sock.settimeout(max(0.1, min(1.0, deadline - time.monotonic())))
            try:
                chunk = self._sock.recv(1 << 20)
            except TimeoutError:
                chunk = None
            if chunk == b"":
                raise GuestError("the agent's socket closed")
            if chunk:
                self._pending += chunk
            if time.monotonic() > deadline:
                raise GuestError(f"the guest did not answer in time (console: {self.console})")
        line, self._pending = self._pending.split(b"\n", 1)
        return json.loads(line)

    def _check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise GuestError(f"qemu exited with {self.process.returncode}: "
                             f"{(self.workdir / 'qemu.err').read_text()[-1500:]}")

    def power_cut(self) -> None:
        """Pull the plug: qemu is killed outright, the guest writes nothing more."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self._drop()

    def shutdown(self, timeout_s: float = 60) -> None:
        """A clean power-off (systemctl poweroff), or a kill when it takes too long."""
        if self.process is None:
            return
        if self.process.poll() is None and self._sock is not None:
            try:
                self._sock.sendall((json.dumps({"id": 0, "sh": "systemctl poweroff"}) + "\n").encode())
                self.process.wait(timeout_s)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self._drop()

    def _drop(self) -> None:
        if self._sock is not None:
            self._sock.close()
        self._sock, self.process, self._pending = None, None, b""

    def __enter__(self) -> Vm:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._drop()


# nested KVM refuses the host's IA32_ARCH_CAPABILITIES MSR: leave that feature out
CPU = {"kvm": "host,-arch-capabilities", "tcg": "max"}  # wheels built for x86-64-v2 and up need more than qemu64


def accelerator() -> tuple[str, str]:
    """("kvm", why) when KVM can run Debian's kernel here, else ("tcg", why not).

    /dev/kvm alone does not say so: on a host whose KVM is PVM (the kvm_pvm module, nested
    virtualisation without hardware support) only a kernel built as a PVM guest boots, and
    Debian's stops right after its real-mode setup. Then qemu emulates the CPU (TCG): the
    same guest, several times slower."""
    try:
        os.close(os.open("/dev/kvm", os.O_RDWR))
    except OSError as error:
        return "tcg", f"/dev/kvm: {error.strerror}"
    if Path("/sys/module/kvm_intel").exists() or Path("/sys/module/kvm_amd").exists():
        return "kvm", "hardware KVM (kvm_intel/kvm_amd)"
    if Path("/sys/module/kvm_pvm").exists():
        return "tcg", "/dev/kvm is PVM (kvm_pvm), which boots only PVM guest kernels, not Debian's"
    return "tcg", "no KVM module for this CPU"
