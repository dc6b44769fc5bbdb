"""The simulator page in headless Chromium (Debian's, never a downloaded one): a short classic
game played by clicking, the turn LED changing colour, the winning row lighting up, and a
screenshot kept as a CI artefact (artifacts/sim.png)."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.daemon.daemon_proc import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "artifacts"


@pytest.fixture
def sim():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "controller", "sim", "--port", str(port), "--no-browser"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert line.startswith("Virtual board: http://127.0.0.1:"), line
    yield SimpleNamespace(url=line.split()[2], proc=proc)
    if proc.poll() is None:
        proc.terminate()
    assert proc.wait(15) == 0


@pytest.fixture
def sim_url(sim):
    return sim.url


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), "apt-get install chromium (the test never downloads a browser)"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, sim_url):
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sim_url)
    expect(page.locator("#link")).to_have_text("live")
    yield page
    assert errors == []
    page.close()


def status_rgb(page: Page) -> str:
    return page.locator('.led-core[data-kind="status"]').first.get_attribute("data-rgb")


def place(page: Page, hole: str, seat: int | None) -> None:
    page.click(f'[data-hole="{hole}"]')
    expect(page.locator("#notices")).to_contain_text(f"{hole} placed" + (f" by seat {seat}" if seat else ""))


def test_a_classic_game_played_by_clicking(page: Page):
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    white = status_rgb(page)

    place(page, "a1", 1)
    place(page, "f1", 2)  # seat 1 skipped the twist (neutral blocks remain)
    black = status_rgb(page)
    assert white != black and white != "0,0,0" and black != "0,0,0"
    expect(page.locator('[data-hole="f1"] ~ .marble, .marble[data-colour="black"]')).to_have_count(1)
    for hole_1, hole_2 in (("a2", "f2"), ("a3", "f3"), ("a4", "f4")):
        place(page, hole_1, 1)
        assert status_rgb(page) == white
        place(page, hole_2, 2)
        assert status_rgb(page) == black
    # f4 took the last neutral block: seat 2 must twist; clicking the arrow turns block 4 (f1-f3).
    expect(page.locator("#turn-text")).to_have_text("Seat 2 (black) to turn a block")
    page.click('.arrow-hit[data-block="4"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("f4 4R")
    expect(page.locator('.marble[data-colour="black"]')).to_have_count(4)
    assert status_rgb(page) == white

    place(page, "a5", None)  # five in column a on placement: seat 1 wins, no twist
    expect(page.locator("#outcome")).to_have_text("Seat 1 wins!")
    expect(page.locator("#moves li").last).to_have_text("a5")
    row = [f"a{n}" for n in range(1, 6)]
    page.wait_for_function("""(row) => row.every(name =>
        document.querySelector(`[data-led-hole="${name}"]`).getAttribute("data-rgb") !== "0,0,0")""", arg=row)
    assert page.locator('[data-led-hole="c3"]').get_attribute("data-rgb") == "0,0,0"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sim.png"))


def test_lifting_a_marble_and_the_buttons_and_a_clear_error(page: Page):
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    page.click('[data-hole="c3"]')
    expect(page.locator('.marble[data-colour="white"]')).to_have_count(1)
    page.click('[data-hole="c3"]')  # lift it again: the placement is undone on the board
    expect(page.locator('.marble[data-colour="white"]')).to_have_count(0)
    page.click("#menu")
    expect(page.locator("#turn-text")).to_contain_text("Menu, ")
    page.click("#ok")
    expect(page.locator("#notices")).to_contain_text("new classic game")


def test_dragging_a_block_round_turns_it(page: Page):
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    place(page, "a1", 1)
    box = page.locator('g[data-block="3"] > .block').bounding_box()
    left = (box["x"] + 6, box["y"] + box["height"] / 2)
    top = (box["x"] + box["width"] / 2, box["y"] + 6)
    page.mouse.move(*left)
    page.mouse.down()
    for step in range(1, 11):  # along the arc from the left edge up to the top: clockwise
        a = step / 10 * 1.5708
        page.mouse.move(top[0] - (top[0] - left[0]) * math.cos(a),
                        left[1] - (left[1] - top[1]) * math.sin(a))
    page.mouse.up()
    expect(page.locator("#moves li").last).to_have_text("a1 3R")


def test_the_computer_opponents_move_lights_up_and_is_played_by_clicking(page: Page):
    page.check("#computer")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    place(page, "c3", 1)
    page.click('.arrow-hit[data-block="4"][data-dir="R"]')  # seat 1 twists an empty block
    expect(page.locator("#moves li").last).to_have_text("c3 4R")
    expect(page.locator("#notices")).to_contain_text("computer plays", timeout=20_000)
    notice = page.locator("#notices li", has_text="computer plays").last.inner_text()
    move = notice.split("computer plays ")[1].split(":")[0]  # e.g. "e5 2L"
    hole, twist = move.split()
    page.wait_for_function(  # the computer's hole glows (it is empty: only its LED can light it)
        """(name) => document.querySelector(`[data-led-hole="${name}"]`).getAttribute("data-rgb") !== "0,0,0" """,
        arg=hole)
    place(page, hole, 2)
    page.click(f'.arrow-hit[data-block="{twist[0]}"][data-dir="{twist[1]}"]')
    expect(page.locator("#moves li").last).to_have_text(move)
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sim-computer.png"))


def arrow_stroke(page: Page, block: int, direction: str) -> str:
    return page.eval_on_selector(f'.arrow-hit[data-block="{block}"][data-dir="{direction}"]',
                                 "hit => getComputedStyle(hit.nextElementSibling).stroke")


def test_the_menu_lights_and_connection_are_explained_and_the_board_clears_in_one_click(page: Page, sim):
    # Issue 9 item 16: the menu says what each lit hole means, and a marble on no option is named.
    expect(page.locator("#menu-options")).to_contain_text("a1: two players at the board")
    expect(page.locator("#menu-options")).to_contain_text("b1: play against the computer (it plays seat 2)")
    # Item 17: a legend for the LED colours, named as they look (black glows violet).
    expect(page.locator("#legend")).to_contain_text("violet: turn pixels: black to move")
    expect(page.locator("#legend")).to_contain_text("blue: the computer's move")
    # Item 20: the turn light stays round while its text wraps.
    swatch, text = page.locator("#turn-swatch").bounding_box(), page.locator("#turn-text").bounding_box()
    assert text["height"] > 2 * swatch["height"] and abs(swatch["width"] - swatch["height"]) < 0.5
    page.click('[data-hole="c3"]')
    expect(page.locator("#menu-stray")).to_have_text("c3 is not a menu option: lift that marble (the options are a1, b1).")
    page.click('[data-hole="c3"]')
    expect(page.locator("#menu-stray")).to_be_hidden()
    # The "computer plays seat 2" box follows the menu's pick, then the game it starts.
    expect(page.locator("#computer")).not_to_be_checked()
    page.click('[data-hole="b1"]')
    expect(page.locator("#menu-options li.picked")).to_have_text("b1: play against the computer (it plays seat 2) (picked)")
    expect(page.locator("#computer")).to_be_checked()
    page.click('[data-hole="b1"]')  # lifting it confirms: on to the match page
    expect(page.locator("#menu-chosen")).to_contain_text("Classic Pentago")
    expect(page.locator("#menu-chosen")).to_contain_text("play against the computer")
    page.click("#ok")  # a single game
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    expect(page.locator("#computer")).to_be_checked()

    # Item 20: a clicked arrow does not stay lit by its focus (it looked like an LED).
    place(page, "a1", 1)
    unlit = arrow_stroke(page, 3, "L")
    page.click('.arrow-hit[data-block="4"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("a1 4R")
    page.mouse.move(0, 0)
    assert arrow_stroke(page, 4, "R") == unlit
    # Item 20: "Clear board" lifts every marble in one click.
    page.click('[data-hole="f6"]')
    expect(page.locator('.marble[visibility="visible"]')).to_have_count(2)
    page.click("#clear")
    expect(page.locator('.marble[visibility="visible"]')).to_have_count(0)

    # Item 11: the server stops at once with the tab open; the page says so and keeps clicks' failures visible.
    started = time.monotonic()
    sim.proc.terminate()
    assert sim.proc.wait(15) == 0 and time.monotonic() - started < 3
    expect(page.locator("#link")).to_have_text("reconnecting")
    expect(page.locator("#link")).to_have_text("offline", timeout=15_000)
    page.click('[data-hole="c3"]')
    expect(page.locator("#notices li.local").last).to_contain_text("Could not reach the board (board/place)")
