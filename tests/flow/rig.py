"""A virtual board wired to a real core with a fake clock, for table-driven flow tests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from controller.core import Core
from controller.games import Catalogue, PictureStore
from controller.drivers.virtual import VirtualBoard
from controller.events import Command, Tick
from controller.flow.published import Event
from controller.profile import load_profile
from controller.rules import hole_name

PAUSE = 0.5  # a human pause after each gesture: longer than the settle times


class Rig:
    """Gestures on a :class:`VirtualBoard` go through a :class:`Core`; time is ours to move."""

    def __init__(self, *, sensing: str = "presence", start: dict[str, Any] | None = None,
                 garbage: Any = None, profile_name: str = "virtual-6x6", pictures: PictureStore | None = None,
                 **core_options: Any) -> None:
        self.t = 0.0
        profile = load_profile(profile_name)
        if sensing == "polarity":
            profile = replace(profile, sensing="polarity", colours={"north": "white", "south": "black"})
        elif sensing == "presence":  # the virtual profiles sense colour: a reed-switch board here
            profile = replace(profile, sensing="presence")
        self.profile = profile
        self.board = VirtualBoard.from_profile(profile, clock=lambda: self.t, buttons=("ok", "back"),
                                                garbage=garbage)
        games = Catalogue.shipped() if pictures is None else Catalogue(pictures)  # the board's picture library
        self.core = Core(profile, catalogue=games, **core_options)
        self.records: list[dict[str, Any]] = []
        self.notices: list[str] = []
        self.events: list[Event] = []  # the core's events (controller.flow.published)
        self.frames: list[tuple] = []
        self.board.start(self.feed)
        if start is not None:
            self.feed(Command(self.t, "new_game", start))

    def feed(self, event: Any) -> None:
        effects = self.core.handle(event)
        self.records.extend(effects.records)
        self.notices.extend(effects.notices)
        self.events.extend(effects.events)
        if effects.frame is not None:
            self.frames.append(effects.frame)
        if effects.save is not None:  # as the runtime does, off the core's thread: the daemon's store writes
            notice, saved = self.core.games.pictures.keep(effects.save.picture)
            self.feed(Command(self.t, effects.save.answer, {"notice": notice, "saved": saved}))

    def wait(self, seconds: float = PAUSE) -> None:
        """Let time pass, ticking the core at every deadline it asks for."""
        end = self.t + seconds
        while (deadline := self.core.next_deadline()) is not None and deadline <= end:
            self.t = max(self.t, deadline)
            self.feed(Tick(self.t))
        self.t = end

    def do(self, verb: str, *args: Any) -> None:
        """One gesture on the virtual board (place, lift, turn, quarter, press, unplug, replug)."""
        getattr(self.board, verb)(*args)

    def play(self, move: str) -> None:
        """A whole classic move: place, pause, twist, pause."""
        hole, *twist = move.split()
        self.board.place(hole)
        self.wait()
        if twist:
            block, sign = int(twist[0][0]), 1 if twist[0][1] == "R" else -1
            for _ in range(self.board.detents_per_quarter):  # detent by detent, as hands turn
                self.board.turn(block, sign)
                self.wait(0.03)
            self.wait()

    def lit(self) -> str:
        """What the LEDs show, in words: "turn:white", "remove:c3", "arrow:3L", "win:black", ...;
        a marble read and not yet accepted glows dim ("dim-white:c3"), and so does the arrow of a
        block read turning for the twist due ("dim-white-arrow:2R")."""
        view = self.core.view()
        g = self.profile.geometry
        words = [f"turn:{view.turn}"] if view.turn else []
        words += [f"{'dim-' if h.level < 1 else ''}{h.colour}:{hole_name(h.hole, g)}" for h in view.holes]
        words += [f"{'dim-' + a.colour + '-' if a.level < 1 else ''}arrow:{a.block}{'R' if a.clockwise else 'L'}"
                  for a in view.arrows]
        if view.win_lines:  # one colour for all, or each line's own (places earned in a multiplayer game)
            words.append(f"win:{','.join(view.line_colours) or view.win_colour}:{len(view.win_lines)}")
        if view.draw:
            words.append("draw")
        words += [f"card:{c}" for c in view.cards]
        return " ".join(words)
