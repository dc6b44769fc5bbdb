"""docs/games/ explains the LED menu as the page does: its tables are drawn from the registry
(controller/daemon/web/menu_doc.py) and the committed pages must match it."""

from __future__ import annotations

import pytest

from controller.daemon.web import menu_doc
from controller.daemon.web.layout import menu_pages
from controller.games import GAMES


@pytest.mark.parametrize("game", [None, *(spec.name for spec in GAMES)])
def test_the_committed_menu_table_matches_the_registry(game):
    text = menu_doc.page(game).read_text()
    assert menu_doc.rewritten(text, game) == text, "run: python -m controller.daemon.web.menu_doc"


def test_every_game_of_the_registry_has_a_page_linked_from_the_games_index():
    index = menu_doc.page(None).read_text()
    for spec in GAMES:
        assert menu_doc.page(spec.name).read_text().startswith(f"# {spec.title}\n"), spec.name
        assert f"]({spec.name}.md)" in index, spec.name


def _rows(game: str | None) -> dict[str, list[str]]:
    """The committed table of ``game``'s page, read as Markdown: ``{first cell: the other cells}``,
    every line a row of the header's width (Markdown drops the cells past the header's)."""
    lines = menu_doc.page(game).read_text().split(menu_doc.BEGIN, 1)[1].split(menu_doc.END, 1)[0].strip().splitlines()
    width = len(lines[0].strip("|").split("|"))
    cells = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines[2:]]
    assert all(len(row) == width for row in cells)
    return {row[0]: [cell for cell in row[1:] if cell] for row in cells}


def test_the_pages_explain_every_menu_page_as_the_web_page_does():
    """Read back from the committed Markdown, independently of the generator: every page of
    every game on every board size, in the order its holes light."""
    for size in (6, 9):
        menu = menu_pages(size)
        game_rows = _rows(None)
        assert game_rows.get("Game (`game`)", game_rows.get(f"Game (`game`), {size}x{size}")) == [
            g["means"] for g in menu["games"]]
        for game, pages in menu["pages"].items():
            rows = _rows(game)
            for page, options in pages.items():
                label = f"{menu['labels'][game][page]} (`{page}`)"
                assert rows.get(label, rows.get(f"{label}, {size}x{size}")) == [o["means"] for o in options], (game, page)


def test_a_page_without_its_markers_is_refused():
    with pytest.raises(ValueError, match="no menu table markers"):
        menu_doc.rewritten("# Classic Pentago\n", "classic")
