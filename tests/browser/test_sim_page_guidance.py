"""Issue 22 on the simulator page, in headless Chromium: what players, teachers and hobbyists see.
Triple's hint lit in its marble's colour and the hand holding what it lifted, a one-detent twist
drawn and named, Picture-Puzzle's steps in the headline and its form in words, the computer's
move on the Game card with New game above the fold, a page without its token, the legend and
the card strip, the puzzle hand's "auto". Each key moment is a screenshot at 1366x768 and 390x844
(artifacts/screens/, for people to look at)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from controller.rules import hole_name
from controller.rules.puzzle.pictures import NAMES as COLOUR_NAMES
from controller.rules.puzzle.pictures import library_picture
from tests.browser.test_sim_page import ARTIFACTS, browser, open_page, run_sim  # noqa: F401 (browser: a fixture)

SCREENS = ARTIFACTS / "screens"
LAPTOP, PHONE = {"width": 1366, "height": 768}, {"width": 390, "height": 844}


def shots(page: Page, name: str) -> None:
    """The page as it stands, on a laptop and on a phone (then back to the laptop)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=str(SCREENS / f"{name}-1366x768.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SCREENS / f"{name}-390x844.png"), full_page=True)
    page.set_viewport_size(LAPTOP)


def open_laptop(browser, url: str):  # noqa: F811 (browser: the imported fixture)
    for page in open_page(browser, url):
        page.set_viewport_size(LAPTOP)
        yield page


@pytest.fixture
def page(browser):  # noqa: F811
    for sim in run_sim():
        yield from open_laptop(browser, sim.url)


@pytest.fixture
def page9(browser):  # noqa: F811
    for sim in run_sim("--board", "9x9"):
        yield from open_laptop(browser, sim.url)


def led(page: Page, hole: str) -> list[int]:
    return [int(v) for v in page.locator(f'[data-led-hole="{hole}"]').get_attribute("data-rgb").split(",")]


def looks(page: Page, colour: str) -> list[int]:
    return page.evaluate(f"layout.looks[{colour!r}].rgb")


def state(page: Page) -> dict:
    return page.evaluate("last.state")


# -- Pentago Triple ---------------------------------------------------------------------------------

def test_a_triple_hint_lights_its_marble_s_colour_and_the_hand_takes_it(page: Page):
    """Items 1 and 9: the hint's hole lit in the marble's colour (it was the prompt's blue), the
    legend says so, the hand takes that colour, the Game card says the hint; Triple's own level
    words. Issue 31 item 1: the headline said "Ann (white)", and Triple has no white marbles: the
    seat's colour is its turn light's, named as such."""
    page.select_option("#game", "triple")
    words = page.locator("#level option").all_inner_texts()
    assert not any("five" in text for text in words) and any("forces" in text for text in words)
    page.select_option("#level", label=next(text for text in words if text.startswith("easy")))
    page.fill("#cards", "BBYYR")
    page.fill("#name-1", "Ann")
    page.fill("#name-2", "Bob")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Ann (white light) to place a marble")
    expect(page.locator(".led-core[data-kind='card']").first).to_be_visible()  # item 11: Triple's strip shows
    page.check('#colours input[value="red"]')
    page.click('[data-hole="f6"]')
    page.click('.arrow-hit[data-block="2"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("Rf6 2R")
    expect(page.locator("#turn-text")).to_have_text("Bob (violet light) to place a marble")  # seat 2's light: black glows violet
    page.click("#hint")
    expect(page.locator("#prompt")).to_contain_text("Hint for Bob: ", timeout=20_000)
    prompt = state(page)["prompt"]
    assert page.locator('#colours input:checked').get_attribute("value") == prompt["colour"]
    page.wait_for_function("(hole) => document.querySelector(`[data-led-hole=\"${hole}\"]`).getAttribute('data-rgb') !== '0,0,0'",
                           arg=prompt["hole"])
    assert led(page, prompt["hole"]) == looks(page, prompt["colour"])  # not the prompt's sky blue
    assert led(page, prompt["hole"]) != page.evaluate("layout.legend.all.find(e => e.looks === 'sky blue').rgb")
    expect(page.locator("#legend")).to_contain_text(f"on an empty hole in Pentago Triple: the computer's move or a "
                                                    f"hint, put a {prompt['colour']} marble here")
    shots(page, "triple-hint")
    page.click(f'[data-hole="{prompt["hole"]}"]')  # the hand holds the hint's colour: the click plays it
    expect(page.locator(f'.marble[data-colour="{prompt["colour"]}"]')).to_have_count(2 if prompt["colour"] == "red" else 1)


def triple_in_its_move_phase(journal: Path) -> tuple[str, str, int]:
    """A journal of a two-player Triple game with every marble on the board (no card made); a
    marble that may move (its hole and colour) and how many marbles stand."""
    import copy

    from controller import games
    from controller.flow import Action
    from controller.journal import Journal

    flow = games.get("triple").flow(games, ("white", "black"), 6)
    records = [flow.new_game(games.options({"game": "triple", "players": 2, "cards": "BBBBB"}, 6), 0.0)]
    game = flow.game
    while not game.is_move_phase():
        for move in game.legal_moves():
            after = copy.deepcopy(game)
            after.push(move)
            if not after.claims and not after.is_over() and move.twist is not None:
                records += flow.accept((Action("place", move.hole, colour=move.colour), Action("twist", twist=move.twist)), 1.0)
                break
    with Journal(journal) as out:
        out.clear(records[:1])
        for record in records[1:]:
            out.append(record)
    origin = next(h for h in range(36) if h != game.last_played and game.position.colour_at(h) == 1)  # a yellow marble
    return (hole_name(origin, game.geometry), ("blue", "yellow", "red")[game.position.colour_at(origin)],
            bin(game.position.occupied).count("1"))


def test_in_triple_s_move_phase_the_hand_holds_the_marble_it_lifted(browser, tmp_path):  # noqa: F811
    """Items 2 and 13: a lifted marble came back in the colour of "Your hand", not its own (and
    the board went to repair); `sim --journal` brings the game back with its marbles."""
    journal = tmp_path / "triple.jsonl"
    origin, colour, marbles = triple_in_its_move_phase(journal)
    for sim in run_sim("--journal", str(journal)):
        for page in open_laptop(browser, sim.url):
            expect(page.locator("#turn-text")).to_contain_text("to move a marble: lift one (not the one played last), "
                                                               "then put it on an empty hole")
            expect(page.locator(".marble[visibility=visible]")).to_have_count(marbles)  # laid out with the game
            page.check('#colours input[value="blue"]')
            page.click(f'[data-hole="{origin}"]')
            expect(page.locator("#turn-text")).to_contain_text(f"to put the marble lifted from {origin} on an empty hole")
            expect(page.locator(f'#colours input[value="{colour}"]')).to_be_checked()
            page.click(f'[data-hole="{origin}"]')  # put back where it came from: the lift is taken back
            expect(page.locator(f'[data-hole="{origin}"] ~ .marble, .marble[data-colour="{colour}"]').first).to_be_visible()
            assert state(page)["repair"] == [] and state(page)["state"] == "awaiting_placement"
            assert page.evaluate(f"last.marbles[{page.evaluate(f'layout.holes.find(h => h.name === {origin!r}).hole')}]") == colour


@pytest.mark.parametrize("changed", [False, True], ids=["as-lifted", "hand-changed-after-the-lift"])
def test_in_triple_s_move_phase_a_lifted_marble_moves_in_its_own_colour(browser, tmp_path, changed):  # noqa: F811
    """Item 2: put on an empty hole, the lifted marble is the move, in the colour it was lifted
    in whatever "Your hand" held before; a marble of another colour put down instead (the hand
    changed after the lift, as a player may take one from the box) is repaired by replacing it,
    never by turning a block back (the repair's first step was "turn block 1 back R")."""
    journal = tmp_path / "triple.jsonl"
    origin, colour, _ = triple_in_its_move_phase(journal)
    other = next(c for c in ("blue", "yellow", "red") if c != colour)
    for sim in run_sim("--journal", str(journal)):
        for page in open_laptop(browser, sim.url):
            expect(page.locator("#turn-text")).to_contain_text("to move a marble")
            to = page.evaluate("layout.holes.find(h => last.marbles[h.hole] == null).name")
            page.check(f'#colours input[value="{other}"]')
            page.click(f'[data-hole="{origin}"]')
            expect(page.locator("#turn-text")).to_contain_text(f"to put the marble lifted from {origin} on an empty hole")
            if changed:
                page.check(f'#colours input[value="{other}"]')
            page.click(f'[data-hole="{to}"]')
            expect(page.locator("#turn-text")).to_contain_text("to turn a block")
            if changed:
                expect(page.locator("#repair li").first).to_have_text(f"replace the marble on {to} with a {colour} one")
            else:
                assert state(page)["repair"] == [] and page.evaluate(f"last.marbles[{hole_of(page, to)}]") == colour


def hole_of(page: Page, name: str) -> int:
    return page.evaluate(f"layout.holes.find(h => h.name === {name!r}).hole")


# -- the board's blocks -------------------------------------------------------------------------------

def test_a_one_detent_twist_is_drawn_part_turned_and_named(page: Page):
    """Item 4: a shift-click left the block square on screen, its holes and Clear board refused
    with 409, and the Game card asked to remove a marble there."""
    page.click("#new-game button[type=submit]")
    page.click('[data-hole="b2"]')
    page.click('.arrow-hit[data-block="3"][data-dir="R"]', modifiers=["Shift"])
    expect(page.locator("#mid-turn")).to_have_text(
        "Finish or undo the turn of block 3: it stands part-way through a quarter turn (turn it on to the next quarter, "
        "or back), and takes no marble until then.")
    transform = page.locator('g[data-block="3"]').get_attribute("transform")
    assert re.fullmatch(r"rotate\(15 \S+ \S+\)", transform), transform  # one detent of six: 15 degrees
    shots(page, "mid-turn")
    page.click("#clear")
    expect(page.locator('.marble[visibility="visible"]')).to_have_count(0)
    expect(page.locator("#mid-turn")).to_be_hidden()
    assert page.locator('g[data-block="3"]').get_attribute("transform") is None


# -- the computer's move, and the layout --------------------------------------------------------------

def test_the_game_card_says_the_computer_s_move_and_new_game_fits_a_laptop_screen(page: Page):
    """Items 7, 8 and 11: the computer's move was spelled out only under Messages, Start was
    below the fold at 1366x768; the computer's seat is named for it and its level; the card strip
    is not drawn in a game without cards; each game's messages start afresh."""
    start = page.locator("#new-game button[type=submit]").bounding_box()
    save = page.locator("#save-picture button[type=submit]").bounding_box()
    assert start["y"] + start["height"] <= 768 and save["y"] > start["y"]  # Save picture below Start
    expect(page.locator(".led-core[data-kind='card']").first).to_be_hidden()
    page.check("#computer-2")
    page.click("#new-game button[type=submit]")
    page.click('[data-hole="c3"]')
    page.click('.arrow-hit[data-block="4"][data-dir="R"]')
    expect(page.locator("#prompt")).to_have_text(re.compile(
        r"Computer \(normal\) plays [a-f][1-6] [1-4][RL]: put a black marble on [a-f][1-6], then turn block [1-4] "
        r"(counter-)?clockwise\."), timeout=20_000)
    expect(page.locator("#standings")).to_contain_text("Computer (normal)")
    looked = [text.split(":")[0] for text in page.locator("#legend li").all_inner_texts()]
    assert len(looked) == len(set(looked)), looked  # one word per colour
    shots(page, "computer-move")
    page.click("#new-game button[type=submit]")  # a new game: the last game's messages go
    expect(page.locator("#notices li").first).to_have_text("new game of Classic Pentago: Seat 1 to move")
    expect(page.locator("#notices")).not_to_contain_text("c3 placed")


def test_a_page_opened_without_its_token_says_which_address_to_open(browser):  # noqa: F811
    """Item 10: an empty grey board, an empty game list and "offline", explained only at the bottom."""
    for sim in run_sim():
        parts = urlsplit(sim.url)
        page = browser.new_page(viewport=LAPTOP)
        page.goto(f"{parts.scheme}://{parts.netloc}/")
        expect(page.locator("#no-board")).to_be_visible()
        expect(page.locator("#no-board-why")).to_have_text(
            "This address carries no token, and the board shows itself only at an address that does.")
        expect(page.locator("#no-board-what")).to_contain_text(
            f"Open the address exactly as pentago-board sim printed it on its terminal: "
            f"{parts.scheme}://{parts.netloc}/?token=…. ")
        expect(page.locator("#no-board-what code").first).to_have_text("pentago-board sim")  # not `Markdown` ticks
        expect(page.locator("#link")).to_have_text("no token")
        expect(page.locator("#board")).to_be_hidden()
        shots(page, "no-token")
        page.close()


# -- Picture-Puzzle -----------------------------------------------------------------------------------

def build(page: Page, picture) -> None:
    """Every stone of ``picture`` put on its lit hole with the hand at "auto" (the lit hole's colour)."""
    expect(page.locator('#colours input[value="auto"]')).to_be_checked()
    for hole, _ in picture.holes():
        page.click(f'[data-hole="{hole_name(hole, picture.position.geometry)}"]')


def test_picture_puzzle_s_headline_names_each_step_and_its_form_speaks_words(page9: Page):
    """Items 5, 6, 8 and 12: the headline said "Ann (white) to place a marble" at every step, the
    form and the menu showed identifiers (Start_k), notices seat numbers, and the hand's "auto"
    put the restorer's colour on a hole lit red."""
    page = page9
    page.select_option("#game", "puzzle")
    labels = page.locator("#game-options label").all_inner_texts()
    assert not any("_" in text for text in labels), labels
    assert any(text.startswith("First k") for text in labels) and any(text.startswith("Time per restore (s)") for text in labels)
    page.select_option("#picture", label=page.locator("#picture option", has_text="Orion").inner_text())
    page.select_option("#players", label="3 players")
    for seat, name in enumerate(("Ann", "Bo", "Cy"), start=1):
        page.fill(f"#name-{seat}", name)
    page.click("#new-game button[type=submit]")
    expect(page.locator("#turn-text")).to_have_text("Build Orion: put a stone on each lit hole, in its colour")
    orion = library_picture("orion", 9)
    build(page, orion)
    # the headline and `last` come from one message: once the dismantle is asked, the page holds the built picture
    expect(page.locator("#turn-text")).to_have_text("Bo: take 1 stone out and make 1 twist (Ann looks away)")
    for hole, colour in orion.holes():  # every stone in the colour its hole was lit in
        name = hole_name(hole, orion.position.geometry)
        assert page.evaluate(f"last.marbles[{hole}]") == COLOUR_NAMES[colour], name
    expect(page.locator("#notices")).to_contain_text("Ann: look away! Bo: dismantle now (1 stone out, 1 twist)")
    expect(page.locator("#round")).to_have_text("Orion: stage 1, k = 1 (stones out and twists in each dismantle)")
    shots(page, "puzzle-dismantle")
    page.click('[data-hole="e8"]')
    expect(page.locator("#turn-text")).to_have_text("Bo: make 1 twist (Ann looks away)")
    page.click('.arrow-hit[data-block="1"][data-dir="R"]')
    expect(page.locator("#turn-text")).to_have_text("Ann restores: 1 placement and 1 twist to go")
    shots(page, "puzzle-restore")


def test_the_menu_s_pages_are_named_in_words(page9: Page):
    """Item 6: the LED menu's page said "Menu, start_k: ..."."""
    page = page9
    page.click('[data-hole="d1"]')  # Picture-Puzzle, picked and confirmed by lifting it
    expect(page.locator("#menu-options li.picked")).to_contain_text("d1: Picture-Puzzle")
    page.click('[data-hole="d1"]')
    expect(page.locator("#turn-text")).to_have_text(re.compile(r"Menu, players: "))
    page.click("#ok")  # 2 players
    expect(page.locator("#turn-text")).to_have_text(re.compile(r"Menu, picture: "))
    page.click("#ok")  # the first picture
    expect(page.locator("#turn-text")).to_have_text(re.compile(r"Menu, first k: put a marble on a lit hole"))


def test_a_saved_picture_is_offered_at_once_under_its_title_with_its_difficulty(page9: Page):
    """Item 12: it appeared only after a reload, under its file name, with no difficulty."""
    page = page9
    page.check('#colours input[value="white"]')
    page.click('[data-hole="e5"]')
    page.click('[data-hole="f6"]')
    page.fill("#picture-title", "Kite")
    page.click("#save-picture button[type=submit]")
    page.select_option("#game", "puzzle")
    expect(page.locator("#picture option", has_text="Kite (difficulty ")).to_have_count(1)
    assert "kite" not in page.locator("#picture option").all_inner_texts()


# -- issue 31 ---------------------------------------------------------------------------------------

def test_the_legend_shows_the_game_s_lights_and_every_game_s_folded(page: Page):
    """Item 2: "What the lights mean" listed every game's meanings, about 20 lines on a phone."""
    page.set_viewport_size(PHONE)
    expect(page.locator("#legend-game")).to_have_text("in Classic Pentago")  # the menu's first game
    classic = page.locator("#legend li").all_inner_texts()
    assert any(text.startswith("violet: turn pixels: black to move") for text in classic)
    assert not any("Pentago Triple" in text or "Picture-Puzzle" in text for text in classic), classic
    expect(page.locator("#legend-all")).to_be_hidden()  # folded: every game's lights on request
    page.click("#legend-more summary")
    expect(page.locator("#legend-all")).to_contain_text("in Pentago Triple: the computer's move or a hint")
    assert page.locator("#legend-all li").count() > len(classic)
    page.select_option("#game", "triple")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#legend-game")).to_have_text("in Pentago Triple")
    expect(page.locator("#legend")).to_contain_text("on an empty hole in Pentago Triple: the computer's move or a hint")
    assert not any("Picture-Puzzle" in text for text in page.locator("#legend li").all_inner_texts())


def test_a_placed_marble_s_hole_lights_in_its_colour_until_its_twist(page: Page):
    """Item 4: the board showed nothing under a marble it had read (the move was accepted, or
    not yet, in silence); now the virtual board's LED under it glows as the real board's does."""
    page.click("#new-game button[type=submit]")  # classic, Seat 1 white
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to place a marble")
    page.click('[data-hole="c3"]')
    page.wait_for_function("() => document.querySelector('[data-led-hole=\"c3\"]').getAttribute('data-rgb') !== '0,0,0'")
    expect(page.locator("#turn-text")).to_have_text("Seat 1 (white) to turn a block")
    assert led(page, "c3") == looks(page, "white")  # accepted: full
    page.click('.arrow-hit[data-block="2"][data-dir="R"]')
    expect(page.locator("#moves li").last).to_have_text("c3 2R")
    expect(page.locator('[data-led-hole="c3"]')).to_have_attribute("data-rgb", "0,0,0")  # the twist is in: off
