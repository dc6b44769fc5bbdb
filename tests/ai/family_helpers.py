"""Shared helpers for the family's computer tests: random dense positions and brute-force answers
from the rules themselves (every legal move pushed and popped)."""

from __future__ import annotations

import random

from controller.rules import MultiplayerGame, Position, TeamGame, TripleGame, TripleOptions, geometry
from controller.rules.triple.cards import load_deck


def dense_planes(rng: random.Random, size: int, colours: int, holes: int, share: float) -> tuple[int, ...]:
    """Random stones of ``colours`` colours on a ``share`` of the ``holes`` lowest holes (a
    corner crowded enough that fives in one are common), with no colour already five."""
    g = geometry(size)
    while True:
        planes = [0] * colours
        for hole in range(holes):
            if rng.random() < share:
                planes[rng.randrange(colours)] |= 1 << hole
        if not any(g.has_five(p) for p in planes):
            return tuple(planes)


def multiplayer_at(seed: int, players: int, twist: str = "cw") -> MultiplayerGame:
    rng = random.Random(seed)
    planes = dense_planes(rng, 9, players, 45, 0.6)
    return MultiplayerGame(players, twist, position=Position(geometry(9), planes), to_move=rng.randint(1, players))


def teams_at(seed: int, twist: str = "cw") -> TeamGame:
    rng = random.Random(seed)
    planes = dense_planes(rng, 9, 2, 45, 0.6)
    return TeamGame(twist, position=Position(geometry(9), planes), to_move=rng.randint(1, 4))


def seat_can_score(game) -> bool:
    """True if the seat to move has a move that earns it a five (multiplayer: a place, shared or
    not; teams: a win for its pair)."""
    seat = game.to_move
    for move in game.legal_moves():
        game.push(move)
        if isinstance(game, MultiplayerGame):
            scored = any(seat in place for place in game.places)
        else:
            scored = game.outcome is not None and seat in game.outcome.winners
        game.pop()
        if scored:
            return True
    return False


def triple_at(seed: int, players: int = 2, marbles: int = 20, **options) -> TripleGame:
    """A Triple game from a random position of ``marbles`` marbles (27: the move phase) with
    cards drawn from the deck; ``options`` are TripleOptions' switches."""
    rng = random.Random(seed)
    deck = list(load_deck())
    rng.shuffle(deck)
    if options.get("two_colour"):
        pair = next(set(card.colours_used) for card in deck if len(card.colours_used) == 2)
        deck = [card for card in deck if set(card.colours_used) <= pair]
    count = players if options.get("personal") else 1 if options.get("bonus") else players - 1
    opts = TripleOptions(players=players, cards=tuple(deck[:count + 2]) if not options.get("personal")
                         else tuple(deck[:count]), **options)
    game = TripleGame(opts, starter=rng.randint(1, players))
    allowed = game.allowed
    g = geometry(6)
    holes = list(range(g.hole_count))
    rng.shuffle(holes)
    planes = [0, 0, 0]
    supply = [c for c in allowed for _ in range(9)]
    rng.shuffle(supply)
    for hole, colour in zip(holes[:marbles], supply):
        planes[colour] |= 1 << hole
    last = holes[0] if marbles else None
    return TripleGame(opts, starter=game.starter, position=Position(g, tuple(planes)), last_played=last)


def triple_completions(game: TripleGame) -> set:
    """Every legal move of the seat to move that completes one of its patterns."""
    seat, out = game.to_move, set()
    for move in game.legal_moves():
        before = len(game.claims)
        game.push(move)
        if len(game.claims) > before and game.claims[-1].seat == seat:
            out.add(move)
        game.pop()
    return out
