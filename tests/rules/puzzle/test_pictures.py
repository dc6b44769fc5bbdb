"""The picture format (parse, format, errors naming the line and column) and the shipped library:
every picture parses, round-trips through its text, fits its board and has a difficulty rating."""

from pathlib import Path

import pytest

from controller.rules import NotationError
from controller.rules.puzzle.picture_rating import rate
from controller.rules.puzzle.pictures import (
    Picture, format_picture, library_names, library_picture, load_picture, parse_picture,
)

LIBRARY = Path(__file__).resolve().parents[3] / "controller" / "rules" / "puzzle" / "data" / "pictures"
TITLES = ("Red Cross", "H", "Square", "Triangle", "Space Rocket", "House", "Traffic Jam", "Lightning",
          "Orion", "Four W", "Love", "Jackson Pollock")
SHIPPED = [(size, name) for size in (9, 6) for name in library_names(size)]


def test_the_9x9_library_is_the_rulebooks_twelve_pictures_in_its_order():
    assert [library_picture(name, 9).title for name in library_names(9)] == list(TITLES)


def test_the_6x6_library_has_every_picture_that_fits_but_four_w():
    assert set(library_names(6)) == set(library_names(9)) - {"four-w"}


@pytest.mark.parametrize("size, name", SHIPPED)
def test_every_shipped_picture_parses_round_trips_fits_and_is_rated(size, name):
    text = (LIBRARY / f"{size}x{size}" / f"{name}.txt").read_text()
    picture = parse_picture(text)
    assert picture.size == size and picture.name == name
    assert parse_picture(format_picture(picture)) == picture
    assert format_picture(picture).count("\n") == size + 1
    difficulty = rate(picture)
    assert 1 <= difficulty.score <= 5 and difficulty.stones == picture.stone_count
    assert 1 <= len(picture.colours_used) <= 4 and picture.stone_count >= 1


def test_ratings_follow_what_the_rulebook_names():
    ratings = {name: rate(library_picture(name, 9)).score for name in library_names(9)}
    assert ratings["jackson-pollock"] == 5  # every block, four colours, no symmetry
    assert ratings["red-cross"] == ratings["square"] == min(ratings.values())  # one colour, all eight symmetries
    assert max(ratings.values()) - min(ratings.values()) >= 3  # the library spreads over the scale


def test_pictures_are_found_by_name_title_or_file(tmp_path):
    assert library_picture("Space Rocket", 9) == library_picture("space-rocket", 9)
    mine = tmp_path / "mine.txt"
    mine.write_text(format_picture(library_picture("love", 6)))
    assert load_picture(str(mine)).title == "Love"
    assert load_picture("love", 6).size == 6 and load_picture("love").size == 9


@pytest.mark.parametrize("call, message", [
    # the board it is for is named (issue 22: the classroom console's refusal said only "no picture")
    (lambda: library_picture("four-w", 6), "no picture 'four-w' for the 6x6 board: Four W is for the 9x9 board "
                                           "only (pictures: red-cross, h, "),
    (lambda: load_picture("nothing-such"), "no picture 'nothing-such' for the 9x9 board"),
])
def test_unknown_pictures_are_refused_naming_the_library(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert str(error.value).startswith(message)


def test_a_file_for_the_other_board_is_refused(tmp_path):
    mine = tmp_path / "small.txt"
    mine.write_text(format_picture(library_picture("love", 6)))
    with pytest.raises(ValueError, match="^small.txt is a 6x6 picture, not for the 9x9 board$"):
        load_picture(str(mine), 9)


def test_the_format_is_generous_and_prints_one_canonical_form():
    text = "# a comment\n  Tiny  \n\n" + "......\n" * 4 + "# between rows\nr.b...\n...g.w\n"
    picture = parse_picture(text)
    assert isinstance(picture, Picture) and picture.title == "Tiny"
    assert format_picture(picture) == "Tiny\n" + ". . . . . .\n" * 4 + "R . B . . .\n. . . G . W\n"
    assert picture.rows()[-1] == "...G.W"


ROW = ". . . . . .\n"


@pytest.mark.parametrize("text, message", [
    ("", "mine.txt: empty; a picture is a title line, then its rows (top row first)"),
    ("Tiny\n" + ROW * 5, "mine.txt line 6: the picture has 5 rows after its title 'Tiny'; "
     "a picture has 6 rows of 6 holes (6x6) or 9 rows of 9 (9x9)"),
    ("Tiny\n" + ROW * 3 + ". . Y . . .\n" + ROW * 2,
     "mine.txt line 5, column 5: 'Y' is not a colour: write W white, B black, R red, G green, or . for an empty hole"),
    ("Tiny\n" + ROW * 2 + ". . R . .\n" + ROW * 3, "mine.txt line 4, column 10: a row has 6 holes; this one has 5"),
    ("Tiny\n" + ROW + "R . . . . . W\n" + ROW * 4, "mine.txt line 3, column 13: a row has 6 holes; this one has more"),
    ("Tiny\n" + ROW * 6, "mine.txt line 1: the picture 'Tiny' has no stones"),
])
def test_format_errors_name_the_line_and_column(tmp_path, text, message):
    mine = tmp_path / "mine.txt"
    mine.write_text(text)
    with pytest.raises(NotationError) as error:
        load_picture(str(mine))
    assert str(error.value) == message


def test_a_board_captured_as_it_stands_is_a_picture_its_text_gives_back(tmp_path):
    from controller.rules.puzzle.pictures import picture_of
    from controller.rules.position import Position

    board = Position.parse("x......../" + "........./" * 7 + "........o", colours=2)  # W a9, B i1
    captured = picture_of("  My   Boat ", board)
    assert captured.title == "My Boat" and captured.colours_used == (0, 1) and captured.name == "my-boat"
    mine = tmp_path / "my-boat.txt"
    mine.write_text(format_picture(captured))  # the daemon's store writes it (tests/games/puzzle/test_store.py)
    assert load_picture(str(mine)) == captured


@pytest.mark.parametrize("title, board, message", [
    ("  ", "x" + "." * 35, "a picture needs a title, not '  '"),
    ("Empty", "." * 36, "the board is empty: put the picture's stones on it first"),
])
def test_a_capture_needs_a_title_and_stones(title, board, message):
    from controller.rules.puzzle.pictures import picture_of
    from controller.rules.position import Position

    with pytest.raises(ValueError) as error:
        picture_of(title, Position.parse(board))
    assert str(error.value) == message
