"""Property tests for the variants: random legal multiplayer games played to the end keep every
rule, and records of every variant round-trip and replay exactly."""

from hypothesis import given, settings
from hypothesis import strategies as st

from controller import games
from controller.games import parse_record, replay
from controller.rules import MultiplayerGame, format_record, record_of

from . import naive


def has_five(game, seat) -> bool:
    return naive.has_five(naive.board_of(game.position), game.colour_of(seat))


def play_turn(game, rng):
    """One random legal whole move; checks every rule the turn could break."""
    mover, before = game.to_move, game.places
    assert game.phase.value == "place" and mover in game.playing()
    move = rng.choice(game.legal_moves())
    game.push(move)
    assert game.places[:len(before)] == before  # places earned stay, in the order earned
    earned = game.places[len(before):]
    assert len(earned) <= 1 and all(list(place) == sorted(place) for place in earned)
    for seat in (earned[0] if earned else ()):
        assert has_five(game, seat) or (move.twist is None and seat == mover)
    if move.twist is None and earned and mover in earned[0]:
        assert earned[0] == (mover,)  # a placement five is the mover's alone
    for seat in game.playing():
        assert not game.position.has_five(game.colour_of(seat))  # nobody still playing holds a five
    if not game.is_over():
        assert game.to_move in game.playing()
        assert game.position.stone_count() < game.geometry.hole_count


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([3, 4]), st.sampled_from(["cw", "both"]), st.booleans(), st.randoms(use_true_random=False))
def test_random_games_to_the_end_keep_every_rule(players, twist, skip, rng):
    game = MultiplayerGame(players, twist=twist, neutral_skip=skip)
    while not game.is_over():
        play_turn(game, rng)
    standings, outcome = game.standings, game.outcome
    seats = [seat for place in standings for seat in place]
    assert sorted(seats) == list(range(1, players + 1))  # every seat placed exactly once
    assert standings[:len(game.places)] == game.places  # places in the order of finishing
    left = standings[len(game.places):]
    assert len(left) <= 1
    if left and len(left[0]) > 1:
        assert game.position.is_full()  # several share the last place only on a full board
    assert all(not game.position.has_five(game.colour_of(seat)) for place in left for seat in place)
    assert game.position.is_full() or sum(map(len, game.places)) >= players - 1
    assert outcome.winners == (standings[0] if len(standings) > 1 else ())


def short_games(variant, players=None):
    return st.builds(_played, st.just(variant), st.just(players), st.integers(1, 4), st.integers(0, 40),
                     st.randoms(use_true_random=False))


def _played(variant, players, starter, count, rng):
    spec, size = games.variants()[variant]
    game = spec.game.new(players, size=size, starter=min(starter, players or (4 if variant == "teams" else 2)))
    for _ in range(count):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


GAMES = st.one_of(
    short_games("classic"), short_games("classic-9x9"), short_games("teams"),
    *(short_games("multiplayer", n) for n in (2, 3, 4)),
)
NAMES = st.text(st.characters(min_codepoint=65, max_codepoint=122), min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(GAMES, NAMES, st.booleans())
def test_records_of_every_variant_round_trip_and_replay(game, name, with_colours):
    names = [name.strip() or "A"] + [f"P{i}" for i in range(2, game.players + 1)]
    colours = ["white", "black", "red", "blue"][:game.players] if with_colours else None
    text = format_record(record_of(game, names, date="2026-11-30", colours=colours))
    record = parse_record(text)
    assert format_record(record) == text
    again = replay(record)
    assert type(again) is type(game) and again.options == game.options
    assert again.starter == game.starter and again.moves == game.moves
    assert again.position == game.position and again.outcome == game.outcome
    assert again.standings == game.standings
