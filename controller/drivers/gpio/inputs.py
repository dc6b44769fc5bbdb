"""The GPIO input driver (build A): reed matrix, one rotary encoder per block, push buttons."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gpiozero.pins import Factory

from ...errors import ProfileError
from ...events import EMPTY, MARBLE, EncoderSteps, HoleReading, InputEvent
from ..base import Emit
from .buttons import GpioButtons
from .debounce import Debouncer
from .cdev import kernel_bank
from .encoders import GpiozeroEncoders, KernelEncoders
from .kernel_matrix import KernelMatrix
from .matrix import ReedMatrix

if TYPE_CHECKING:
    from ...profile import GpioPins, Profile

log = logging.getLogger(__name__)
Clock = Callable[[], float]


class GpioInputs:
    """Reads the board straight from Pi GPIO pins and emits settled events.

    Wiring (all pins BCM numbers from the profile's ``[gpio]`` table):

    - holes: a diode matrix of reed switches, see :class:`.matrix.ReedMatrix` (rows driven
      low one at a time, columns with pull-ups, diode cathodes towards the rows);
    - encoders: one quadrature encoder per block, in block order, common pin to GND, A and B
      on the two pins with the Pi's pull-ups. Turning the block clockwise seen from above must
      make A change before B; if a block counts backwards, swap its two pins in the profile;
    - buttons: each between its pin and GND, with the Pi's pull-up (:class:`.buttons.GpioButtons`).

    The scan thread (or a caller of :meth:`scan`) reads the matrix every ``scan_interval_ms``
    while anything on the board changed in the last ``busy_s``, and every
    ``rest_scan_interval_ms`` otherwise (a change is still seen within that, under 20 ms, and a
    board at rest costs a third of the scans); a hole's new state must hold for ``debounce_ms``
    before it is emitted. On a Pi every line is requested from the kernel's GPIO chip
    (:mod:`.cdev`): the matrix as :class:`.kernel_matrix.KernelMatrix`, which sleeps until a
    marble drops while the board is empty, and the encoders' and buttons' edges on threads that
    sleep while nothing moves. Given a ``pin_factory`` (or where no Pi's chip is) all go
    through gpiozero. Encoder steps and presses arrive on those threads (or gpiozero's event
    thread), so ``emit`` must be thread-safe (a queue's put).
    """

    def __init__(
        self,
        size: int,
        pins: GpioPins,
        buttons: Mapping[str, int],
        *,
        debounce_ms: float = 30.0,
        scan_interval_ms: float | None = 5.0,
        rest_scan_interval_ms: float = 15.0,
        busy_s: float = 2.0,
        clock: Clock = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        self._clock = clock
        self._debounce_s = debounce_ms / 1000
        self._interval_s = None if scan_interval_ms is None else scan_interval_ms / 1000
        self._rest_s, self._busy_s = max(rest_scan_interval_ms / 1000, self._interval_s or 0), busy_s
        self._changed_at = -busy_s
        if len(pins.matrix_holes) != size * size:
            raise ProfileError(
                f"gpio matrix_holes has {len(pins.matrix_holes)} holes for a {size}x{size} board"
            )
        chip = kernel_bank(pin_factory)
        self._encoders = (GpiozeroEncoders(pins.encoders, pin_factory) if chip is None
                          else KernelEncoders(chip, pins.encoders))
        self._buttons = GpioButtons(buttons, clock=clock, pin_factory=pin_factory)
        self._matrix = (ReedMatrix(pins.matrix_rows, pins.matrix_columns, pins.matrix_holes, pin_factory)
                        if chip is None else
                        KernelMatrix(pins.matrix_rows, pins.matrix_columns, pins.matrix_holes, chip))
        self._debouncer: Debouncer | None = None
        self._emit: Emit | None = None
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def matrix(self) -> ReedMatrix | KernelMatrix:
        """The matrix reader in use (KernelMatrix on a Pi's chip, else ReedMatrix)."""
        return self._matrix

    @classmethod
    def from_profile(cls, profile: Profile, **overrides: object) -> GpioInputs:
        """The driver for ``profile`` (its ``gpio`` pins and ``buttons``)."""
        if profile.gpio is None:
            raise ProfileError(f"profile {profile.name!r} uses the gpio driver but has no [gpio] pins")
        return cls(profile.size, profile.gpio, profile.buttons, **overrides)  # type: ignore[arg-type]

    def start(self, emit: Emit) -> None:
        """Emit every hole's reading, then report changes (scan thread unless interval None)."""
        self._emit = emit
        first = self._matrix.read()
        self._debouncer = Debouncer(first, self._debounce_s)
        now = self._clock()
        for hole, closed in enumerate(first):
            emit(HoleReading(now, hole, MARBLE if closed else EMPTY))
        self._hook_callbacks()
        if self._interval_s is not None:
            self._thread = threading.Thread(target=self._run, name="gpio-scan", daemon=True)
            self._thread.start()

    def scan(self) -> None:
        """Read the matrix once and emit the holes whose new state has settled."""
        debouncer, emit = self._debouncer, self._emit
        if debouncer is None or emit is None:
            return
        raw = self._matrix.read()
        if raw == debouncer.settled and not debouncer.pending:
            return  # the board at rest: nothing to debounce, nothing to say
        now = self._changed_at = self._clock()
        for hole, closed in enumerate(raw):
            if debouncer.update(hole, closed, now):
                emit(HoleReading(now, hole, MARBLE if closed else EMPTY))

    def stop(self) -> None:
        """Stop the scan thread and release every pin. Safe to call twice."""
        self._halt.set()
        if self._thread is not None:
            self._matrix.wake()
            self._thread.join()
            self._thread = None
        self._emit = None
        if not self._closed:
            self._closed = True
            self._buttons.stop()
            self._encoders.close()
            self._matrix.close()

    def _pause_s(self) -> float:
        busy = self._clock() - self._changed_at < self._busy_s
        return self._interval_s if busy and self._interval_s else self._rest_s

    def _run(self) -> None:
        while not self._halt.is_set():
            self._matrix.wait(self._pause_s())
            if self._halt.is_set():
                return
            try:
                self.scan()
            except Exception:  # a GPIO hiccup must not end the scanning for good
                log.exception("matrix scan failed; retrying on the next scan")

    def _hook_callbacks(self) -> None:
        self._encoders.start(self._step)
        self._buttons.start(self._emit_now)

    def _step(self, block: int, sign: int) -> None:
        self._emit_now(EncoderSteps(self._clock(), block, sign))

    def _emit_now(self, event: InputEvent) -> None:
        emit = self._emit
        if emit is not None:
            emit(event)

