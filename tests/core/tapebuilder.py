"""Compose physical actions into a timed, noisy tape (a test helper, not product code).

A :class:`TapeBuilder` simulates the wooden board: marbles sit in holes, blocks turn with their
marbles, sensors report only changes. Each verb (put a marble, lift it, roll it across holes,
turn a block slowly or with a missed detent, press a button) appends the events a real board
would send, with the jitter of human hands: bounces, flickering holes under a turning block.
The randomness is seeded, so a scenario always builds the same tape.

>>> b = TapeBuilder(seed=1)
>>> _ = b.put("c3").pause(1.0)
>>> b.marbles
{14: 0}
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from controller.rules import geometry, hole_name, parse_hole

QUICK = (0.01, 0.05)  # seconds between the events of one physical gesture: below any settle time
FAST_GAP_S = (0.1, 0.3)  # quick hands: between one physical action and the next (issue 23)
FAST_DETENT_S = (0.035, 0.07)  # quick hands: between two detents of a twist


class TapeBuilder:
    """A simulated board that writes down every sensor change as a tape event."""

    def __init__(self, *, size: int = 6, sensing: str = "presence", detents: int = 6, seed: int = 0,
                 colours: tuple[str, ...] = ("white", "black"), options: dict[str, Any] | None = None) -> None:
        self.g = geometry(size)
        self.sensing, self.detents, self.colours = sensing, detents, colours
        self.options = dict(options or {})
        self.rng = random.Random(seed)
        self.t = 0.0
        self.events: list[dict[str, Any]] = []
        self.marbles: dict[int, int] = {}  # hole -> colour index
        self.sensed = ["empty"] * self.g.hole_count
        self.seat = 1  # whose marble a plain put() places: follows the moves played with play()

    # -- time ----------------------------------------------------------------------------------

    def pause(self, seconds: float | None = None) -> TapeBuilder:
        """Hands off the board for ``seconds`` (a human pause of 0.5-1.2 s by default)."""
        self.t += seconds if seconds is not None else self.rng.uniform(0.5, 1.2)
        return self

    def _tick(self) -> None:
        self.t += self.rng.uniform(*QUICK)

    # -- marbles -------------------------------------------------------------------------------

    def put(self, hole: str | int, colour: int | None = None, *, bounce: int = 0) -> TapeBuilder:
        """Put a marble (the current seat's colour by default); it may bounce out and back."""
        h = self._hole(hole)
        colour = self.seat - 1 if colour is None else colour
        for _ in range(bounce):
            self._report(h, self._reading(colour))
            self._report(h, "empty")
        self.marbles[h] = colour
        self._report(h, self._reading(colour))
        return self

    def lift(self, hole: str | int) -> TapeBuilder:
        h = self._hole(hole)
        del self.marbles[h]
        self._report(h, "empty")
        return self

    def roll(self, holes: list[str | int], colour: int | None = None) -> TapeBuilder:
        """A marble dropped on the first hole rolls over the others and stays on the last."""
        colour = self.seat - 1 if colour is None else colour
        path = [self._hole(h) for h in holes]
        for h in path[:-1]:
            self._report(h, self._reading(colour))
            self._report(h, "empty")
        return self.put(path[-1], colour)

    def glitch(self, hole: str | int, seconds: float) -> TapeBuilder:
        """A resting sensor misreads for ``seconds``, then reads the truth again: an occupied hole
        reads empty (or, sensing polarity, the other colour), an empty one reads a marble."""
        h = self._hole(hole)
        truth = self.sensed[h]
        if truth == "empty":
            wrong = self._reading(self.rng.randrange(len(self.colours)))
        else:
            wrong = self.rng.choice(["empty"] + [r for r in map(self._reading, range(len(self.colours))) if r != truth])
        self._report(h, wrong)
        self.t += seconds
        self._report(h, truth)
        return self

    # -- blocks --------------------------------------------------------------------------------

    def turn(self, block: int, quarters: int, *, steps: int | None = None, slow: bool = False,
             detent_s: tuple[float, float] | None = None) -> TapeBuilder:
        """Turn ``block`` by ``quarters`` (clockwise positive); the encoder reports ``steps``.

        ``steps`` defaults to the true count; give one less for a missed detent. A slow turn
        pauses longer than the settle time between detents; ``detent_s`` draws the time between
        detents from its range instead. The block's holes flicker while the marbles travel over
        them and report the turned marbles at the end.
        """
        count = quarters * self.detents if steps is None else steps
        sign = 1 if count > 0 else -1
        holes = self.g.block_holes[block - 1]
        between = detent_s or ((0.2, 0.26) if slow else QUICK)
        for step in range(abs(count)):
            self._flicker(self._off_centre(block), leaving=step == 0)
            self.events.append({"t": self._now(), "block": block, "steps": sign})
            self.t += self.rng.uniform(*between)
        self._rotate(block, quarters)
        for h in holes:
            self._report(h, self._reading(self.marbles[h]) if h in self.marbles else "empty")
        return self

    def nudge(self, block: int, steps: int) -> TapeBuilder:
        """Rock ``block`` a few detents that the encoder counts while its marbles settle back
        into their holes: how a person works off a drifted count, following the arrow."""
        for _ in range(abs(steps)):
            self.events.append({"t": self._now(), "block": block, "steps": 1 if steps > 0 else -1})
            self._tick()
        return self

    def half_turn_off(self, block: int, steps: int) -> TapeBuilder:
        """Turn ``block`` part of the way (``steps`` detents, not a quarter): its marbles sit
        between the sensors, which read empty until :meth:`turn` finishes or undoes it (all but
        the centre's, which turns in place)."""
        holes = self._off_centre(block)
        for _ in range(abs(steps)):
            self.events.append({"t": self._now(), "block": block, "steps": 1 if steps > 0 else -1})
            self._tick()
        for h in holes:
            self._report(h, "empty")
        return self

    # -- whole moves ---------------------------------------------------------------------------

    def play(self, move: str, *, bounce: int = 0, roll: int = 0, slow: bool = False,
             steps: int | None = None, quick: bool = False) -> TapeBuilder:
        """Play a classic move by the seat to move: place, pause (unless ``quick``), twist.

        ``bounce`` makes the marble bounce that often; ``roll`` rolls it over that many other
        empty holes first; ``steps`` is the encoder count of the twist (for a missed detent).
        """
        words = move.split()
        if roll:
            target = self._hole(words[0])
            free = [h for h in range(self.g.hole_count) if h not in self.marbles and h != target]
            self.roll(self.rng.sample(free, roll) + [target])
        else:
            self.put(words[0], bounce=bounce)
        if len(words) == 2:
            self.pause(self.rng.uniform(*QUICK) if quick else None)
            block, clockwise = int(words[1][0]), words[1][1].upper() == "R"
            self.turn(block, 1 if clockwise else -1, steps=None if steps is None else (steps if clockwise else -steps), slow=slow)
        self.seat = self.seat % 2 + 1
        return self.pause()

    def play_fast(self, move: str, *, bounce: int = 0, gap_s: tuple[float, float] = FAST_GAP_S,
                  detent_s: tuple[float, float] = FAST_DETENT_S) -> TapeBuilder:
        """Play a move by the seat to move as quick hands do: ``gap_s`` between the marble's
        landing and the twist's first detent and after the twist's last reading, detents
        ``detent_s`` apart; the marble may bounce. A move of the 9x9 board's family is a classic
        move in notation, so this plays those too (set :attr:`seat` first)."""
        words = move.split()
        self.put(words[0], bounce=bounce)
        self.pause(self.rng.uniform(*gap_s))
        if len(words) == 2:
            block, clockwise = int(words[1][:-1]), words[1][-1].upper() == "R"
            self.turn(block, 1 if clockwise else -1, detent_s=detent_s)
            self.pause(self.rng.uniform(*gap_s))
        self.seat = self.seat % 2 + 1
        return self

    def button(self, name: str) -> TapeBuilder:
        self.events.append({"t": self._now(), "button": name})
        return self.pause()

    def link(self, up: bool) -> TapeBuilder:
        self.events.append({"t": self._now(), "link": "up" if up else "down"})
        self._tick()
        return self

    # -- output --------------------------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        return {"tape": 1, "board": f"{self.g.size}x{self.g.size}", "sensing": self.sensing,
                "detents_per_quarter": self.detents, "game": "classic", **self.options}

    def lines(self) -> list[str]:
        return [json.dumps(self.header())] + [json.dumps(e) for e in self.events]

    def write(self, path: Path) -> None:
        path.write_text("\n".join(self.lines()) + "\n")

    # -- inside --------------------------------------------------------------------------------

    def _hole(self, hole: str | int) -> int:
        return hole if isinstance(hole, int) else parse_hole(hole, self.g)

    def _reading(self, colour: int) -> str:
        return "marble" if self.sensing == "presence" else self.colours[colour]

    def _now(self) -> float:
        return round(self.t, 3)

    def _report(self, hole: int, reading: str) -> None:
        if self.sensed[hole] != reading:
            self.sensed[hole] = reading
            self.events.append({"t": self._now(), "hole": hole_name(hole, self.g), "reading": reading})
            self._tick()

    def _flicker(self, holes: tuple[int, ...], *, leaving: bool = False) -> None:
        """Marbles passing over sensors: a random hole of the block reads something, or nothing.

        ``leaving``: before the first detent counts (15 degrees) the marbles may move off their
        sensors, but none can reach another one yet: a hole can only lose its marble.
        """
        hole = self.rng.choice(holes)
        options = ["empty"] + [self._reading(c) for c in range(len(self.colours))]
        reading = self.rng.choice(options)
        if not leaving or reading == "empty":
            self._report(hole, reading)

    def _off_centre(self, block: int) -> tuple[int, ...]:
        """The block's holes but its centre: a marble there turns in place, over its sensor."""
        return tuple(h for h in self.g.block_holes[block - 1] if h != self.g.centres[block - 1])

    def _rotate(self, block: int, quarters: int) -> None:
        for _ in range(abs(quarters)):
            clockwise = quarters > 0
            moved = {}
            for h in self.g.block_holes[block - 1]:
                if h in self.marbles:
                    to = self.g.rotate(1 << h, block, clockwise).bit_length() - 1
                    moved[to] = self.marbles.pop(h)
            self.marbles.update(moved)
