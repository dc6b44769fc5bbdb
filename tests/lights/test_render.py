"""The renderer: pixel values at chosen times, on the virtual boards' real LED chains.

The virtual-6x6 chain is: 36 hole pixels in a serpentine from a1 (a1..f1, then f2..a2, ...),
eight 3-pixel arrows (1R 1L 2R 2L 3R 3L 4R 4L) from pixel 36, 4 status pixels from 60 and a card
strip of 3 cards x 5 pixels from 64 (card 0: 64-68, card 1: 69-73, card 2: 74-78). The expected indices below are written out from that layout, not looked up in the
chain, so a renderer that ignored the chain's mapping would fail.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.lights.render import (
    ARROW_STEP_S, CARD_PAGE_S, DRAW_FRAME_S, DRAW_HIGH, DRAW_LOW, OFF, WIN_STEADY, SceneError,
    next_change, render, scale,
)
from controller.lights.view import PALETTE, ArrowLight, HoleLight, View
from controller.profile import LedChain, Pixel, load_profile
from controller.rules import geometry, parse_hole

CHAIN = load_profile("virtual-6x6").leds
CHAIN9 = load_profile("virtual-9x9").leds
G = geometry(6)
STATUS = (60, 61, 62, 63)
CARDS = tuple(range(64, 79))


def hole(name: str) -> int:
    return parse_hole(name, G)


def lit(frame) -> dict[int, tuple[int, int, int]]:
    """The pixels that are on, by chain index."""
    return {i: rgb for i, rgb in enumerate(frame) if rgb != OFF}


def test_frame_has_one_off_pixel_per_chain_pixel_for_an_empty_view():
    assert render(View(), CHAIN, 0.0) == (OFF,) * 79


@pytest.mark.parametrize("colour", ["white", "black", "blue", "yellow", "red", "green"])
def test_turn_colour_lights_exactly_the_status_pixels(colour):
    assert lit(render(View(turn=colour), CHAIN, 3.7)) == {i: PALETTE[colour] for i in STATUS}


@pytest.mark.parametrize("name, pixel", [("a1", 0), ("f1", 5), ("f2", 6), ("b2", 10), ("a2", 11),
                                         ("a3", 12), ("f6", 30), ("a6", 35)])
def test_a_hole_light_uses_the_chains_serpentine_mapping(name, pixel):
    view = View(holes=(HoleLight(hole(name), "prompt"),))
    assert lit(render(view, CHAIN, 0.3)) == {pixel: PALETTE["prompt"]}


@pytest.mark.parametrize("t, on", [(0.0, True), (0.1, True), (0.24, True), (0.25, False),
                                   (0.4, False), (0.5, True), (1.3, False), (10.05, True)])
def test_blinking_hole_is_on_then_off_at_two_hertz(t, on):
    view = View(holes=(HoleLight(hole("c3"), "remove", blink=True), HoleLight(hole("d4"), "put_back")))
    c3, d4 = 14, 20  # row 3 runs a..f from 12; row 4 runs f..a from 18
    expected = {d4: PALETTE["put_back"]} | ({c3: PALETTE["remove"]} if on else {})
    assert lit(render(view, CHAIN, t)) == expected


@pytest.mark.parametrize("block, clockwise, pixels", [
    (1, True, (36, 37, 38)), (1, False, (39, 40, 41)), (4, True, (54, 55, 56)), (4, False, (57, 58, 59)),
])
def test_arrow_lit_pixel_chases_along_its_direction(block, clockwise, pixels):
    view = View(arrows=(ArrowLight(block, clockwise, "prompt"),))
    seen = [lit(render(view, CHAIN, t)) for t in (0.07, 0.22, 0.37, 0.52, 0.67)]
    order = [pixels[0], pixels[1], pixels[2], pixels[0], pixels[1]]
    assert seen == [{p: PALETTE["prompt"]} for p in order]


def test_a_steady_arrow_lights_all_its_pixels_at_its_level_and_a_chase_runs_over_it():
    """A block read turning for the twist due (issue 31): its arrow's pixels glow dim and steady;
    a prompt's chasing arrow on the same pixels stays visible over it, whichever comes first."""
    dim = ArrowLight(4, True, "white", level=0.25, chase=False)
    assert lit(render(View(arrows=(dim,)), CHAIN, 0.07)) == {p: scale(PALETTE["white"], 0.25) for p in (54, 55, 56)}
    assert next_change(View(arrows=(dim,)), 0.07) is None  # steady: no Tick for it
    for arrows in ((dim, ArrowLight(4, True, "prompt")), (ArrowLight(4, True, "prompt"), dim)):
        assert lit(render(View(arrows=arrows), CHAIN, 0.22)) == {
            54: scale(PALETTE["white"], 0.25), 55: PALETTE["prompt"], 56: scale(PALETTE["white"], 0.25)}


