"""The page says when the board cannot save (paused) or its referee does not answer (stopped),
in words over the board and in the header, and goes back to live by itself (issue 19, items 5
and 7). Headless Chromium on a real daemon's parts served in-process (see
tests/daemon/test_stopped_board.py), the journal's disk made full as in test_cannot_save.py."""

from __future__ import annotations

from playwright.sync_api import expect

from controller.daemon import runtime as runtime_module
from tests.browser.test_sim_page import browser  # noqa: F401 (a fixture)
from tests.daemon.test_cannot_save import FullDisk
from tests.daemon.test_stopped_board import api, hanging, serving  # noqa: F401 (hanging: a fixture)


def test_the_page_shows_paused_and_stopped_in_words_and_live_again(browser, hanging, monkeypatch):  # noqa: F811
    monkeypatch.setattr(runtime_module, "RETRY_S", (0.3, 0.6))
    disk = FullDisk(monkeypatch)
    daemon, port, release = hanging()
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serving(daemon):
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator("#link")).to_have_text("live")
        expect(page.locator("#health")).to_be_hidden()
        disk.full = True
        assert api(port, "/api/command", {"name": "new_game", "args": {"game": "classic"}})[0] == 202
        expect(page.locator("#link")).to_have_text("paused")
        expect(page.locator("#health")).to_have_text(
            "cannot save: the board is paused (No space left on device); it goes on by itself once its "
            "journal can be written again")
        disk.full = False
        expect(page.locator("#health")).to_be_hidden()
        expect(page.locator("#turn-text")).to_contain_text("to place a marble")  # the new game, saved
        assert api(port, "/api/command", {"name": "hint"})[0] == 202  # the referee hangs on it
        expect(page.locator("#link")).to_have_text("stopped")
        expect(page.locator("#health")).to_contain_text("stopped: the referee has not answered for")
        release.set()
        expect(page.locator("#link")).to_have_text("live")
        expect(page.locator("#health")).to_be_hidden()
    assert errors == []
    page.close()
