"""Property test for Pentago Triple: random legal games played to the end never break a rule, and
the eliminated list, the cards taken, the winners and the standings agree with each other.
Patterns are checked against a plain reference (a 2-D board and a loop over every line)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules import Card, Phase, Termination, TripleGame, TripleOptions
from controller.rules.triple import deal

from .. import naive

MAX_TURNS = 3000  # a safety net; random games end long before (cards, eliminations, repetition)


def _lines() -> list[tuple[int, ...]]:
    lines = []
    for column in range(6):
        for row in range(6):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                cells = [(column + k * dc, row + k * dr) for k in range(5)]
                if all(0 <= c < 6 and 0 <= r < 6 for c, r in cells):
                    lines.append(tuple(r * 6 + c for c, r in cells))
    return lines


LINES = _lines()


def standing(position, card: Card) -> set[tuple[int, ...]]:
    """Every occurrence of ``card`` on ``position`` (holes in card order), the plain way."""
    board, found = naive.board_of(position), set()
    for holes in LINES:
        colours = tuple(board[h // 6][h % 6] for h in holes)
        if colours == card.colours:
            found.add(holes)
        elif colours[::-1] == card.colours:  # a palindrome reads once, along the line
            found.add(holes[::-1])
    return found


def play_turn(game: TripleGame, rng) -> None:
    """One random legal turn; checks every rule the turn could break."""
    mover, start, last = game.to_move, game.position, game.last_played
    cards, out, eliminated, claims = game.cards, game.out, game.eliminated, len(game.claims)
    judged = (game.personal[mover - 1],) if game.mode == "personal" else cards
    assert game.phase is Phase.PLACE and mover in game.playing()
    move_phase = game.is_move_phase()
    move = rng.choice(game.legal_moves())
    game.push(move)
    if move_phase:
        assert move.origin is not None and move.origin != last and game.out == out
    else:
        assert move.colour in game.allowed and out[move.colour] < 9
        assert game.out[move.colour] == out[move.colour] + 1
    new = {card: standing(game.position, card) - standing(start, card) for card in judged}
    made = [card for card in judged if new[card]]
    turn_claims = game.claims[claims:]
    assert sorted(c.card for c in turn_claims) == sorted(made)  # exactly the judged cards made anew
    for claim in turn_claims:
        assert claim.seat == mover and set(claim.lines) == new[claim.card], (claim, new, move)
    if move.twist is None:
        assert made  # only a pattern on the placement or move ends a turn without the twist
    for card in made:
        assert card not in game.cards or game.mode == "personal"
    if game.mode == "shared":
        gone = game.eliminated[len(eliminated):]
        if made:
            playing_before = [s for s in range(1, game.players + 1) if s not in eliminated]
            victim = playing_before[playing_before.index(mover) - 1]
            assert gone == (victim,) and all(c.eliminated == victim for c in turn_claims)
        else:
            assert gone == ()
    else:
        assert game.eliminated == ()
    if not game.is_over():
        assert game.to_move in game.playing() and game.to_move != mover or len(game.playing()) == 1
        if game.mode == "shared":
            assert len(game.cards) == len(game.playing()) - 1 or not game.reserve


def check_end(game: TripleGame) -> None:
    outcome, standings = game.outcome, game.standings
    seats = sorted(seat for place in standings for seat in place)
    assert seats == list(range(1, game.players + 1))  # every seat placed exactly once
    assert outcome.winners == (standings[0] if len(standings) > 1 else ())
    taken = game.taken
    if game.mode == "shared":
        assert len(set(game.eliminated)) == len(game.eliminated)
        assert standings[1:] == tuple((seat,) for seat in reversed(game.eliminated))
        assert standings[0] == game.playing()
        if outcome.termination is Termination.LAST_PLAYER:
            assert len(game.eliminated) == game.players - 1 and len(outcome.winners) == 1
        assert len(game.eliminated) == len({c.turn for c in game.claims})  # one elimination per turn
    elif game.mode == "bonus":
        scores = [len(taken[place[0]]) for place in standings]
        assert scores == sorted(set(scores), reverse=True)
        assert all(len(taken[s]) == len(taken[place[0]]) for place in standings for s in place)
        assert outcome.termination in (Termination.CARDS_OUT, Termination.REPETITION)
        if outcome.termination is Termination.CARDS_OUT:
            assert sum(map(len, taken.values())) == len(game.dealt) and game.cards == ()
    else:
        if outcome.termination is Termination.OWN_PATTERN:
            (winner,) = outcome.winners
            assert [c.seat for c in game.claims] == [winner]
            assert game.claims[0].card == game.personal[winner - 1]


@st.composite
def options(draw) -> TripleOptions:
    players = draw(st.integers(2, 4))
    mode = draw(st.sampled_from(["shared", "personal", "bonus"]))
    seed, two_colour, short = draw(st.integers(0, 10_000)), draw(st.booleans()), draw(st.integers(1, 3))
    base = TripleOptions(players, seed=seed, two_colour=two_colour, personal=mode == "personal", bonus=mode == "bonus")
    if mode == "bonus":  # a short deck keeps the bonus game short
        return TripleOptions(players, deal(base)[:short], two_colour=two_colour, bonus=True)
    return base


@settings(max_examples=10, deadline=None)
@given(options(), st.integers(1, 4), st.randoms(use_true_random=False))
def test_random_triple_games_to_the_end_keep_every_rule(opts, starter, rng):
    game = TripleGame(opts, min(starter, opts.players))
    turns = 0
    while not game.is_over() and turns < MAX_TURNS:
        play_turn(game, rng)
        turns += 1
    assert game.is_over()
    check_end(game)