def test_arrow_on_the_9x9_chain_for_the_last_block():
    start = 81 + 2 * 3 * 8  # holes, then 8 blocks of two 3-pixel arrows before block 9
    view = View(arrows=(ArrowLight(9, False, "turn_back"),))
    assert lit(render(view, CHAIN9, 0.2)) == {start + 3 + 1: PALETTE["turn_back"]}


def test_win_line_pulse_runs_along_the_line_over_a_steady_line():
    line = tuple(hole(n) for n in ("b6", "c5", "d4", "e3", "f2"))
    pixels = (34, 26, 20, 16, 6)  # rows 6, 4 and 2 run f..a; rows 5 and 3 run a..f
    view = View(win_lines=(line,), win_colour="black")
    full, steady = PALETTE["black"], scale(PALETTE["black"], WIN_STEADY)
    for n, t in enumerate((0.05, 0.17, 0.29, 0.41, 0.53, 0.65)):
        pulse = pixels[n % 5]
        assert lit(render(view, CHAIN, t)) == {p: full if p == pulse else steady for p in pixels}, t


def test_two_win_lines_pulse_independently():
    row1, column_f = tuple(range(0, 5)), tuple(hole(f"f{r}") for r in range(2, 7))
    frame = render(View(win_lines=(row1, column_f), win_colour="white"), CHAIN, 0.13)
    bright = [i for i, rgb in enumerate(frame) if rgb == PALETTE["white"]]
    assert bright == [1, 17]  # second hole of each: b1, and f3 (row 3 runs a..f from 12)


@pytest.mark.parametrize("t, level", [(0.0, DRAW_LOW), (1.0, DRAW_HIGH), (2.0, DRAW_LOW),
                                      (0.5, (DRAW_LOW + DRAW_HIGH) / 2)])
def test_draw_pulses_every_hole_softly_and_nothing_else(t, level):
    frame = render(View(draw=True), CHAIN, t)
    assert lit(frame) == {i: scale(PALETTE["white"], level) for i in range(36)}
    assert max(frame[0]) < 255 // 3  # soft: never near full brightness


def test_cards_show_their_colours_in_order_and_extra_cards_are_not_shown():
    assert lit(render(View(cards=("blue", "red")), CHAIN, 0)) == {64: PALETTE["blue"], 65: PALETTE["red"]}
    four = View(cards=("blue", "red", "yellow", "blue"))
    assert lit(render(four, CHAIN9, 0)) == dict(zip((139, 140, 141), map(PALETTE.get, ("blue", "red", "yellow"))))
    sixteen = View(cards=("red",) * 16)
    assert set(lit(render(sixteen, CHAIN, 0))) == set(CARDS)


BYRYB = ("blue", "yellow", "red", "yellow", "blue")
RRBBY = ("red", "red", "blue", "blue", "yellow")
YBYBY = ("yellow", "blue", "yellow", "blue", "yellow")


def test_pattern_cards_light_the_card_strip_five_pixels_each_left_to_right():
    frame = render(View(patterns=(BYRYB, RRBBY)), CHAIN, 0)
    assert lit(frame) == {**dict(zip(range(64, 69), map(PALETTE.get, BYRYB))),
                          **dict(zip(range(69, 74), map(PALETTE.get, RRBBY)))}


def test_pattern_cards_cover_a_match_score_on_the_strip():
    frame = render(View(cards=("white", "white"), patterns=(YBYBY,)), CHAIN, 0)
    assert [frame[i] for i in range(64, 69)] == [PALETTE[c] for c in YBYBY]


