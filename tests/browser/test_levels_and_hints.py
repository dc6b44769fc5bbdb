"""The sim page's computer controls in headless Chromium: a box per seat for the computer, the
level select, and the Hint button lighting the move the analysis returns (issue 13)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from controller.ai import analyse, to_move
from controller.rules import ClassicGame

from .test_sim_page import browser, open_page, place, sim  # noqa: F401 (browser and sim: fixtures)


@pytest.fixture
def console(request):
    """The sim page of a fresh virtual board (the sim page tests' fixtures, by name)."""
    yield from open_page(request.getfixturevalue("browser"), request.getfixturevalue("sim").url)


def test_a_hint_lights_the_analysed_move_and_leaves_the_turn_free(console: Page):
    page = console
    page.select_option("#level", label="easy: looks one move ahead")  # level 1: repeatable, no search clock
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    place(page, "c3", 1)
    page.click('.arrow-hit[data-block="4"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("c3 4R")
    game = ClassicGame()
    game.push_text("c3 4R")
    best = game.move_name(to_move(game, *analyse(game, level=1).move))
    page.click("#hint")
    expect(page.locator("#notices")).to_contain_text(f"hint for Seat 2: {best}:", timeout=20_000)
    hole = best.split()[0]
    page.wait_for_function(  # the hinted hole glows (it is empty: only its LED can light it)
        """(name) => document.querySelector(`[data-led-hole="${name}"]`).getAttribute("data-rgb") !== "0,0,0" """,
        arg=hole)
    other = next(name for name in ("a6", "f6", "a5") if name != hole)
    place(page, other, 2)  # a hint restricts nothing: another move is played
    expect(page.locator("#turn-text")).to_have_text("Seat 2 (black) to turn a block")
    expect(page.locator(f'[data-led-hole="{hole}"]')).to_have_attribute("data-rgb", "0,0,0")


def test_the_computer_plays_the_seats_ticked_at_the_level_chosen(console: Page):
    page = console
    page.uncheck("#hints")
    expect(page.locator("#level")).to_be_disabled()  # no computer seat, no hints: no level to choose
    page.check("#computer-1")
    expect(page.locator("#level")).to_be_enabled()
    page.select_option("#level", label="beginner: takes a five and blocks one, otherwise plays almost at random")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#notices")).to_contain_text("Computer (beginner) plays", timeout=20_000)
    state = page.evaluate("fetch('/api/state' + location.search).then(r => r.json())")["state"]
    assert (state["options"]["computer"], state["options"]["level"], state["options"]["hints"]) == ([1], 0, False)
    expect(page.locator("#computer-1")).to_be_checked()
