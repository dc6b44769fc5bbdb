"""The classroom console's page in headless Chromium, with a real Mosquitto and three daemons on
virtual boards: it lists the three boards online and starts the same Picture-Puzzle round (same
picture, names and k) on every one of them."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_sim_page import ARTIFACTS, browser  # noqa: F401 (browser: a fixture)
from tests.daemon.test_classroom import console  # noqa: F401 (a fixture)
from tests.daemon.test_mqtt_daemons import BOARDS, boards, broker  # noqa: F401 (fixtures)


def test_the_console_starts_a_round_on_every_board(browser, boards, console):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(console.url)
    for name in BOARDS:
        expect(page.locator(f'tr[data-board="{name}"] [data-status]')).to_have_text("online", timeout=20_000)
    page.select_option("#game", "puzzle")
    page.select_option("#picture", "house")
    page.select_option("#start_k", "2")
    page.fill("#names", "Ada, Bo, Cy")
    page.click("#start-all")
    expect(page.locator("#answer")).to_have_text("sent to b1, b2, b3")
    for name in BOARDS:
        row = page.locator(f'tr[data-board="{name}"]')
        expect(row).to_contain_text("puzzle", timeout=20_000)
        expect(row).to_contain_text("Ada, Bo, Cy")
        expect(row).to_contain_text("k = 2")
        state = boards[name].state()
        assert state["game"] == "puzzle" and [s["name"] for s in state["seats"]] == ["Ada", "Bo", "Cy"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "classroom.png"))  # for people to look at
    assert errors == []
    page.close()
