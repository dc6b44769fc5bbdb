"""The classroom console's page in headless Chromium, with a real Mosquitto and three daemons on
virtual boards: it lists the three boards online and starts the same Picture-Puzzle round (same
picture, names and k) on every one of them; it has the board page's look and words (issue 22,
item 15): pictures by title with their difficulty, what each board is at in words, each board's
refusal beside it, screenshots at 1366x768 and 390x844 (artifacts/screens/)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.test_sim_page import ARTIFACTS, browser  # noqa: F401 (browser: a fixture)
from tests.browser.test_sim_page_guidance import LAPTOP, shots
from tests.classroom.test_console import console  # noqa: F401 (a fixture)
from tests.daemon.mqtt.test_daemons import BOARDS, boards, broker  # noqa: F401 (fixtures)


def test_the_console_starts_a_round_on_every_board(browser, boards, console):  # noqa: F811
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(console.url)
    for name in BOARDS:
        expect(page.locator(f'tr[data-board="{name}"] [data-status]')).to_have_text("online", timeout=20_000)
        expect(page.locator(f'tr[data-board="{name}"]')).to_contain_text("at the menu")  # not "choosing"
    assert page.evaluate("getComputedStyle(document.querySelector('.card')).borderRadius") == "12px"  # the board page's look
    expect(page.locator("#picture")).to_be_disabled()  # the first game takes none of the puzzle fields' options
    page.select_option("#game", "puzzle")
    expect(page.locator("#picture")).to_be_enabled()  # the form asks the game's options, not its name
    page.check("#practice")
    expect(page.locator("#players")).to_be_disabled()  # practice is one player
    page.uncheck("#practice")
    expect(page.locator("#players")).to_be_enabled()
    pictures = page.locator("#picture option").all_inner_texts()
    assert "House (difficulty 5/5 on 9x9, 5/5 on 6x6)" in pictures and "house" not in pictures
    assert next(text for text in pictures if text.startswith("Four W")).endswith("(9x9 boards only)")

    page.select_option("#picture", label=next(text for text in pictures if text.startswith("Four W")))
    page.click("#start-all")  # six-by-six boards: each refuses a 9x9 picture, and the console says so before sending
    expect(page.locator("#answer")).to_contain_text(
        "Could not start a new game on boards b1, b2, b3: no picture 'four-w' for the 6x6 board")  # issue 31, item 3
    for name in BOARDS:
        expect(page.locator(f'tr[data-board="{name}"] .answer')).to_have_text(re.compile(  # the reason first, no "refused: new_game:"
            f"^Could not start a new game on board {name}: no picture 'four-w' for the 6x6 board: Four W is for the 9x9 board only"))
    shots(page, "classroom-refused")

    page.select_option("#picture", label="House (difficulty 5/5 on 9x9, 5/5 on 6x6)")
    page.fill("#start_k", "2")
    page.select_option("#players", "3")
    page.fill("#names", "Ada, Bo, Cy")
    page.click("#start-all")
    expect(page.locator("#answer")).to_have_text("sent to b1, b2, b3")
    for name in BOARDS:
        row = page.locator(f'tr[data-board="{name}"]')
        expect(row).to_contain_text("Picture-Puzzle", timeout=20_000)
        expect(row).to_contain_text("Ada, Bo, Cy")
        expect(row).to_contain_text("House, k = 2; Ada to restore")  # in the build it said "Ada restores"
        expect(row).to_contain_text("Build House: put a stone on each lit hole, in its colour")
        expect(row.locator(".answer")).to_have_text("started")
        state = boards[name].state()
        assert state["game"] == "puzzle" and [s["name"] for s in state["seats"]] == ["Ada", "Bo", "Cy"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "classroom.png"))  # for people to look at
    shots(page, "classroom")
    assert errors == []
    page.close()
