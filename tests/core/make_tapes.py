"""Build the recorded games in tests/data/tapes (classic, multiplayer, teams) with their expected
replay results.

Run ``python -m tests.core.make_tapes [NAME ...]`` from the repository root to rebuild them (the
named scenarios, or all). Each scenario
plays a whole game found by a seeded random playout through the rules, and layers the noise of
real hands on chosen moves. The expected result comes from the scenario itself (the moves the
players meant, the outcome the rules give them, and the repairs the scenario provokes), never
from running the core, so the tape test checks the core against the truth.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller import games
from controller.rules import (
    ClassicGame, Move, Termination, Twist, geometry, hole_name, move_name, parse_hole, parse_twist,
)

from .tapebuilder import TapeBuilder

TAPES = Path(__file__).resolve().parents[1] / "data" / "tapes"
GRACE = 2.6  # a pause longer than the core's 2 s grace time: repair mode starts
G = geometry(6)


def find_game(termination: Termination, seed: int, *, skips: bool = False) -> list[str]:
    """A random classic game (as move texts) ending by ``termination``; the first from ``seed``."""
    rng = random.Random(seed)
    while True:
        game = ClassicGame()
        while not game.is_over():
            moves = game.legal_moves()
            bare = [m for m in moves if m.twist is None]
            wins = [m for m in bare if _wins_on_placement(game, m)]
            pick = rng.choice(wins or (bare if skips and bare and rng.random() < 0.3 else moves))
            game.push(pick)
        if game.outcome.termination is termination:  # type: ignore[union-attr]
            return [move_name(m, G) for m in game.moves]


def _wins_on_placement(game: ClassicGame, move: Move) -> bool:
    return G.has_five(game.position.stones[game.colour] | 1 << move.hole)


def expected(moves: list[str], repairs: int) -> dict:
    game = ClassicGame()
    for text in moves:
        game.push_text(text)
    outcome = game.outcome
    return {"moves": moves,
            "outcome": {"result": outcome.result if outcome else "none", "winners": list(outcome.winners) if outcome else []},
            "repairs": repairs}


# -- scenarios: each returns the builder, the moves meant, and the repairs provoked ----------------


def bounce_and_roll() -> tuple[TapeBuilder, list[str], int]:
    """Bouncing marbles, marbles rolled over two holes, placements and twists in one quick go."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 1)
    b = TapeBuilder(seed=1)
    for i, move in enumerate(moves):
        b.play(move, bounce=2 if i % 3 == 0 else 0, roll=2 if i % 3 == 1 else 0, quick=i % 4 == 3)
    return b, moves, 0


def slow_and_missed_steps() -> tuple[TapeBuilder, list[str], int]:
    """Slow twists (a detent every 0.2 s), an encoder that misses a step, one that adds one."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 2)
    b = TapeBuilder(seed=2)
    for i, move in enumerate(moves):
        steps = {1: b.detents - 1, 4: b.detents + 1, 6: b.detents - 1}.get(i)
        b.play(move, slow=i % 2 == 0, steps=steps if " " in move else None)
    return b, moves, 0


def wrong_block_then_back() -> tuple[TapeBuilder, list[str], int]:
    """A twist of the wrong block turned back (settled, and too quick to settle), then the right one."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 3)
    b = TapeBuilder(seed=3)
    for i, move in enumerate(moves):
        hole, twist = (move.split() + [None])[:2]
        if twist and i in (2, 5) and i < len(moves) - 1:
            wrong = int(twist[0]) % 4 + 1
            b.put(hole).pause()
            b.turn(wrong, 1)
            b.pause() if i == 2 else b.pause(0.03)  # settled: accepted then taken back; or never seen
            b.turn(wrong, -1).pause()
            b.turn(int(twist[0]), 1 if twist[1] == "R" else -1).pause()
            b.seat = b.seat % 2 + 1
        else:
            b.play(move)
    return b, moves, 0


