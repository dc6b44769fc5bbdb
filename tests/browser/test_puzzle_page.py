"""Picture-Puzzle on the simulator page in headless Chromium: a picture built by clicking, one
dismantle-restore round that passes and one that fails (the seat out, the picture guided back);
and a screenshot of every library picture on both boards (artifacts/pictures/, for people to
check that each is recognisable at a glance)."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import Page, expect

from controller.rules import hole_name
from controller.rules.puzzle.pictures import NAMES as COLOUR_NAMES
from controller.rules.puzzle.pictures import library_names, library_picture
from tests.browser.test_sim_page import ARTIFACTS, browser, open_page, run_sim  # noqa: F401 (browser: a fixture)


@pytest.fixture
def sim9():
    yield from run_sim("--board", "9x9")


@pytest.fixture
def page9(browser, sim9):  # noqa: F811 (browser: the imported fixture)
    yield from open_page(browser, sim9.url)


def api(page: Page, url: str, path: str, body: dict) -> None:
    """POST to the daemon's API as the page does (with the run's token)."""
    parts = urlsplit(url)
    answer = page.request.post(f"{parts.scheme}://{parts.netloc}{path}?{parts.query}", data=body)
    assert answer.ok, answer.text()


def click_hole(page: Page, hole: str, colour: str) -> None:
    page.check(f'input[name="colour"][value="{colour}"]')
    page.click(f'[data-hole="{hole}"]')


def turn(page: Page, twist: str) -> None:
    page.click(f'.arrow-hit[data-block="{twist[0]}"][data-dir="{twist[1]}"]')


def test_a_picture_built_on_the_page_then_a_round_that_passes_and_one_that_fails(page9: Page):
    page = page9
    page.select_option("#game", "puzzle")
    page.select_option("#picture", label=page.locator("#picture option", has_text="Orion").inner_text())
    page.select_option("#players", label="3 players")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#notices")).to_contain_text("new game of Picture-Puzzle")
    orion = library_picture("orion", 9)
    g = orion.position.geometry
    lit = page.locator('[data-led-hole="c7"]')
    expect(lit).not_to_have_attribute("data-rgb", "0,0,0")  # the build lights each hole of the picture
    for hole, colour in orion.holes():
        click_hole(page, hole_name(hole, g), COLOUR_NAMES[colour])
    expect(page.locator("#notices")).to_contain_text("Seat 1: look away! Seat 2: dismantle now")
    expect(page.locator("#turn-text")).to_have_text("Seat 2: take 1 stone out and make 1 twist (Seat 1 looks away)")
    expect(page.locator("#round")).to_have_text("Orion: stage 1, k = 1 (stones out and twists in each dismantle)")

    page.click('[data-hole="e8"]')  # seat 2 takes a stone out...
    turn(page, "1R")  # ...and turns the top-left block: Betelgeuse moves from c7 to a7
    expect(page.locator("#notices")).to_contain_text("Seat 1: restore now")
    click_hole(page, "e8", "white")
    turn(page, "1L")
    expect(page.locator("#notices")).to_contain_text("Seat 1 restored the picture")
    expect(page.locator("#notices")).to_contain_text("Seat 2: look away! Seat 3: dismantle now")

    page.click('[data-hole="e8"]')
    turn(page, "1R")
    expect(page.locator("#notices")).to_contain_text("Seat 2: restore now")
    click_hole(page, "d8", "white")  # one hole off
    turn(page, "1L")
    expect(page.locator("#notices")).to_contain_text("2 holes differ: Seat 2 is out")
    expect(page.locator("#notices")).to_contain_text("repair: remove the white marble on d8")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sim-puzzle-failed.png"))
    page.click('[data-hole="d8"]')
    click_hole(page, "e8", "white")
    expect(page.locator("#notices")).to_contain_text("Seat 3: look away! Seat 1: dismantle now")
    expect(page.locator("#summary-link")).to_be_visible()
    summary = page.request.get(urljoin(page.url, page.locator("#summary").get_attribute("href"))).text()
    rounds = [line.split(",") for line in summary.splitlines()[1:3]]
    assert rounds[0][:6] == ["1", "1", "1", "Seat 1", "Seat 2", "passed"] and float(rounds[0][6]) > 0
    assert rounds[1] == ["2", "1", "1", "Seat 2", "Seat 3", "the board differs from the picture", "", "Seat 2"]
    page.screenshot(path=str(ARTIFACTS / "sim-puzzle.png"))


@pytest.mark.parametrize("size", [9, 6])
def test_a_screenshot_of_every_library_picture(browser, size):  # noqa: F811 (browser: the imported fixture)
    sim = run_sim("--board", f"{size}x{size}")
    url = next(sim).url
    try:
        page = next(pages := open_page(browser, url))
        folder = ARTIFACTS / "pictures"
        folder.mkdir(parents=True, exist_ok=True)
        for name in library_names(size):
            picture = library_picture(name, size)
            api(page, url, "/api/command", {"name": "menu", "args": {}})
            api(page, url, "/api/board/clear", {})
            api(page, url, "/api/command", {"name": "new_game", "args": {
                "game": "puzzle", "picture": name, "players": 2, "show_s": 600}})
            for hole, colour in picture.holes():
                api(page, url, "/api/board/place", {"hole": hole_name(hole, picture.position.geometry),
                                                    "colour": COLOUR_NAMES[colour]})
            expect(page.locator("#notices")).to_contain_text("look at the picture, Seat 1")
            expect(page.locator(".marble[visibility=visible]")).to_have_count(picture.stone_count)
            page.locator("#board").screenshot(path=str(folder / f"{size}x{size}-{name}.png"))
        next(pages, None)
    finally:
        next(sim, None)


def test_the_board_saved_as_a_picture_from_the_page_is_offered_and_plays(page9: Page):
    page = page9
    click_hole(page, "e5", "white")  # at the menu the hand holds the board's own colours
    click_hole(page, "f6", "black")
    page.fill("#picture-title", "Kite")
    page.click("#save-picture button[type=submit]")
    expect(page.locator("#notices")).to_contain_text("saved the picture 'Kite' (2 stones) as 'kite' for the 9x9 board")
    page.fill("#picture-title", "Kite/2")
    page.click("#save-picture button[type=submit]")
    expect(page.locator("body")).to_contain_text("only letters, digits, spaces, - and ' (no '/')")
    page.select_option("#game", "puzzle")  # the form offers it at once, under its title
    page.select_option("#picture", label=page.locator("#picture option", has_text="Kite (difficulty").inner_text())
    page.click("#new-game button[type=submit]")
    expect(page.locator("#notices")).to_contain_text("new game of Picture-Puzzle")
    expect(page.locator("#notices")).to_contain_text("build Kite")


def test_the_form_offers_practice_for_one_child_and_the_computer_dismantles(page9: Page):
    page = page9
    page.select_option("#game", "puzzle")
    box = page.locator("label", has=page.locator("#practice"))
    expect(box).to_have_text("practice (the computer dismantles)")
    expect(page.locator("#name-fields input[type=text]")).to_have_count(2)
    page.check("#practice")
    expect(page.locator("#name-fields input[type=text]")).to_have_count(1)  # one child
    page.fill("#name-1", "Ada")
    page.select_option("#picture", label=page.locator("#picture option", has_text="Orion").inner_text())
    page.click("#new-game button[type=submit]")
    expect(page.locator("#notices")).to_contain_text("new game of Picture-Puzzle")
    orion = library_picture("orion", 9)
    for hole, colour in orion.holes():
        click_hole(page, hole_name(hole, orion.position.geometry), COLOUR_NAMES[colour])
    expect(page.locator("#notices")).to_contain_text("look away! the computer dismantles (1 stone out, 1 twist)")


def test_practice_s_level_select_chooses_the_computer_s_dismantle(page9: Page, sim9):
    """Issue 13: the form's Level select (the four dismantle levels) is live only with the
    practice box ticked, and the level chosen reaches the game; the players select leaves the
    menu's "1 player" to the box."""
    page = page9
    page.select_option("#game", "puzzle")
    expect(page.locator("#level option")).to_have_count(4)
    expect(page.locator("#level")).to_be_disabled()
    expect(page.locator("#players option")).to_have_text(["2 players", "3 players", "4 players"])
    page.check("#practice")
    expect(page.locator("#level")).to_be_enabled()
    page.select_option("#level", label="dismantle level 3: removals and twists mixed, each twist moving as many stones as it can")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#notices")).to_contain_text("new game of Picture-Puzzle")
    parts = urlsplit(sim9.url)
    state = page.request.get(f"{parts.scheme}://{parts.netloc}/api/state?{parts.query}").json()["state"]
    assert (state["options"]["practice"], state["options"]["players"], state["options"]["level"]) == (True, 1, 3)
