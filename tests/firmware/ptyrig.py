"""A simulated Pico on the master end of a pty: the firmware's App running in a thread on
SimBoard, reachable by any host code that opens ``rig.port`` (the slave end)."""

import fcntl
import os
import threading
import time
import tty

import boardconfig
from app import App
from sim import SimBoard


class PtyBoard(SimBoard):
    """The simulated board with its serial side on the master end of a pty."""

    def __init__(self, config, master_fd):
        super().__init__(config)
        self.fd = master_fd
        flags = fcntl.fcntl(master_fd, fcntl.F_GETFL)
        fcntl.fcntl(master_fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)

    def read(self):
        try:
            return os.read(self.fd, 256)
        except OSError:   # BlockingIOError: nothing yet; EIO: no one has the slave open
            return b""

    def write(self, data):
        view = memoryview(bytes(data))
        while view:
            try:
                view = view[os.write(self.fd, view):]
            except BlockingIOError:
                time.sleep(0.001)


class PtyPico:
    """Start with ``start()``, end with ``close()``; ``board`` is the field, ``app`` the firmware."""

    def __init__(self, size=6, calibration_file=os.devnull + "/none"):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.board = PtyBoard(boardconfig.parse(boardconfig.default(size)), self.master)
        self.board.noise_counts = 400
        self.app = App(self.board.config, self.board, calibration_file=calibration_file)
        for hole in range(self.board.config.hole_count):
            self.app.calibration.set_baseline(hole, self.board.rest[hole])
        self._thread = threading.Thread(target=self.app.run, name="firmware", daemon=True)

    def start(self):
        self.app.start()
        self._thread.start()
        return self

    def close(self):
        self.app.running = False
        self._thread.join(timeout=5)
        os.close(self.master)
        os.close(self.slave)
