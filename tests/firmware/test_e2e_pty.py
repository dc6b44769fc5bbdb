"""End to end on the host: the firmware's main loop (app.App.run, real clock, in a thread) on a
simulated magnetic field, talking over a pty to the real host link (SerialLink) and the real
core. Players place marbles (with sensor noise and bounce) and twist blocks (garbage readings
while turning, encoder edges with contact bounce); a whole classic game must arrive as exactly
the moves played and the win."""

import queue
import time

import pytest

import wire
from ptyrig import PtyPico

from controller.core import Core
from controller.drivers.serial_link import SerialLink
from controller.events import Command, Tick
from controller.profile import load_profile

PROFILE = "B-6x6"
PLACE_PAUSE_S = 0.45   # longer than firmware debounce (30 ms) plus the core's settle (0.15 s)
TWIST_PAUSE_S = 0.8    # longer than the encoder quiet time plus the core's turn settle (0.4 s)


class Table:
    """Players at the simulated board; the Pi side (link + core) is pumped between gestures."""

    def __init__(self, board, events, core):
        self.board, self.events, self.core = board, events, core
        self.notices = []
        self.detents = load_profile(PROFILE).detents_per_quarter

    def pump(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.feed(self.events.get(timeout=0.01))
            except queue.Empty:
                pass
            self.feed(Tick(time.monotonic()))

    def feed(self, event):
        self.notices.extend(self.core.handle(event).notices)

    def place(self, name, pole):
        self.board.place(hole(name), pole)
        self.pump(PLACE_PAUSE_S)

    def twist(self, block, clockwise):
        self.board.begin_turn(block)
        for _ in range(self.detents):          # a person turns through the detents
            self.board.encoder_edges(block, 1 if clockwise else -1, bounce=True)
            self.pump(0.02)
        self.board.end_turn(block, 1 if clockwise else 3)
        self.pump(TWIST_PAUSE_S)

    def lift(self, name):
        self.board.lift(hole(name))
        self.pump(PLACE_PAUSE_S)

    def play(self, move, pole):
        name, *twist = move.split()
        self.place(name, pole)
        if twist:
            self.twist(int(twist[0][0]), twist[0][1] == "R")


def hole(name):
    return (int(name[1:]) - 1) * 6 + "abcdef".index(name[0])


GAME = ("a1 2R", "d6 2R", "a2 2L", "e6 4R", "a3 4L", "f5 2R", "a4 4R", "d1 4L", "a5")


@pytest.fixture
def table():
    pico = PtyPico().start()
    events = queue.Queue()
    profile = load_profile(PROFILE)
    link = SerialLink(pico.port, 6, profile.colours)
    link.start(events.put)
    try:
        assert link.wait_up(5.0), "the host link never came up"
        yield Table(pico.board, events, Core(profile)), pico.app
    finally:
        link.stop()
        pico.close()


def test_a_whole_classic_game_arrives_as_its_moves(table):
    table, app = table
    table.pump(0.3)                                     # the snapshot's readings reach the core
    table.feed(Command(time.monotonic(), "new_game", {"game": "classic"}))
    table.place("b2", wire.NORTH)                       # second thoughts: taken back
    table.lift("b2")
    for number, move in enumerate(GAME):
        table.play(move, wire.NORTH if number % 2 == 0 else wire.SOUTH)
    assert table.core.flow.move_texts() == list(GAME)
    assert table.notices[-1] == "Seat 1 wins (five on placement)", table.notices
    assert table.notices[2:4] == ["b2 placed by Seat 1", "take-back"], table.notices
    assert not any("repair" in n or "ignored" in n for n in table.notices), table.notices
    assert app.link.rejected == 0 and app.encoders.errors == [0, 0, 0, 0]
