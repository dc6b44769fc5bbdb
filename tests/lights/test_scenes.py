"""Scene builders: the views the core asks for, and what they light on the virtual 6x6 chain."""

from __future__ import annotations

import pytest

from controller.lights.render import OFF, WIN_STEADY, SceneError, render, scale
from controller.board import Step
from controller.lights.scenes import (
    SENSED_LEVEL, draw_scene, menu_scene, overlay, prompt_scene, repair_scene, score_scene, turn_scene, turning_scene,
    win_scene,
)
from controller.lights.view import PALETTE, ArrowLight, HoleLight, View
from controller.profile import load_profile
from controller.rules import Twist, geometry, parse_hole

CHAIN = load_profile("virtual-6x6").leds
STATUS = (60, 61, 62, 63)


def hole(name: str) -> int:
    return parse_hole(name, geometry(6))


def lit(view: View, t: float) -> dict[int, tuple[int, int, int]]:
    return {i: rgb for i, rgb in enumerate(render(view, CHAIN, t)) if rgb != OFF}


SCENES = [
    (turn_scene("white"), View(turn="white")),
    (prompt_scene(hole("b5"), Twist(4, True)),
     View(holes=(HoleLight(hole("b5"), "prompt"),), arrows=(ArrowLight(4, True, "prompt"),))),
    (prompt_scene(None, Twist(2, False)), View(arrows=(ArrowLight(2, False, "prompt"),))),
    (prompt_scene(hole("a1"), None), View(holes=(HoleLight(0, "prompt"),))),
    (repair_scene([Step("remove", 3), Step("put", 9, colour="black"), Step("turn", block=1, clockwise=False)]),
     View(turn="black", holes=(HoleLight(3, "remove", True), HoleLight(9, "put_back", True)),
          arrows=(ArrowLight(1, False, "turn_back"),))),
    (repair_scene([Step("remove", 3)]), View(holes=(HoleLight(3, "remove", True),))),
    (repair_scene([Step("swap", 4, colour="white")]), View(turn="white", holes=(HoleLight(4, "put_back", True),))),
    (repair_scene([Step("check", 5)]), View(holes=(HoleLight(5, "prompt", True),))),
    (repair_scene([]), View()),
    (win_scene([[0, 1, 2, 3, 4]], "black"),
     View(turn="black", win_lines=((0, 1, 2, 3, 4),), win_colour="black")),
    (draw_scene(), View(draw=True)),
    (draw_scene([[0, 7, 14, 21, 28], [5, 10, 15, 20, 25]]),
     View(draw=True, win_lines=((0, 7, 14, 21, 28), (5, 10, 15, 20, 25)), win_colour="white")),
    (score_scene(["white", "black", "white"]), View(cards=("white", "black", "white"))),
    (turning_scene([(2, True), (3, False)], "black"),
     View(arrows=(ArrowLight(2, True, "black", SENSED_LEVEL, chase=False),
                  ArrowLight(3, False, "black", SENSED_LEVEL, chase=False)))),
    (menu_scene([0, 1, 2], selected=[1]),
     View(holes=(HoleLight(0, "option"), HoleLight(1, "selected"), HoleLight(2, "option")))),
]


@pytest.mark.parametrize("scene, view", SCENES)
def test_builders_make_these_views(scene, view):
    assert scene == view


def test_prompt_lights_the_hole_and_chases_the_arrow():
    view = prompt_scene(hole("b5"), Twist(4, True))
    b5 = 25  # row 5 runs a..f from 24
    assert lit(view, 0.05) == {b5: PALETTE["prompt"], 54: PALETTE["prompt"]}
    assert lit(view, 0.20) == {b5: PALETTE["prompt"], 55: PALETTE["prompt"]}


def test_repair_blinks_remove_and_put_back_in_distinct_colours_and_shows_the_marble_colour():
    view = repair_scene([Step("remove", hole("a1")), Step("put", hole("f1"), colour="white"),
                         Step("turn", block=3, clockwise=True)])
    status = {i: PALETTE["white"] for i in STATUS}
    assert lit(view, 0.05) == {0: PALETTE["remove"], 5: PALETTE["put_back"], 48: PALETTE["turn_back"]} | status
    assert lit(view, 0.27) == {49: PALETTE["turn_back"]} | status  # blink off; the arrow moved on
    assert len({PALETTE["remove"], PALETTE["put_back"], PALETTE["turn_back"]}) == 3


def test_win_scene_animates_the_line_in_the_winners_colour():
    steady = {i: scale(PALETTE["white"], WIN_STEADY) for i in (1, 2, 3, 4)}
    status = {i: PALETTE["white"] for i in STATUS}
    assert lit(win_scene([[0, 1, 2, 3, 4]], "white"), 0.0) == {0: PALETTE["white"]} | steady | status


def test_menu_options_and_selection():
    assert lit(menu_scene([hole("a2"), hole("b2")], selected=[hole("b2")]), 0) == {
        11: PALETTE["option"], 10: PALETTE["selected"]}