def two_marbles_and_a_removed_one() -> tuple[TapeBuilder, list[str], int]:
    """Two marbles put at once (repair: remove one), and a marble knocked out (repair: put back)."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 4)
    b = TapeBuilder(seed=4)
    for i, move in enumerate(moves):
        if i == 3:
            extra = _free_hole(b, move)
            b.put(move.split()[0]).put(extra).pause(GRACE).lift(extra).pause()
            _finish_twist(b, move)
        elif i == 6:
            knocked = next(h for h in sorted(b.marbles))
            colour = b.marbles[knocked]
            b.lift(knocked).pause(GRACE).put(knocked, colour).pause()
            b.play(move)
        else:
            b.play(move)
    return b, moves, 2


def half_and_180_twists() -> tuple[TapeBuilder, list[str], int]:
    """A 180-degree twist (repair, then turned back a quarter) and a half-finished twist undone."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 5)
    b = TapeBuilder(seed=5)
    for i, move in enumerate(moves):
        hole, twist = (move.split() + [None])[:2]
        if i == 2 and twist:
            way = 1 if twist[1] == "R" else -1
            b.put(hole).pause().turn(int(twist[0]), 2 * way).pause(GRACE)
            b.turn(int(twist[0]), -way).pause()
            b.seat = b.seat % 2 + 1
        elif i == 5 and twist:
            way = 1 if twist[1] == "R" else -1
            b.put(hole).pause().half_turn_off(int(twist[0]), way * b.detents // 2).pause(GRACE)
            b.turn(int(twist[0]), 0, steps=-way * b.detents // 2).pause()
            b.turn(int(twist[0]), way).pause()
            b.seat = b.seat % 2 + 1
        else:
            b.play(move)
    return b, moves, 2


def skip_with_and_without_neutral() -> tuple[TapeBuilder, list[str], int]:
    """Twists skipped while a block is neutral (accepted), and once when none is (repair)."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 6, skips=True)
    b = TapeBuilder(seed=6)
    game = ClassicGame()
    forgot = False
    for move in moves:
        hole, twist = (move.split() + [None])[:2]
        game.place(_parse(hole))
        if twist and not game.may_skip_twist() and not forgot and not _last(moves, move):
            forgot = True
            b.put(hole).pause()
            stray = _free_hole(b, move)
            b.seat = b.seat % 2 + 1
            b.put(stray).pause(GRACE).lift(stray).pause()  # the next seat plays too early
            b.seat = b.seat % 2 + 1
            _finish_twist(b, move)
        else:
            b.play(move)
        game.twist(_twist(twist)) if twist else (None if game.is_over() else game.skip_twist())
    assert forgot, "the scenario needs a move without a neutral block"
    return b, moves, 1


def take_back() -> tuple[TapeBuilder, list[str], int]:
    """A move taken back by hand (block turned back, marble lifted), then another move played."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 7)
    b = TapeBuilder(seed=7)
    for i, move in enumerate(moves):
        if i == 4:
            hole, twist = move.split()
            other = _free_hole(b, move)
            wrong = f"{hole_text(other)} {twist}"
            b.play(wrong)
            b.turn(int(twist[0]), -1 if twist[1] == "R" else 1).pause().lift(other).pause()
            b.seat = b.seat % 2 + 1
        b.play(move)
    return b, moves, 0


def win_on_placement() -> tuple[TapeBuilder, list[str], int]:
    moves = find_game(Termination.FIVE_ON_PLACEMENT, 8)
    b = TapeBuilder(seed=8)
    for i, move in enumerate(moves):
        b.play(move, bounce=1 if i == len(moves) - 1 else 0)
    return b, moves, 0


def draw_after_twist() -> tuple[TapeBuilder, list[str], int]:
    moves = find_game(Termination.BOTH_FIVE, 9)
    b = TapeBuilder(seed=9)
    for i, move in enumerate(moves):
        b.play(move, slow=i == len(moves) - 1)
    return b, moves, 0


def polarity_wrong_colour() -> tuple[TapeBuilder, list[str], int]:
    """Polarity sensing: colours are sensed; a marble of the wrong colour is repaired."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 10)
    b = TapeBuilder(seed=10, sensing="polarity")
    for i, move in enumerate(moves):
        if i == 3:
            hole = move.split()[0]
            b.put(hole, colour=b.seat % 2).pause(GRACE).lift(hole).pause()
        b.play(move, bounce=1 if i == 5 else 0)
    return b, moves, 1


def fast_classic() -> tuple[TapeBuilder, list[str], int]:
    """Quick hands (issue 23): 100-300 ms between physical actions, detents 35-70 ms apart,
    marbles bouncing now and then; a whole game with twists skipped while a block is neutral."""
    moves = find_game(Termination.FIVE_AFTER_TWIST, 13, skips=True)
    b = TapeBuilder(seed=13)
    b.pause(1.0)
    for i, move in enumerate(moves):
        b.play_fast(move, bounce=(0, 1, 0, 2)[i % 4])
    return b, moves, 0


SCENARIOS: dict[str, Callable[[], tuple[TapeBuilder, list[str], int]]] = {
    f.__name__: f for f in (bounce_and_roll, slow_and_missed_steps, wrong_block_then_back,
                            two_marbles_and_a_removed_one, half_and_180_twists, skip_with_and_without_neutral,
                            take_back, win_on_placement, draw_after_twist, polarity_wrong_colour, fast_classic)
}


# -- the family: multiplayer and team games on the 9x9 board --------------------------------------


def new_game(variant: str, players: int | None = None) -> Any:
    """A new game of ``variant``, as the registry makes it."""
    spec, size = games.variants()[variant]
    return spec.game.new(players, size=size)


def find_family_game(variant: str, seed: int, want: Callable[[Any], bool], players: int | None = None) -> list[str]:
    """A random ``variant`` game on 9x9 (as move texts) that ``want`` accepts; the first from
    ``seed``. Players take a five on placement when they can and mostly build on their own
    stones, so fives come in a few dozen moves."""
    rng = random.Random(seed)
    while True:
        game = new_game(variant, players)
        g = game.geometry
        while not game.is_over():
            moves = game.legal_moves()
            mine = game.position.stones[game.colour]
            wins = [m for m in moves if m.twist is None and g.has_five(mine | 1 << m.hole)]
            near = [m for m in moves if _touches(g, mine, m.hole)]
            game.push(rng.choice(wins or (near if near and rng.random() < 0.8 else moves)))
        if want(game):
            return [move_name(m, g) for m in game.moves]


def _touches(g: Any, stones: int, hole: int) -> bool:
    column, row = g.column_row(hole)
    return any(g.is_on_board(column + dc, row + dr) and stones >> g.hole(column + dc, row + dr) & 1
               for dc in (-1, 0, 1) for dr in (-1, 0, 1))


def family_expected(variant: str, moves: list[str], repairs: int, players: int | None = None) -> dict:
    game = new_game(variant, players)
    for text in moves:
        game.push_text(text)
    outcome = game.outcome
    assert outcome is not None
    return {"moves": moves, "outcome": {"result": outcome.result, "winners": list(outcome.winners)},
            "repairs": repairs, "standings": [list(place) for place in outcome.standings]}


def _play_family(b: TapeBuilder, variant: str, moves: list[str], players: int | None = None, **noise: Any) -> None:
    """Play ``moves`` with each seat's marbles, the turn passing as the rules say."""
    game = new_game(variant, players)
    for i, move in enumerate(moves):
        b.seat = game.colour + 1  # the colour of the seat to move (a pair's, in team play)
        b.play(move, bounce=1 if i % 5 == 2 else 0, quick=i % 7 == 6)
        game.push_text(move)


def multiplayer_three_to_full_standings() -> tuple[TapeBuilder, list[str], int, dict]:
    """Three players on 9x9, clockwise twists: a first place, the other two play on for second,
    the last left takes third; the winners' stones stay on the board."""
    moves = find_family_game("multiplayer", 21, lambda g: [len(p) for p in g.outcome.standings] == [1, 1, 1] and
                             len(g.places) == 2, players=3)
    b = TapeBuilder(size=9, seed=21, options={"game": "multiplayer", "players": 3, "twist": "cw"})
    _play_family(b, "multiplayer", moves, 3)
    return b, moves, 0, family_expected("multiplayer", moves, 0, 3)


def teams_win() -> tuple[TapeBuilder, list[str], int, dict]:
    """Team play on 9x9: seats 1 and 3 against 2 and 4, turns alternate teams; a pair's five wins."""
    moves = find_family_game("teams", 22, lambda g: bool(g.outcome.winners) and len(g.moves) > 20)
    b = TapeBuilder(size=9, seed=22, options={"game": "teams", "twist": "cw"})
    _play_family(b, "teams", moves)
    return b, moves, 0, family_expected("teams", moves, 0)


def colour_multiplayer_wrong_colour() -> tuple[TapeBuilder, list[str], int, dict]:
    """The virtual board (colour sensing: every marble colour told apart), three players on 9x9:
    seat 3 first puts down a green marble (no seat's), it is repaired, then red plays on."""
    moves = find_family_game("multiplayer", 23, lambda g: bool(g.outcome.winners), players=3)
    b = TapeBuilder(size=9, seed=23, sensing="colour", colours=("white", "black", "red", "green"),
                    options={"game": "multiplayer", "players": 3, "twist": "cw"})
    game = new_game("multiplayer", 3)
    for i, move in enumerate(moves):
        b.seat = game.colour + 1
        if i == 2:  # seat 3's first move: a green marble where its red one goes
            hole = move.split()[0]
            b.put(hole, colour=3).pause(GRACE).lift(hole).pause()
        b.play(move, bounce=1 if i % 5 == 2 else 0)
        game.push_text(move)
    return b, moves, 1, family_expected("multiplayer", moves, 1, 3)


def fast_multiplayer() -> tuple[TapeBuilder, list[str], int, dict]:
    """Quick hands on 9x9 (issue 23): three players, clockwise twists, a first place and the
    others playing on, 100-300 ms between physical actions and detents 35-70 ms apart."""
    moves = find_family_game("multiplayer", 24, lambda g: len(g.places) >= 1, players=3)
    b = TapeBuilder(size=9, seed=24, options={"game": "multiplayer", "players": 3, "twist": "cw"})
    b.pause(1.0)
    game = new_game("multiplayer", 3)
    for i, move in enumerate(moves):
        b.seat = game.colour + 1
        b.play_fast(move, bounce=(0, 1, 0, 2)[i % 4])
        game.push_text(move)
    return b, moves, 0, family_expected("multiplayer", moves, 0, 3)


FAMILY: dict[str, Callable[[], tuple[TapeBuilder, list[str], int, dict]]] = {
    f.__name__: f for f in (multiplayer_three_to_full_standings, teams_win, colour_multiplayer_wrong_colour,
                            fast_multiplayer)
}

# -- helpers ---------------------------------------------------------------------------------------


def _parse(hole: str) -> int:
    return parse_hole(hole, G)


def _twist(text: str) -> Twist:
    return parse_twist(text, G)


def hole_text(hole: int) -> str:
    return hole_name(hole, G)


def _last(moves: list[str], move: str) -> bool:
    return move is moves[-1]


def _free_hole(b: TapeBuilder, move: str) -> int:
    """An empty hole outside the block the move twists and away from its placement."""
    hole, twist = (move.split() + [None])[:2]
    block = int(twist[0]) if twist else 0
    target = _parse(hole)
    free = [h for h in range(G.hole_count)
            if h not in b.marbles and h != target and G.block_of[h] != block]
    return b.rng.choice(free)


def _finish_twist(b: TapeBuilder, move: str) -> None:
    twist = move.split()[1]
    b.turn(int(twist[0]), 1 if twist[1] == "R" else -1).pause()
    b.seat = b.seat % 2 + 1


def main(names: list[str]) -> None:
    """Build the scenarios ``names`` (all of them when none is named)."""
    unknown = sorted(set(names) - set(SCENARIOS) - set(FAMILY))
    if unknown:
        raise SystemExit(f"no scenario {unknown[0]!r}; scenarios: {', '.join([*SCENARIOS, *FAMILY])}")
    for name, build in SCENARIOS.items():
        if not names or name in names:
            builder, moves, repairs = build()
            write(name, builder, moves, expected(moves, repairs))
    for name, family in FAMILY.items():
        if not names or name in names:
            builder, moves, repairs, result = family()
            write(name, builder, moves, result)


def write(name: str, builder: TapeBuilder, moves: list[str], result: dict) -> None:
    builder.write(TAPES / f"{name}.jsonl")
    (TAPES / f"{name}.expected.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"{name}: {len(moves)} moves, {len(builder.events)} events")


if __name__ == "__main__":
    main(sys.argv[1:])
