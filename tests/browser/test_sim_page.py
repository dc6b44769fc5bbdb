"""The simulator page in headless Chromium (Debian's, never a downloaded one): a short classic
game played by clicking, the turn LED changing colour, the winning row lighting up, and a
screenshot kept as a CI artefact (artifacts/sim.png); on the 9x9 board a 3-player multiplayer
game chosen in the form, played to a first place whose row stays lit while the others play on
(artifacts/sim-multiplayer.png), four seats' colours and team play's pairs."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.browser.conftest import WAIT_MS
from tests.daemon.daemon_proc import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "artifacts"


def run_sim(*args: str):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "controller", "sim", "--port", str(port), "--no-browser", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert line.startswith("Virtual board: http://127.0.0.1:"), line
    try:
        yield SimpleNamespace(url=line.split()[2], proc=proc)
    finally:  # a test that fails inside `for sim in run_sim()` closes this at the yield: the simulator goes too
        if proc.poll() is None:
            proc.terminate()
        status = proc.wait(15)
    assert status == 0


def test_a_test_that_fails_leaves_no_simulator_running():
    """A failed test closed run_sim at its yield, and its simulator ran on after the suite
    (seven of them, an hour later)."""
    runs = run_sim()
    sim = next(runs)
    runs.close()  # what a failing `for sim in run_sim()` body does
    assert sim.proc.poll() is not None


@pytest.fixture
def sim():
    yield from run_sim()


@pytest.fixture
def sim9():
    yield from run_sim("--board", "9x9")


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


def open_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.set_default_timeout(WAIT_MS)  # clicks and reads wait as long as expect() does (conftest.py)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    expect(page.locator("#link")).to_have_text("live")
    yield page
    assert errors == []
    page.close()


@pytest.fixture
def page(browser, sim_url):
    yield from open_page(browser, sim_url)


@pytest.fixture
def page9(browser, sim9):
    yield from open_page(browser, sim9.url)


def status_rgb(page: Page) -> str:
    return page.locator('.led-core[data-kind="status"]').first.get_attribute("data-rgb")


def place(page: Page, hole: str, seat: int | str | None) -> None:
    """Click ``hole``; the notice names who placed it (a seat's name, or a seat number when it
    has none), or no one for a placement that ends a turn."""
    page.click(f'[data-hole="{hole}"]')
    who = f"Seat {seat}" if isinstance(seat, int) else seat
    expect(page.locator("#notices")).to_contain_text(f"{hole} placed" + (f" by {who}" if who else ""))


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
    expect(page.locator("#notices")).to_contain_text("new game of Classic Pentago")


def test_dragging_a_block_round_turns_it(page: Page):
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    place(page, "a1", 1)
    page.locator('g[data-block="3"] > .block').scroll_into_view_if_needed()  # the form's Start button scrolled it away
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
    page.check("#computer-2")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    place(page, "c3", 1)
    page.click('.arrow-hit[data-block="4"][data-dir="R"]')  # seat 1 twists an empty block
    expect(page.locator("#moves li").last).to_have_text("c3 4R")
    expect(page.locator("#notices")).to_contain_text("Computer (normal) plays", timeout=20_000)
    notice = page.locator("#notices li", has_text="Computer (normal) plays").last.inner_text()
    move = notice.split(" plays ")[1].split(":")[0]  # e.g. "e5 2L"
    hole, twist = move.split()
    page.wait_for_function(  # the computer's hole glows (it is empty: only its LED can light it)
        """(name) => document.querySelector(`[data-led-hole="${name}"]`).getAttribute("data-rgb") !== "0,0,0" """,
        arg=hole)
    place(page, hole, "Computer (normal)")
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
    expect(page.locator("#menu-options")).to_contain_text("a1: Classic Pentago")
    expect(page.locator("#menu-options")).to_contain_text("b1: Pentago Triple")  # the 6x6 board's games
    page.click("#ok")  # classic
    expect(page.locator("#menu-options")).to_contain_text("a1: two players at the board")
    expect(page.locator("#menu-options")).to_contain_text("b1: play against the computer (it plays seat 2)")
    # Item 17: a legend for the LED colours, named as they look (black glows violet).
    expect(page.locator("#legend")).to_contain_text("violet: turn pixels: black to move")
    expect(page.locator("#legend")).to_contain_text("sky blue: the computer's move or a hint")
    # Item 20: the turn light stays round while its text wraps.
    swatch, text = page.locator("#turn-swatch").bounding_box(), page.locator("#turn-text").bounding_box()
    assert text["height"] > 2 * swatch["height"] and abs(swatch["width"] - swatch["height"]) < 0.5
    page.click('[data-hole="c3"]')
    expect(page.locator("#menu-stray")).to_have_text(
        "c3 is not a menu option: lift that marble (the options are a1, b1, c1, d1).")
    page.click('[data-hole="c3"]')
    expect(page.locator("#menu-stray")).to_be_hidden()
    # The "computer plays seat 2" box follows the menu's pick, then the game it starts.
    expect(page.locator("#computer-2")).not_to_be_checked()
    page.click('[data-hole="b1"]')
    expect(page.locator("#menu-options li.picked")).to_have_text("b1: play against the computer (it plays seat 2) (picked)")
    expect(page.locator("#computer-2")).to_be_checked()
    page.click('[data-hole="b1"]')  # lifting it confirms: on to the level page
    expect(page.locator("#menu-chosen")).to_contain_text("Classic Pentago")
    expect(page.locator("#menu-chosen")).to_contain_text("play against the computer")
    expect(page.locator("#menu-options")).to_contain_text("e1: strong: searches deeper")
    page.click("#ok")  # the board's own level
    expect(page.locator("#menu-options")).to_contain_text("b1: a match")
    page.click("#ok")  # a single game
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    expect(page.locator("#computer-2")).to_be_checked()

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


# -- the 9x9 board: the family's games ------------------------------------------------------------

def led(page: Page, hole: str) -> str:
    return page.locator(f'[data-led-hole="{hole}"]').get_attribute("data-rgb")


# Every hole of ``row`` lit in the colour ``rgb`` (at any brightness: a won row is animated).
LIT_IN = """([row, rgb]) => row.every(name => {
    const lit = document.querySelector(`[data-led-hole="${name}"]`).getAttribute("data-rgb").split(",").map(Number);
    const top = Math.max(...lit), full = Math.max(...rgb);
    return top > 0 && lit.every((v, i) => Math.abs(v / top - rgb[i] / full) < 0.05);
})"""


def lit_in(leds: list[str], rgb: list[int]) -> bool:
    """Each LED's ``r,g,b`` is ``rgb`` at some brightness above none."""
    full = max(rgb)
    for text in leds:
        lit = [int(v) for v in text.split(",")]
        if max(lit) == 0 or any(abs(v / max(lit) - c / full) > 0.05 for v, c in zip(lit, rgb)):
            return False
    return True


