"""Repair guidance: the ordered steps that bring the physical board back to the expected one.

Turns come first, because turning a block moves the marbles on it; once every block is back,
the marbles to remove, to put back and to swap follow hole by hole. Steps are recomputed from
each settled snapshot, so the lights always show the first step of what is still wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import Position, hole_name
from .diff import Diff, sensed_colours
from .physical import Physical


@dataclass(frozen=True)
class Step:
    """One thing to do: ``kind`` is "turn", "remove", "put", "swap" or "check"."""

    kind: str
    hole: int | None = None
    block: int | None = None
    clockwise: bool | None = None  # for "turn": the direction to turn the block back
    colour: str | None = None  # for "put" / "swap": the colour that belongs there
    # For "turn": undo a turn; False: a drifted block goes on to its nearer quarter. Only the
    # wording depends on it, so it stays out of the repr the lights quote in their messages.
    back: bool = field(default=True, repr=False)
    # For "remove": the colour the next marble must have, when the sensed one is another.
    due: str | None = field(default=None, repr=False)

    def text(self, position: Position) -> str:
        """The instruction for people, e.g. ``put a white marble on c3``."""
        if self.kind == "turn":
            way = "R" if self.clockwise else "L"
            return f"turn block {self.block} back {way}" if self.back else f"turn block {self.block} {way} to the next quarter"
        name = hole_name(self.hole, position.geometry)  # type: ignore[arg-type]
        if self.kind == "remove" and self.colour:  # the sensors read its colour
            return f"remove the {self.colour} marble on {name}" + (f": the next marble is {self.due}" if self.due else "")
        return {
            "remove": f"remove the marble on {name}",
            "put": f"put a {self.colour} marble on {name}",
            "swap": f"replace the marble on {name} with a {self.colour} one",
            "check": f"check the marble on {name}: its sensor cannot tell",
        }[self.kind]


def repair_steps(diff: Diff, expected: Position, physical: Physical, colours: tuple[str, ...],
                 due: int | None = None) -> list[Step]:
    """The steps from the sensed board to ``expected``, first step first.

    ``due`` is the colour index the next marble placed must have: a marble sensed in another
    colour is no one's move, and its step says which colour is due.
    """
    turns = _turn_steps(diff, physical)
    if turns:
        return turns
    def name(hole: int) -> str:
        """The name of the colour the game expects on ``hole`` (a removed or recoloured one)."""
        colour = expected.colour_at(hole)
        assert colour is not None
        return colours[colour]

    return (
        [_remove(hole, sensed, due, colours) for hole, sensed in diff.added]
        + [Step("swap", hole, colour=name(hole)) for hole, _ in diff.recoloured]
        + [Step("put", hole, colour=name(hole)) for hole in diff.removed]
        + [Step("check", hole) for hole in diff.unsure]
    )


def _turn_steps(diff: Diff, physical: Physical) -> list[Step]:
    """One step per quarter to undo; a torn block turns to the nearest quarter first."""
    steps = []
    for block in diff.torn:
        nearest = physical.nearest(block)
        clockwise = physical.count(block) < nearest * physical.detents
        steps.append(Step("turn", block=block, clockwise=clockwise, back=nearest == 0))
    for block, quarters in diff.turns:
        steps.extend(Step("turn", block=block, clockwise=quarters < 0) for _ in range(abs(quarters)))
    return steps


def _remove(hole: int, sensed: int | None, due: int | None, colours: tuple[str, ...]) -> Step:
    """Remove an added marble, naming its colour when the sensors read one."""
    if sensed is None:
        return Step("remove", hole)
    wrong = due is not None and sensed != due
    return Step("remove", hole, colour=sensed_colours(colours)[sensed], due=colours[due] if wrong else None)  # type: ignore[index]