def reversed_chain() -> LedChain:
    """Holes wired f6 first down to a1 last (so a1..e1 are pixels 35..31), then 3 card pixels."""
    holes = tuple(Pixel("hole", hole=h) for h in reversed(range(36)))
    cards = tuple(Pixel("card", index=n, card=n) for n in range(3))
    return LedChain("virtual", -1, "GRB", holes + cards, 1.0, 1000, 20.0)


def test_without_a_card_strip_a_card_shows_on_the_bottom_row_holes_a1_to_e1():
    chain = reversed_chain()
    assert chain.pattern_slots == ()
    frame = render(View(patterns=(BYRYB,)), chain, 0)
    assert lit(frame) == dict(zip((35, 34, 33, 32, 31), map(PALETTE.get, BYRYB)))
    nine = render(View(patterns=(RRBBY,)), CHAIN9, 0)  # 9x9: a1..e1 are pixels 0..4
    assert lit(nine) == dict(zip(range(5), map(PALETTE.get, RRBBY)))


def test_on_the_bottom_row_several_cards_take_turns_and_hole_lights_stay_on_top():
    view = View(patterns=(BYRYB, RRBBY, YBYBY), holes=(HoleLight(hole("c1"), "prompt"),))
    chain = reversed_chain()
    for page, card in enumerate((BYRYB, RRBBY, YBYBY, BYRYB)):
        frame = render(view, chain, page * CARD_PAGE_S + 0.1)
        assert [frame[i] for i in (35, 34, 32, 31)] == [PALETTE[card[n]] for n in (0, 1, 3, 4)]
        assert frame[33] == PALETTE["prompt"]  # c1


def test_more_cards_than_strip_slots_page_through_them():
    four = (BYRYB, RRBBY, YBYBY, RRBBY[::-1])
    first, second = (render(View(patterns=four), CHAIN, t) for t in (0, CARD_PAGE_S))
    assert [first[i] for i in range(74, 79)] == [PALETTE[c] for c in YBYBY]
    assert [second[i] for i in range(64, 69)] == [PALETTE[c] for c in RRBBY[::-1]]
    assert not any(second[i] != OFF for i in range(69, 79))  # the last page has one card


def test_a_pattern_card_of_the_wrong_length_is_a_scene_error():
    with pytest.raises(SceneError, match="pattern card 1 has 4 colours for 5 pixels"):
        render(View(patterns=(("red",) * 4,)), CHAIN, 0)


def test_layers_hole_lights_cover_win_lines_and_status_stays():
    view = View(turn="white", holes=(HoleLight(2, "prompt"),), win_lines=((0, 1, 2, 3, 4),),
                win_colour="white")
    frame = render(view, CHAIN, 0.0)
    assert frame[2] == PALETTE["prompt"]
    assert frame[0] == PALETTE["white"] and frame[1] == scale(PALETTE["white"], WIN_STEADY)
    assert [frame[i] for i in STATUS] == [PALETTE["white"]] * 4


@pytest.mark.parametrize("view, message", [
    (View(turn="purple"), "'purple' is not a palette colour (white, black, blue"),
    (View(holes=(HoleLight(36, "prompt"),)), "hole 36 has no pixel in the LED chain"),
    (View(arrows=(ArrowLight(5, True, "prompt"),)), "block 5 has no clockwise arrow pixels in the LED chain"),
    (View(win_lines=((0, 1, 2, 3, 4),), win_colour="gold"), "'gold' is not a palette colour"),
])
def test_bad_views_raise_scene_errors_naming_the_value(view, message):
    with pytest.raises(SceneError) as caught:
        render(view, CHAIN, 0)
    assert str(caught.value).startswith(message)


def test_a_chain_without_status_or_arrow_pixels_still_renders_holes():
    """A stand-in chain built from the profile's field names: a 6x6 grid only."""
    bare = LedChain("virtual", -1, "GRB", tuple(Pixel("hole", hole=h) for h in range(36)), 1.0, 1000, 20.0)
    frame = render(View(turn="white", holes=(HoleLight(7, "option"),)), bare, 0)
    assert lit(frame) == {7: PALETTE["option"]}
    with pytest.raises(SceneError, match="block 1 has no counter-clockwise arrow pixels"):
        render(View(arrows=(ArrowLight(1, False, "prompt"),)), bare, 0)


# --- properties ------------------------------------------------------------------------------