def start_game(page: Page, game: str, names: list[str], players: str | None = None) -> None:
    """Choose ``game`` in the new-game form, its number of players, type the names and start."""
    page.select_option("#game", game)
    if players:
        page.select_option("#players", label=players)
    for seat, name in enumerate(names, start=1):
        page.fill(f"#name-{seat}", name)
    page.click("#new-game button[type=submit]")


def standings(page: Page) -> list[list[str]]:
    """The players card's rows: place, name, status."""
    return [[row.locator(f"td.{cell}").inner_text().strip() for cell in ("place", "name", "status")]
            for row in page.locator("#standings tbody tr").all()]


def test_a_three_player_game_to_a_first_place_keeps_the_winners_row_lit(page9: Page):
    page = page9
    start_game(page, "multiplayer", ["Ann", "Bob", "Cy"], players="3 players")
    expect(page.locator("#turn-text")).to_have_text("Ann (white) to place a marble")
    expect(page.locator("#standings tbody tr")).to_have_count(3)
    assert standings(page) == [["", "Ann", "to move"], ["", "Bob", "plays"], ["", "Cy", "plays"]]

    # Every move by clicking: Ann places and turns an empty block clockwise (the rulebook's way).
    place(page, "a1", "Ann")
    page.click('.arrow-hit[data-block="2"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("a1 2R")
    expect(page.locator("#turn-text")).to_have_text("Bob (black) to place a marble")
    place(page, "i9", "Bob")
    place(page, "i1", "Cy")  # Bob skipped the twist (neutral blocks remain): Cy placed a red marble
    expect(page.locator('.marble[data-colour="red"]')).to_have_count(1)
    turn_colours = {}  # the status pixels while each seat may twist: its own colour
    for seat_1, seat_2, seat_3 in (("a2", "h9", "h1"), ("a3", "g9", "g1")):
        for seat, hole in enumerate((seat_1, seat_2, seat_3), start=1):
            place(page, hole, ["Ann", "Bob", "Cy"][seat - 1])  # the seat before skipped its twist
            turn_colours[seat] = status_rgb(page)
    assert len(set(turn_colours.values())) == 3 and "0,0,0" not in turn_colours.values()
    place(page, "a4", "Ann")
    place(page, "i8", "Bob")
    place(page, "i2", "Cy")
    page.click('[data-hole="a5"]')  # a1-a5 on placement: Ann has first place, no twist

    expect(page.locator("#standings tbody tr.first td.place")).to_have_text("1st")
    assert standings(page) == [["1st", "Ann", ""], ["", "Bob", "to move"], ["", "Cy", "plays"]]
    expect(page.locator("#standings-note")).to_have_text("Bob and Cy play on for 2nd place")
    expect(page.locator("#turn-text")).to_have_text("Bob (black) to place a marble")
    expect(page.locator("#outcome")).to_be_hidden()
    row = [f"a{n}" for n in range(1, 6)]
    white = page.evaluate("layout.looks.white.rgb")
    page.wait_for_function(LIT_IN, arg=[row, white])
    assert not lit_in([led(page, f"b{n}") for n in range(1, 6)], white)

    # Bob and Cy play on (Ann no longer moves); Ann's row stays lit in her colour all along.
    place(page, "e5", "Bob")
    page.click('.arrow-hit[data-block="8"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("e5 8R")
    assert lit_in([led(page, hole) for hole in row], white)
    expect(page.locator("#turn-text")).to_have_text("Cy (red) to place a marble")
    place(page, "e6", "Cy")
    page.click('.arrow-hit[data-block="6"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("e6 6R")
    expect(page.locator("#turn-text")).to_have_text("Bob (black) to place a marble")
    assert lit_in([led(page, hole) for hole in row], white)
    assert led(page, "e5") == "0,0,0"
    assert standings(page)[0] == ["1st", "Ann", ""]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sim-multiplayer.png"), full_page=True)


def test_four_seats_show_their_own_colours_and_team_play_its_pairs(page9: Page):
    page = page9
    # The new-game form follows what the LED menu picks: the game, then its number of players.
    expect(page.locator("#menu-options")).to_contain_text("b1: Multiplayer Pentago")
    page.click('[data-hole="b1"]')
    expect(page.locator("#game")).to_have_value("multiplayer")
    page.click('[data-hole="b1"]')  # lifting it confirms: on to the players page
    expect(page.locator("#menu-options")).to_contain_text("c1: 4 players")
    page.click('[data-hole="c1"]')
    expect(page.locator("#players option:checked")).to_have_text("4 players")
    expect(page.locator("#name-fields input[type=text]")).to_have_count(4)
    page.click('[data-hole="c1"]')
    start_game(page, "multiplayer", [], players="4 players")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    colours = {}
    for seat, hole in enumerate(("a1", "c1", "e1", "g1"), start=1):
        place(page, hole, seat)  # the seat before skipped its twist
        colours[seat] = status_rgb(page)  # the seat's colour while it may twist
    expect(page.locator("#turn-text")).to_have_text("Seat 4 (green) to turn a block")
    assert len(set(colours.values())) == 4 and "0,0,0" not in colours.values()
    for colour in ("white", "black", "red", "green"):
        expect(page.locator(f'.marble[data-colour="{colour}"]')).to_have_count(1)
    assert [row[1] for row in standings(page)] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    expect(page.locator('#colours input[value="green"]')).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sim-four.png"), full_page=True)

    page.click("#clear")
    expect(page.locator('.marble[visibility="visible"]')).to_have_count(0)
    start_game(page, "teams", ["Ann", "Bob", "Cy", "Dee"])
    expect(page.locator("#turn-text")).to_have_text("Ann (white) to place a marble")
    assert standings(page) == [["", "Team white: Ann & Cy", "Ann to move"], ["", "Team black: Bob & Dee", "plays"]]
    place(page, "e5", "Ann")
    place(page, "d4", "Bob")
    expect(page.locator("#turn-text")).to_have_text("Bob (black) to turn a block")
    assert standings(page)[1] == ["", "Team black: Bob & Dee", "Bob to move"]
    page.screenshot(path=str(ARTIFACTS / "sim-teams.png"), full_page=True)


def test_shared_places_and_the_final_standings_are_said_in_names(page: Page):
    """A finished 3-player game where two seats shared first place, drawn from a state message
    as the daemon sends it (the page shows what the state says; the rules make such endings)."""
    seats = [{"seat": 1, "name": "Ann", "colour": "white"}, {"seat": 2, "name": "Bob", "colour": "black"},
             {"seat": 3, "name": "Cy", "colour": "red"}]
    running = {"state": "awaiting_placement", "to_move": 1, "seats": seats, "standings": [[2, 3]], "playing": [1]}
    page.evaluate("(state) => render({ state, marbles: {} })", running)
    assert standings(page) == [["1st (shared)", "Bob", ""], ["1st (shared)", "Cy", ""], ["", "Ann", "to move"]]
    expect(page.locator("#standings-note")).to_have_text("Ann plays on for 3rd place")
    over = {**running, "state": "game_over", "to_move": None, "standings": [[2, 3], [1]], "playing": [],
            "outcome": {"result": "win", "winners": [2, 3], "lines": []}}
    page.evaluate("(state) => render({ state, marbles: {} })", over)
    assert standings(page) == [["1st (shared)", "Bob", ""], ["1st (shared)", "Cy", ""], ["3rd", "Ann", ""]]
    expect(page.locator("#standings-note")).to_have_text("Final standings")
    expect(page.locator("#outcome")).to_have_text("Bob & Cy win!")


# -- Pentago Triple ---------------------------------------------------------------------------------

def test_a_two_player_triple_game_played_by_clicking_to_a_win(page: Page):
    """Issue 11: Triple chosen in the form with its options (explicit cards), the marble's colour
    picked in the hand before each click, the face-up card shown, every twist made, and the
    pattern completed by a placement: the player before is out, so with two players the mover wins."""
    page.select_option("#game", "triple")
    page.select_option("#players", label="2 players")
    page.select_option("#mode", label="shared face-up cards: complete one to knock out the player before you")
    page.fill("#cards", "BBBBY")
    page.fill("#name-1", "Ann")
    page.fill("#name-2", "Bob")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Ann (white light) to place a marble")
    expect(page.locator('#face-up [data-card="BBBBY"]')).to_be_visible()
    expect(page.locator('#colours input[value="auto"]')).to_have_count(0)  # the player chooses the colour
    for n, hole in enumerate(("a1", "b1", "c1", "d1")):
        page.check('#colours input[value="blue"]')
        place(page, hole, ("Ann", "Bob")[n % 2])
        page.click('.arrow-hit[data-block="1"][data-dir="R"]')  # the twist is always made: an empty block
        expect(page.locator("#moves li").last).to_have_text(f"B{hole} 1R")
    expect(page.locator('.marble[data-colour="blue"]')).to_have_count(4)
    page.check('#colours input[value="yellow"]')
    page.click('[data-hole="e1"]')  # BBBBY on row 1 by Ann's placement: no twist, Bob is out
    expect(page.locator("#outcome")).to_have_text("Ann wins!")
    expect(page.locator("#moves li").last).to_have_text("Ye1")
    expect(page.locator("#notices")).to_contain_text("Ann completed BBBBY: Bob is out")
    assert standings(page) == [["1st", "Ann", ""], ["2nd", "Bob", ""]]
    row = ["a1", "b1", "c1", "d1", "e1"]  # the pattern lit on its holes, in the card's colours
    page.wait_for_function("""(row) => row.every(name =>
        document.querySelector(`[data-led-hole="${name}"]`).getAttribute("data-rgb") !== "0,0,0")""", arg=row)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sim-triple.png"))


def test_triple_options_are_refused_with_the_reason(page: Page):
    page.select_option("#game", "triple")
    page.fill("#cards", "BYRYX")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#notices")).to_contain_text("'BYRYX' is not a card: write five colour letters B, Y or R")


@pytest.fixture
def page_presence(browser):
    for sim in run_sim("--sensing", "presence"):
        yield from open_page(browser, sim.url)


def test_a_board_that_cannot_see_colour_asks_it_and_the_page_shows_the_prompt(page_presence: Page):
    """Issue 11: on a presence board (sim --sensing presence) a Triple placement waits for its
    colour: the page says which colour the hole blinks, Back steps it, OK confirms it."""
    page = page_presence
    page.select_option("#game", "triple")
    page.fill("#cards", "BBBBY")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white light) to place a marble")
    page.check('#colours input[value="red"]')
    page.click('[data-hole="b5"]')
    expect(page.locator("#confirm")).to_have_text(
        "Is the marble on b5 blue? Its hole blinks blue: press Back for the next colour, OK to confirm.")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white light) to confirm the new marble's colour")
    page.click("#back")
    page.click("#back")
    expect(page.locator("#confirm")).to_contain_text("Is the marble on b5 red?")
    page.click("#ok")
    expect(page.locator("#confirm")).to_be_hidden()
    expect(page.locator("#notices")).to_contain_text("b5 placed by Seat 1")
    page.click('.arrow-hit[data-block="4"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("Rb5 4R")


def test_the_page_says_while_the_sensors_are_away_why_and_what_to_do(page: Page):
    reason = "the board MCU speaks protocol 2, this pentago-board speaks 1: reflash it with `pentago-board firmware flash`"
    expect(page.locator("#sensors")).to_be_hidden()
    page.evaluate("reason => render({...last, state: {...last.state, link: false, link_problem: reason}})", reason)
    expect(page.locator("#sensors")).to_have_text(f"The sensors are not connected, so nothing is refereed: {reason}.")
    page.evaluate("render({...last, state: {...last.state, link: true, link_problem: null}})")
    expect(page.locator("#sensors")).to_be_hidden()
