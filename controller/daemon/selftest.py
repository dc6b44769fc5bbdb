"""`pentago-board selftest`: walk a person through the hardware and report what does not answer.

1. LED chase: each pixel of the chain lights alone, in chain order (the person watches it run
   hole by hole, then along the arrows, status and card pixels; a gap or a jump is a wiring fault).
2. "Place a marble on each lit hole": lit holes go out as their sensors see a marble; then "lift
   every marble" the same way. A hole that never answers is a dead (or stuck) sensor.
3. "Turn each block": the block's clockwise arrow lights; a quarter turn must arrive as
   ``detents_per_quarter`` clockwise steps. No steps is a dead encoder; steps the wrong way mean
   its A and B wires are swapped.

Each step fails after ``timeout_s`` without progress, so a dead part cannot hang the test.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..drivers.base import InputDriver, PixelOutput
from ..events import EMPTY, UNSURE, EncoderSteps, HoleReading, InputEvent
from ..profile import Profile
from ..rules import hole_name

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)
CHASE: RGB = (255, 255, 255)
ASK: RGB = (0, 120, 255)
CHASE_S = 0.08


@dataclass
class Result:
    """What the self-test found: one line per problem (empty when all is well)."""

    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class SelfTest:
    """Runs the three steps on ``inputs`` and ``pixels`` (built from ``profile``'s factories).

    ``say`` shows an instruction to the person; ``timeout_s`` is how long a step may go without
    progress.
    """

    def __init__(self, profile: Profile, inputs: InputDriver, pixels: PixelOutput, *,
                 say: Callable[[str], None] = print, timeout_s: float = 30.0,
                 chase_s: float = CHASE_S) -> None:
        self.profile, self.inputs, self.pixels = profile, inputs, pixels
        self.say, self.timeout_s, self.chase_s = say, timeout_s, chase_s
        self.events: queue.Queue[InputEvent] = queue.Queue()
        self.geometry = profile.geometry

    def run(self) -> Result:
        result = Result()
        self.inputs.start(self.events.put)
        try:
            self.chase()
            self.drain()
            result.problems += self.holes("place a marble on each lit hole", present=True)
            result.problems += self.holes("lift every marble off the board", present=False)
            for block in range(1, self.geometry.block_count + 1):
                result.problems += self.block(block)
        finally:
            self.inputs.stop()
            self.pixels.close()
        return result

    # -- the steps -----------------------------------------------------------------------------

    def chase(self) -> None:
        length = self.profile.leds.length
        self.say(f"LED chase: {length} pixels light one by one in chain order")
        for index in range(length):
            self.show({index: CHASE})
            time.sleep(self.chase_s)
        self.show({})

    def holes(self, instruction: str, *, present: bool) -> list[str]:
        """Wait until every hole reads ``present`` (a marble) or empty; return dead holes."""
        waiting = set(range(self.geometry.hole_count))
        self.light_holes(waiting)
        self.say(instruction)
        while waiting:
            event = self.next_event()
            if event is None:
                break
            if isinstance(event, HoleReading) and event.hole in waiting and _is_marble(event.reading) == present:
                waiting.discard(event.hole)
                self.light_holes(waiting)
        state = "a marble" if present else "the marble gone"
        return [f"dead sensor: {self.name(h)} never saw {state}" for h in sorted(waiting)]

    def block(self, block: int) -> list[str]:
        """Ask for a clockwise quarter turn of ``block``; return what went wrong."""
        need = self.profile.detents_per_quarter
        self.show({i: ASK for i in self.profile.leds.arrow_pixels.get((block, True), ())})
        self.say(f"turn block {block} a quarter turn clockwise")
        steps = 0
        while abs(steps) < need:
            event = self.next_event()
            if event is None:
                break
            if isinstance(event, EncoderSteps) and event.block == block:
                steps += event.steps
        self.show({})
        if steps <= -need:
            return [f"encoder of block {block} counts backwards: swap its A and B wires "
                    "(or its pins in the profile)"]
        if steps < need:
            return [f"dead encoder: block {block} sent {steps} of {need} steps"]
        return []

    # -- helpers -------------------------------------------------------------------------------

    def next_event(self) -> InputEvent | None:
        """The next input, or None when the step went ``timeout_s`` without one."""
        try:
            return self.events.get(timeout=self.timeout_s)
        except queue.Empty:
            return None

    def drain(self) -> None:
        """Forget the start-up readings, so each step judges only what the person does."""
        while not self.events.empty():
            self.events.get_nowait()

    def light_holes(self, holes: set[int]) -> None:
        pixel = self.profile.leds.hole_pixel
        self.show({pixel[h]: ASK for h in holes if h in pixel})

    def show(self, lit: dict[int, RGB]) -> None:
        self.pixels.show([lit.get(i, OFF) for i in range(self.profile.leds.length)])

    def name(self, hole: int) -> str:
        return hole_name(hole, self.geometry)


def _is_marble(reading: str) -> bool:
    return reading not in (EMPTY, UNSURE)
