"""The registry: every game declares what the product needs; options are checked with clear errors."""

from __future__ import annotations

import pytest

from controller import games
from controller.games import GAMES, OptionError, get, offered, options
from controller.rules import MultiplayerGame, TeamGame


def test_one_line_per_game_and_names_are_unique() -> None:
    assert [spec.name for spec in GAMES] == ["classic", "multiplayer", "teams", "triple", "puzzle"]
    assert len({spec.name for spec in GAMES}) == len(GAMES)


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: s.name)
def test_every_game_declares_what_the_product_needs(spec) -> None:
    assert spec.title and spec.sizes
    for choice in spec.choices:
        assert len(choice.words) == len(choice.values), choice.name
        assert choice.default in choice.values
    for size in spec.sizes:
        opts = spec.options({}, size)
        game = spec.make(opts, size)
        assert game.geometry.size == size
        assert spec.variant(size) == game.variant or game.variant == "classic"
        colours = spec.colours(opts, ("white", "black"))
        assert len(colours) == game.colours and len(set(colours)) == len(colours)


def test_the_boards_offer_games_by_size() -> None:
    assert [s.name for s in offered(6)] == ["classic", "triple", "puzzle"]
    assert [s.name for s in offered(9)] == ["classic", "multiplayer", "teams", "puzzle"]
    assert get("classic").variant(9) == "classic-9x9" and get("classic").variant(6) == "classic"


def test_classic_options_stay_as_they_were() -> None:
    assert options({}, 6) == {"game": "classic", "players": 2, "computer": False, "hints": True, "match": False}
    assert options({"game": "classic", "computer": True, "extra": 1}, 6)["computer"] is True


def test_multiplayer_and_team_options_make_their_rules() -> None:
    opts = options({"game": "multiplayer", "players": 4, "twist": "both"}, 9)
    assert opts == {"game": "multiplayer", "players": 4, "twist": "both", "neutral_skip": True, "computer": False,
                    "hints": True}
    game = opts.make(2)
    assert isinstance(game, MultiplayerGame) and game.players == 4 and game.to_move == 2
    assert not game.options.clockwise_only
    teams = options({"game": "teams"}, 9).make(1)
    assert isinstance(teams, TeamGame) and teams.options.clockwise_only


@pytest.mark.parametrize(("args", "size", "message"), [
    ({"game": "chess"}, 6, "game 'chess' is not available (games: classic, triple, puzzle)"),
    ({"game": "chess"}, 9, "game 'chess' is not available (games: classic, multiplayer, teams, puzzle)"),
    ({"game": "teams"}, 6, "game 'teams' is not played on the 6x6 board (games: classic, triple, puzzle)"),
    ({"players": 3}, 6, "players 3: classic Pentago is for 2 players"),
    ({"match": "yes"}, 6, "match 'yes' must be true or false"),
    ({"computer": 1}, 6, "computer 1: give true (seat 2), false (none) or a list of seats such as [2, 3]"),
    ({"computer": [2, 2]}, 6, "computer [2, 2]: give true (seat 2), false (none) or a list of seats such as [2, 3]"),
    ({"computer": [True]}, 6, "computer [True]: give true (seat 2), false (none) or a list of seats such as [2, 3]"),
    ({"computer": [1, 3]}, 6, "computer [1, 3]: seat 3 is not a seat of this game (seats 1 to 2)"),
    ({"hints": "no"}, 6, "hints 'no' must be true or false"),
    ({"game": "multiplayer", "players": 5}, 9, "players 5: Multiplayer Pentago is for 2 to 4 players"),
    ({"game": "multiplayer", "players": True}, 9, "players True: Multiplayer Pentago is for 2 to 4 players"),
    ({"game": "multiplayer", "twist": "ccw"}, 9, "twist 'ccw': twists are 'cw' (clockwise only) or 'both'"),
    ({"game": "multiplayer", "players": 3, "computer": [4]}, 9, "computer [4]: seat 4 is not a seat of this game (seats 1 to 3)"),
    ({"game": "teams", "players": 3}, 9, "players 3: team play needs exactly 4 players (two pairs)"),
    ({"game": "teams", "match": True}, 9, "match True: Team Pentago has no match option"),
    ({"game": "multiplayer", "players": 3, "names": ["Ada", "Bo"]}, 9, "names ['Ada', 'Bo']: give one name per seat (3)"),
    ({"names": ["Ada", ""]}, 6, "names: '' is not a name of 1 to 24 characters"),
])
def test_a_bad_combination_is_refused_naming_the_option(args, size, message) -> None:
    with pytest.raises(OptionError) as error:
        options(args, size)
    assert str(error.value) == message


def test_the_registry_says_which_game_each_variant_is() -> None:
    """One place names the variants (records, the `game` command): each is a game of the
    registry on a board size, and a record of its game replays, through the registry, into
    that game's rules class, so no list of variants is kept anywhere else."""
    from controller.rules import format_record, record_of

    assert {name: (spec.name, size) for name, (spec, size) in games.variants().items()} == {
        "classic": ("classic", 6), "classic-9x9": ("classic", 9), "multiplayer": ("multiplayer", 9),
        "teams": ("teams", 9), "triple": ("triple", 6), "puzzle": ("puzzle", 9)}
    for name, (spec, size) in games.variants().items():
        game = spec.options({}, size).make()
        assert game.variant == name and isinstance(game, spec.game)
        text = format_record(record_of(game, [f"P{seat}" for seat in range(1, game.players + 1)]))
        again = games.replay(games.parse_record(text))
        assert type(again) is spec.game and again.variant == name


def test_names_are_kept_trimmed_only_when_given() -> None:
    opts = options({"game": "multiplayer", "players": 2, "names": [" Ada ", "Bo"]}, 9)
    assert opts["names"] == ["Ada", "Bo"]
    assert "names" not in options({}, 6)


def test_seat_colours_are_four_told_apart_and_teams_share_a_pair() -> None:
    four = options({"game": "multiplayer", "players": 4}, 9).colours(("white", "black"))
    assert four == ("white", "black", "red", "green")
    polarity = options({"game": "multiplayer", "players": 3}, 9).colours(("black", "white"))
    assert polarity == ("black", "white", "red")  # the board's own colours first
    assert options({"game": "teams"}, 9).colours(("white", "black")) == ("white", "black")