def test_overlay_adds_lights_and_later_views_set_the_status():
    view = overlay(turn_scene("white"), repair_scene([Step("put", 0, colour="black")]),
                   prompt_scene(None, Twist(1, True)))
    assert view == View(turn="black", holes=(HoleLight(0, "put_back", True),),
                        arrows=(ArrowLight(1, True, "prompt"),))
    assert overlay(turn_scene("white"), repair_scene([Step("remove", 0)])).turn == "white"
    assert overlay() == View()


@pytest.mark.parametrize("build, message", [
    (lambda: turn_scene("purple"), "'purple' is not a palette colour"),
    (lambda: win_scene([[0, 1, 2, 3, 4]], "Black"), "'Black' is not a palette colour"),
    (lambda: repair_scene([Step("put", 0, colour="grey")]), "'grey' is not a palette colour"),
    (lambda: score_scene(["white", "gray"]), "'gray' is not a palette colour"),
    (lambda: turning_scene([(1, True)], "Black"), "'Black' is not a palette colour"),
    (lambda: repair_scene([Step("dance", 3)]),
     "Step(kind='dance', hole=3, block=None, clockwise=None, colour=None) is not a repair step this scene can show"),
    (lambda: repair_scene([Step("turn", block=2)]),
     "Step(kind='turn', hole=None, block=2, clockwise=None, colour=None) is not a repair step"),
])
def test_builders_refuse_bad_values_where_they_are_made(build, message):
    with pytest.raises(SceneError) as caught:
        build()
    assert str(caught.value).startswith(message)


# --- Pentago Triple: pattern cards, eliminations, colour confirmation --------------------------

from controller.lights.scenes import (  # noqa: E402
    cards_scene, confirm_colour_scene, eliminated_scene, pattern_scene,
)
from controller.lights.render import CARD_PAGE_S, is_blink_on  # noqa: E402

BYRYB = ("blue", "yellow", "red", "yellow", "blue")


def test_cards_scene_reads_letters_or_colour_names():
    view = cards_scene(["BYRYB", ("red", "red", "blue", "blue", "yellow")])
    assert view == View(patterns=(BYRYB, ("red", "red", "blue", "blue", "yellow")))
    assert cards_scene(["byryb"]) == View(patterns=(BYRYB,))


@pytest.mark.parametrize("cards, message", [
    (["BYRY"], "a pattern card has 5 colours, not 4: 'BYRY'"),
    (["BYRYG"], "'BYRYG': 'G' is not a card colour (B blue, Y yellow, R red)"),
    ([("blue", "gold", "red", "red", "red")], "'gold' is not a palette colour"),
])
def test_cards_scene_refuses_bad_cards_where_they_are_made(cards, message):
    with pytest.raises(SceneError) as caught:
        cards_scene(cards)
    assert str(caught.value).startswith(message)


def test_cards_scene_lights_the_strip_under_the_turn_colour():
    frame = lit(overlay(turn_scene("blue"), cards_scene(["BYRYB", "RRBBY", "YBYBY"])), 0)
    assert [frame[i] for i in range(64, 69)] == [PALETTE[c] for c in BYRYB]
    assert set(frame) == set(STATUS) | set(range(64, 79))


def test_a_completed_pattern_lights_its_holes_in_the_cards_colours():
    holes = [hole(n) for n in ("b2", "c3", "d4", "e5", "f6")]
    view = pattern_scene(holes, "BYRYB")
    assert view == View(holes=tuple(HoleLight(h, c) for h, c in zip(holes, BYRYB)))
    assert lit(view, 0) == {CHAIN.hole_pixel[h]: PALETTE[c] for h, c in zip(holes, BYRYB)}
    with pytest.raises(SceneError, match="a pattern lights 5 holes, not 4"):
        pattern_scene(holes[:4], "BYRYB")


def test_an_eliminated_seat_lights_every_other_status_pixel_and_the_winner_all():
    out = overlay(pattern_scene(range(5), "RRRRR"), eliminated_scene("green"))
    frame = lit(out, 0)
    assert {i: frame.get(i) for i in STATUS} == {60: PALETTE["green"], 61: None, 62: PALETTE["green"], 63: None}
    assert lit(overlay(out, win_scene([], "red")), 0)[61] == PALETTE["red"]  # the winner takes over


def test_the_colour_to_confirm_blinks_on_its_hole_and_shows_on_the_status_pixels():
    view = confirm_colour_scene(hole("c3"), "yellow")
    on, off = (lit(view, t) for t in (0.0, 0.3))
    assert is_blink_on(0.0) and not is_blink_on(0.3)
    assert on == {CHAIN.hole_pixel[hole("c3")]: PALETTE["yellow"], **{i: PALETTE["yellow"] for i in STATUS}}
    assert off == {i: PALETTE["yellow"] for i in STATUS}
    with pytest.raises(SceneError):
        confirm_colour_scene(0, "purple")


def test_a_nine_by_nine_chain_without_a_strip_shows_a_card_on_a1_to_e1():
    chain = load_profile("virtual-9x9").leds
    frame = render(cards_scene(["BYRYB", "RRRRR"]), chain, CARD_PAGE_S)
    assert {i: rgb for i, rgb in enumerate(frame) if rgb != OFF} == {i: PALETTE["red"] for i in range(5)}