colours = st.sampled_from(sorted(PALETTE))
views = st.builds(
    View,
    turn=st.none() | colours,
    holes=st.lists(st.builds(HoleLight, st.integers(0, 35), colours, st.booleans()), max_size=6).map(tuple),
    arrows=st.lists(st.builds(ArrowLight, st.integers(1, 4), st.booleans(), colours), max_size=2).map(tuple),
    win_lines=st.lists(st.sampled_from(G.lines).map(lambda m: tuple(i for i in range(36) if m >> i & 1)),
                       max_size=2).map(tuple),
    win_colour=st.none() | colours,
    draw=st.booleans(),
    cards=st.lists(colours, max_size=4).map(tuple),
)


def allowed_pixels(view: View) -> set[int]:
    """Every pixel the view could light at any time."""
    out = {CHAIN.hole_pixel[h.hole] for h in view.holes}
    out |= {p for a in view.arrows for p in CHAIN.arrow_pixels[(a.block, a.clockwise)]}
    out |= {CHAIN.hole_pixel[h] for line in view.win_lines for h in line}
    out |= set(CHAIN.hole_pixel.values()) if view.draw else set()
    out |= set(STATUS) if view.turn else set()
    out |= set(CARDS[: len(view.cards)])
    return out


@settings(deadline=None)  # no timing in unit tests: bench/bench_render.py measures speed
@given(views, st.floats(0, 1e5))
def test_any_view_lights_only_its_own_pixels_with_valid_values(view, t):
    frame = render(view, CHAIN, t)
    assert len(frame) == CHAIN.length
    assert all(len(rgb) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in rgb) for rgb in frame)
    assert set(lit(frame)) <= allowed_pixels(view)
    assert render(view, CHAIN, t) == frame  # pure: same inputs, same frame


# --- when the frame changes ------------------------------------------------------------------

BLINK = HoleLight(0, "remove", blink=True)


@pytest.mark.parametrize("view, t, expected", [
    (View(turn="white", holes=(HoleLight(0, "prompt"),), cards=("red",)), 1.0, None),
    (View(holes=(BLINK,)), 0.0, 0.25),
    (View(holes=(BLINK,)), 0.25, 0.5),
    (View(holes=(BLINK,)), 0.3, 0.5),
    (View(arrows=(ArrowLight(1, True, "prompt"),)), 0.3, 0.45),  # 0.3 is an edge though 0.3 / 0.15 < 2
    (View(arrows=(ArrowLight(1, True, "prompt"),), holes=(BLINK,)), 0.46, 0.5),
    (View(win_lines=((0, 1, 2, 3, 4),), win_colour="red"), 0.0, 0.12),
    (View(draw=True), 7.0, 7.0 + DRAW_FRAME_S),
    (View(patterns=(("red",) * 5,)), 1.0, None),  # one card never pages
    (View(patterns=(("red",) * 5,) * 2), 1.0, CARD_PAGE_S),  # two may (on the bottom row)
])
def test_next_change_is_the_next_blink_chase_or_pulse_edge(view, t, expected):
    if expected is None:
        assert next_change(view, t) is None
    else:
        assert next_change(view, t) == pytest.approx(expected)


def test_the_frame_changes_at_each_arrow_edge_and_not_between():
    view = View(arrows=(ArrowLight(2, True, "prompt"),))
    t, frames = 0.0, []
    for _ in range(7):
        frames.append(render(view, CHAIN, t))
        assert render(view, CHAIN, (t + next_change(view, t)) / 2) == frames[-1]
        t = next_change(view, t)
    assert [lit(f) for f in frames] == [{p: PALETTE["prompt"]} for p in (42, 43, 44, 42, 43, 44, 42)]
    assert t == pytest.approx(7 * ARROW_STEP_S)


@settings(deadline=None)
@given(views.filter(lambda v: not v.draw), st.floats(0, 1e4))
def test_a_frame_holds_until_next_change(view, t):
    """The core may sleep until next_change: nothing changes before it."""
    frame, until = render(view, CHAIN, t), next_change(view, t)
    if until is None:
        assert render(view, CHAIN, t + 123.4) == frame
        return
    assert until > t
    for k in range(1, 10):
        assert render(view, CHAIN, t + (until - t) * k / 10) == frame
