#!/usr/bin/python3
"""The bench's hands inside the VM: runs the shell commands the host sends over a virtio-serial
port and answers with their exit code and output, one JSON line each way.

Installed in the image by image.py as a root service; it needs nothing but Python's standard
library, and it knows nothing of pentago-board. On start it says hello with the guest's uptime.
"""

import json
import os
import subprocess
import time

PORT = "/dev/virtio-ports/pentago-bench"


def uptime_s():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def answer(port, message):
    os.write(port, (json.dumps(message) + "\n").encode())


def run(request):
    started = time.monotonic()
    try:
        done = subprocess.run(["/bin/bash", "-c", request["sh"]], capture_output=True,
                              timeout=request.get("timeout", 300), stdin=subprocess.DEVNULL)
        rc, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        rc, out, err = 124, expired.stdout or b"", (expired.stderr or b"") + b"\nagent: timed out"
    return {"id": request["id"], "rc": rc, "out": out.decode(errors="replace"),
            "err": err.decode(errors="replace"), "secs": time.monotonic() - started}


def main():
    port = os.open(PORT, os.O_RDWR)
    answer(port, {"hello": uptime_s()})
    pending = b""
    while True:
        chunk = os.read(port, 65536)
        if not chunk:
            time.sleep(0.05)  # the host is not connected: nothing to read yet
            continue
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if line.strip():
                answer(port, run(json.loads(line)))


if __name__ == "__main__":
    main()
