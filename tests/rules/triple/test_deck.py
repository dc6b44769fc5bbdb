"""The shipped deck of Triple pattern cards validates, is balanced, and a user's deck file can
replace it with errors that name the file and the line."""

from collections import Counter
from pathlib import Path

import pytest

from controller.rules import NotationError, load_deck
from controller.rules.triple.cards import parse_deck

DECK_FILE = Path(__file__).resolve().parents[3] / "controller" / "rules" / "triple" / "data" / "triple-deck.txt"


def test_the_shipped_deck_has_20_distinct_cards_of_five_letters():
    deck = load_deck()
    assert len(deck) == 20
    assert all(len(str(card)) == 5 and set(str(card)) <= set("BYR") for card in deck)
    patterns = {min(card.colours, card.colours[::-1]) for card in deck}
    assert len(patterns) == 20  # no card is another read backwards
    assert load_deck(DECK_FILE) == deck


def test_the_shipped_deck_is_balanced():
    deck = load_deck()
    letters = Counter("".join(map(str, deck)))
    assert letters == {"B": 33, "Y": 34, "R": 33}  # each colour about a third of the 100 marbles shown
    pairs = Counter(card.colours_used for card in deck if len(card.colours_used) == 2)
    assert pairs == {(0, 1): 4, (0, 2): 4, (1, 2): 4}  # 12 two-colour cards, 4 per pair of colours
    assert sum(len(card.colours_used) == 3 for card in deck) == 8  # 8 use all three
    assert not any(len(card.colours_used) == 1 for card in deck)


def test_a_user_deck_file_replaces_the_shipped_one(tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("# my cards\nBYRYB\n\nrrybb\n")
    assert [str(c) for c in load_deck(mine)] == ["BYRYB", "RRYBB"]


@pytest.mark.parametrize("text, message", [
    ("BYRYB\nBYRY\n", "mine.txt line 2: 'BYRY' is not a card: write five colour letters B, Y or R, e.g. BYRYB"),
    ("BYRYB\n# x\nBYRYB\n", "mine.txt line 3: BYRYB is already on line 1; cards must differ"),
    ("RRYBB\nBBYRR\n", "mine.txt line 2: BBYRR is RRYBB (line 1) read backwards; cards must differ"),
    ("# nothing\n", "mine.txt: no cards (one card a line, e.g. BYRYB)"),
])
def test_a_bad_deck_file_is_refused_naming_the_line(tmp_path, text, message):
    mine = tmp_path / "mine.txt"
    mine.write_text(text)
    with pytest.raises(NotationError) as error:
        load_deck(mine)
    assert str(error.value) == message


def test_parse_deck_names_its_source():
    with pytest.raises(NotationError, match="^deck line 1: "):
        parse_deck("XXXXX")
