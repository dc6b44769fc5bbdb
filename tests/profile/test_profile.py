"""Hardware profiles: the shipped ones load and are consistent; each kind of mistake in a profile
gives its own message naming the file, the key and the problem."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import controller.profile.locate
from controller.errors import ProfileError
from controller.profile import PROFILE_DIR, load_profile, shipped_profiles
from controller.rules import geometry, hole_name

SHIPPED = ["A-6x6", "B-6x6", "B-9x9", "virtual-6x6", "virtual-9x9"]


def test_shipped_names():
    assert shipped_profiles() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_profile_is_consistent(name):
    p = load_profile(name)
    g = geometry(p.size)
    assert p.name == name
    assert p.leds.length == len(p.leds.pixels)
    assert sorted(p.leds.hole_pixel) == list(range(g.hole_count))
    assert [p.leds.pixels[i].hole for i in p.leds.hole_pixel.values()] == list(p.leds.hole_pixel)
    arrows = p.leds.arrow_pixels
    assert set(arrows) == {(b, cw) for b in range(1, g.block_count + 1) for cw in (True, False)}
    assert all(len(indices) == 3 for indices in arrows.values())
    strip = p.size == 6  # the 6x6 builds have a card strip (Pentago Triple); 9x9 a pixel per card
    assert len(p.leds.status_pixels) == 4 and len(p.leds.card_pixels) == (15 if strip else 3)
    assert [len(slot) for slot in p.leds.card_slots] == [5 if strip else 1] * 3
    assert bool(p.leds.pattern_slots) == strip
    every = list(p.leds.hole_pixel.values()) + [i for v in arrows.values() for i in v]
    every += list(p.leds.status_pixels) + list(p.leds.card_pixels)
    assert sorted(every) == list(range(p.leds.length))  # every pixel has exactly one job


@pytest.mark.parametrize("name", SHIPPED)
def test_hole_pixels_run_serpentine(name):
    """Consecutive hole pixels are neighbouring holes, so the strip never jumps across the board."""
    p = load_profile(name)
    g = p.geometry
    holes = [px.hole for px in p.leds.pixels if px.kind == "hole"]
    steps = [abs(a - b) for a, b in zip(holes, holes[1:])]
    assert set(steps) <= {1, g.size}
    assert holes[: g.size + 1] == list(range(g.size)) + [2 * g.size - 1]


def test_build_a_wires_every_hole_to_one_matrix_crossing():
    p = load_profile("A-6x6")
    assert (p.sensing, p.driver, p.mcu, p.colours) == ("presence", "gpio", None, {})
    gpio = p.gpio
    assert len(gpio.matrix_rows) * len(gpio.matrix_columns) == len(gpio.matrix_holes) == 36
    assert sorted(gpio.matrix_holes) == list(range(36))
    assert len(gpio.encoders) == 4
    pins = list(gpio.matrix_rows) + list(gpio.matrix_columns) + [x for e in gpio.encoders for x in e]
    pins += list(p.buttons.values()) + [p.leds.pin]
    assert len(pins) == len(set(pins))
    assert not set(pins) & {8, 9, 11}  # SPI0 CE0, MISO, SCLK stay free (CE1 freed by spi0-1cs)
    assert (p.leds.driver, p.leds.pin) == ("spi", 10)
    assert {"ok", "back"} <= set(p.buttons)


@pytest.mark.parametrize("name", ["B-6x6", "B-9x9"])
def test_build_b_senses_polarity_through_the_mcu(name):
    p = load_profile(name)
    assert (p.sensing, p.driver, p.gpio) == ("polarity", "mcu", None)
    assert p.colours == {"north": "white", "south": "black"}
    assert (p.mcu.port, p.mcu.baud) == ("/dev/pentago-mcu", 115200)
    assert {"ok", "back"} <= set(p.buttons)
    assert not set(p.buttons.values()) & {2, 3, 7, 8, 9, 10, 11, 14, 15}


@pytest.mark.parametrize("name", ["virtual-6x6", "virtual-9x9"])
def test_virtual_profiles_have_no_pins(name):
    p = load_profile(name)
    assert (p.driver, p.leds.driver, p.sensing) == ("virtual", "virtual", "colour")
    assert (p.buttons, p.gpio, p.mcu, p.leds.pin) == ({}, None, None, -1)


def test_led_lookups():
    p = load_profile("A-6x6")
    leds = p.leds
    assert leds.hole_pixel[0] == 0 and leds.hole_pixel[6] == 11  # a1 first, a2 ends row 2
    assert leds.arrow_pixels[(1, True)] == (36, 37, 38)
    assert leds.arrow_pixels[(4, False)] == (57, 58, 59)
    assert leds.status_pixels == (60, 61, 62, 63)
    assert leds.card_pixels == tuple(range(64, 79))
    assert [leds.pixels[i].index for i in leds.card_pixels] == list(range(15))
    assert leds.card_slots == leds.pattern_slots == (
        (64, 65, 66, 67, 68), (69, 70, 71, 72, 73), (74, 75, 76, 77, 78))
    assert leds.full_current_ma() == pytest.approx(79 * 3 * 20)
    nine = load_profile("B-9x9").leds
    assert nine.card_slots == ((139,), (140,), (141,)) and nine.pattern_slots == ()


def test_profile_is_frozen():
    p = load_profile("B-6x6")
    with pytest.raises(AttributeError):
        p.size = 9  # type: ignore[misc]


def test_loads_by_path_and_takes_the_file_stem_as_default_name(tmp_path):
    text = (PROFILE_DIR / "virtual-6x6.toml").read_text().replace('name = "virtual-6x6"\n', "")
    path = tmp_path / "my-board.toml"
    path.write_text(text)
    assert load_profile(path).name == "my-board"
    assert load_profile(str(path)).name == "my-board"


# ---------------------------------------------------------------------------------------------
# Bad profiles: each mistake has its own message


A = (PROFILE_DIR / "A-6x6.toml").read_text()
B = (PROFILE_DIR / "B-6x6.toml").read_text()
V = (PROFILE_DIR / "virtual-6x6.toml").read_text()


def problem(tmp_path: Path, base: str, *edits: tuple[str, str]) -> str:
    """The error message (after the file name) of ``base`` with each (old, new) edit applied."""
    text = base
    for old, new in edits:
        assert old in text, f"test edit does not apply: {old!r}"
        text = text.replace(old, new, 1)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    return message.removeprefix(f"{path}: ")


def test_unknown_key_suggests_the_closest(tmp_path):
    assert problem(tmp_path, A, ("brightness_cap", "brightnes_cap")) == (
        "leds.brightnes_cap: unknown key (did you mean 'brightness_cap'?)"
    )


def test_unknown_key_without_a_close_one_lists_the_known_keys(tmp_path):
    assert problem(tmp_path, B, ("port =", "flavour = 1\nport =")) == (
        "mcu.flavour: unknown key (known keys: port, baud)"
    )


def test_unknown_key_in_a_chain_segment(tmp_path):
    assert problem(tmp_path, A, ("per_arrow = 3", "pixels_per_arrow = 3")) == (
        "leds.chain[1].pixels_per_arrow: unknown key (did you mean 'per_arrow'?)"
    )


def test_missing_key(tmp_path):
    assert problem(tmp_path, A, ("size = 6\n", "")) == "size: missing key"


def test_missing_leds(tmp_path):
    text = V[: V.index("[leds]")]
    assert problem(tmp_path, text) == (
        "leds: missing section (every build has an LED chain, even virtual)"
    )


def test_wrong_type(tmp_path):
    assert problem(tmp_path, A, ("size = 6", 'size = "6"')) == "size: expected an integer, got '6'"


def test_boolean_is_not_a_number(tmp_path):
    assert problem(tmp_path, A, ("brightness_cap = 0.3", "brightness_cap = true")) == (
        "leds.brightness_cap: expected a number, got True"
    )


@pytest.mark.parametrize("edit, message", [
    (("size = 6", "size = 7"), "size: 7 is not a supported board size (6 or 9)"),
    (('sensing = "presence"', 'sensing = "rgb"'),
     "sensing: 'rgb' is not one of 'presence', 'polarity', 'colour'"),
    (('sensing = "presence"', 'sensing = "colour"'),
     "sensing: 'colour' is the virtual board's (it tells every marble colour apart); a gpio "
     "board senses presence (reed switches, digital Hall) or polarity (linear Hall, two colours)"),
    (('driver = "gpio"', 'driver = "i2c"'), "driver: 'i2c' is not one of 'gpio', 'mcu', 'virtual'"),
    (("detents_per_quarter = 6", "detents_per_quarter = 0"),
     "detents_per_quarter: 0 is out of range (at least 1)"),
    (("brightness_cap = 0.3", "brightness_cap = 1.5"),
     "leds.brightness_cap: 1.5 is out of range (0 < cap <= 1)"),
    (("brightness_cap = 0.3", "brightness_cap = 0"),
     "leds.brightness_cap: 0 is out of range (0 < cap <= 1)"),
    (("current_budget_ma = 1500", "current_budget_ma = -5"),
     "leds.current_budget_ma: -5 is out of range (more than 0 mA)"),
    (("ma_per_channel = 20.0", "ma_per_channel = 0.0"),
     "leds.ma_per_channel: 0.0 is out of range (0 < mA <= 100)"),
    (('driver = "spi"', 'driver = "dma"'),
     "leds.driver: 'dma' is not one of 'spi', 'pwm', 'virtual'"),
    (('order = "GRB"', 'order = "GRBX"'),
     "leds.order: 'GRBX' is not a colour order like 'GRB' or 'GRBW'"),
    (("status = 4", "status = 0"), "leds.chain[2].status: 0 is out of range (1-16 pixels)"),
    (("cards = 3", "cards = 1000000000"),
     "leds.chain[3].cards: 1000000000 is out of range (1-16 cards)"),
    (("per_card = 5", "per_card = 3"),
     "leds.chain[3].per_card: 3 is neither 1 (one pixel per card: a match score) nor 5 "
     "(a pattern card's five marbles)"),
    (("per_arrow = 3", "per_arrow = 0"),
     "leds.chain[1].per_arrow: 0 is out of range (1-8 pixels)"),
])
def test_value_out_of_range(tmp_path, edit, message):
    assert problem(tmp_path, A, edit) == message


def test_baud_out_of_range(tmp_path):
    assert problem(tmp_path, B, ("baud = 115200", "baud = 0")) == (
        "mcu.baud: 0 is out of range (a positive baud rate)"
    )


def test_empty_port(tmp_path):
    assert problem(tmp_path, B, ('port = "/dev/pentago-mcu"', 'port = ""')) == (
        "mcu.port: is empty; give the serial device, e.g. /dev/pentago-mcu"
    )


def test_pin_used_twice_names_both_uses(tmp_path):
    assert problem(tmp_path, A, ("[21, 18]]", "[21, 17]]")) == (
        "gpio.encoders[3][1]: GPIO 17 is already used by gpio.matrix_rows[3]"
    )


def test_button_on_an_led_pin(tmp_path):
    assert problem(tmp_path, B, ("ok = 5", "ok = 10")) == (
        "leds.pin: GPIO 10 is already used by buttons.ok"
    )


def test_pin_not_on_the_header(tmp_path):
    assert problem(tmp_path, A, ("ok = 3", "ok = 28")) == (
        "buttons.ok: GPIO 28 is not on the Pi's 40-pin header (GPIO 0-27)"
    )


def test_pin_that_is_not_a_number(tmp_path):
    assert problem(tmp_path, A, ("[14, 15, 4,", '[14, "GPIO15", 4,')) == (
        "gpio.matrix_rows[1]: expected a BCM pin number, got 'GPIO15'"
    )


def test_led_pin_that_cannot_drive_the_chain(tmp_path):
    assert problem(tmp_path, B, ("pin = 10", "pin = 17")) == (
        "leds.pin: GPIO 17 cannot drive NeoPixels with driver 'spi' (use GPIO 10)"
    )
    assert problem(tmp_path, B, ("pin = 10", "pin = 17"), ('driver = "spi"', 'driver = "pwm"')) == (
        "leds.pin: GPIO 17 cannot drive NeoPixels with driver 'pwm' (use GPIO 12 or 13 or 18 or 19)"
    )


def test_missing_buttons_on_a_real_build(tmp_path):
    assert problem(tmp_path, B, ("[buttons]\nok = 5\nback = 6\n", "")) == (
        "buttons: missing key (a real build needs at least ok and back: "
        "buttons = { ok = 5, back = 6 })"
    )


def test_missing_back_button(tmp_path):
    assert problem(tmp_path, B, ("back = 6", "menu = 6")) == "buttons.back: missing key"


HOLES_LIST = 'holes = "serpentine"\nstart = "a1"'


def explicit_holes(names: list[str]) -> tuple[str, str]:
    return HOLES_LIST, "holes = [" + ", ".join(f'"{n}"' for n in names) + "]"


ALL_HOLES = [hole_name(h, geometry(6)) for h in range(36)]


def test_explicit_hole_list_loads(tmp_path):
    path = tmp_path / "explicit.toml"
    path.write_text(A.replace(*explicit_holes(list(reversed(ALL_HOLES)))))
    assert load_profile(path).leds.hole_pixel[35] == 0


def test_hole_pixel_twice(tmp_path):
    names = ALL_HOLES[:-1] + ["c1"]
    assert problem(tmp_path, A, explicit_holes(names)) == (
        "leds.chain[0].holes[35]: hole c1 is already at leds.chain[0].holes[2]; "
        "every hole needs exactly one"
    )


def test_hole_without_pixel(tmp_path):
    names = [n for n in ALL_HOLES if n not in ("b2", "f6")]
    assert problem(tmp_path, A, explicit_holes(names)) == (
        "leds.chain: no entry for hole(s) b2, f6; every hole needs exactly one"
    )


def test_many_holes_without_pixels_are_counted_not_all_listed(tmp_path):
    assert problem(tmp_path, A, explicit_holes(ALL_HOLES[:26])) == (
        "leds.chain: no entry for hole(s) c5, d5, e5, f5, a6, b6, c6, d6 and 2 more; "
        "every hole needs exactly one"
    )


def test_hole_twice_across_segments(tmp_path):
    extra = '[[leds.chain]]\nholes = ["d4"]\n\n[[leds.chain]]\nstatus = 4'
    assert problem(tmp_path, A, ("[[leds.chain]]\nstatus = 4", extra)) == (
        "leds.chain[2].holes[0]: hole d4 is already at leds.chain[0].holes; "
        "every hole needs exactly one"
    )


def test_hole_name_off_the_board(tmp_path):
    names = ALL_HOLES[:-1] + ["g1"]
    assert problem(tmp_path, A, explicit_holes(names)) == (
        "leds.chain[0].holes[35]: 'g1' is not a hole on the 6x6 board (columns a-f, rows 1-6)"
    )


def test_serpentine_start_not_a_corner(tmp_path):
    assert problem(tmp_path, A, ('start = "a1"', 'start = "c3"')) == (
        "leds.chain[0].start: 'c3' is not a corner (one of a1, a6, f1, f6)"
    )


def test_unknown_hole_rule(tmp_path):
    assert problem(tmp_path, A, ('holes = "serpentine"', 'holes = "zigzag"')) == (
        "leds.chain[0].holes: 'zigzag' is neither \"serpentine\" nor a list of hole names"
    )


def test_segment_with_two_kinds(tmp_path):
    assert problem(tmp_path, A, ("status = 4", "status = 4\ncards = 2")) == (
        "leds.chain[2]: a segment needs exactly one of holes, arrows, status, cards "
        "(found status, cards)"
    )


def test_segment_key_of_another_kind(tmp_path):
    assert problem(tmp_path, A, ("status = 4", "status = 4\nper_arrow = 2")) == (
        "leds.chain[2].per_arrow: does not go with status (a status segment takes status)"
    )


def test_arrow_for_a_block_off_the_board(tmp_path):
    assert problem(tmp_path, A, ('"4L"]', '"5L"]')) == (
        "leds.chain[1].arrows[7]: '5L': there is no block 5 (blocks 1-4)"
    )


def test_arrow_twice(tmp_path):
    assert problem(tmp_path, A, ('"4L"]', '"4R"]')) == (
        "leds.chain[1].arrows[7]: the arrow 4R has pixels already"
    )


def test_matrix_not_covering_the_holes(tmp_path):
    assert problem(tmp_path, A, ("[14, 15, 4, 17, 27, 22]", "[14, 15, 4, 17, 27]")) == (
        "gpio.matrix_holes: 5 matrix_rows x 6 matrix_columns = 30 crossings for 36 holes; "
        "every crossing needs exactly one hole"
    )


def test_matrix_holes_row_of_wrong_length(tmp_path):
    assert problem(tmp_path, A, ('["a5", "b5", "c5", "d5", "e5", "f5"]', '["a5", "b5"]')) == (
        "gpio.matrix_holes[1]: 2 holes for 6 matrix_columns; give one hole name per column pin"
    )


def test_matrix_hole_twice(tmp_path):
    assert problem(tmp_path, A, ('["a5", "b5",', '["a5", "a6",')) == (
        "gpio.matrix_holes[1][1]: hole a6 is already at gpio.matrix_holes[0][0]; "
        "every hole needs exactly one"
    )


def test_encoder_count_not_block_count(tmp_path):
    assert problem(tmp_path, A, (", [21, 18]]", "]")) == (
        "gpio.encoders: 3 pin pairs for 4 blocks; give one [A, B] pair per block, in block order"
    )


def test_encoder_not_a_pair(tmp_path):
    assert problem(tmp_path, A, ("[21, 18]]", "[21]]")) == (
        "gpio.encoders[3]: expected a pair [A, B] of BCM pins, got [21]"
    )


def test_polarity_without_colours(tmp_path):
    assert problem(tmp_path, B, ('[colours]\nnorth = "white"             # marbles with the north '
                                 'pole up\nsouth = "black"\n', "")) == (
        "colours: missing key (polarity sensing needs the colour of each pole: "
        'colours = { north = "white", south = "black" })'
    )


def test_presence_with_colours(tmp_path):
    assert problem(tmp_path, B, ('sensing = "polarity"', 'sensing = "presence"')) == (
        "colours: presence sensing cannot tell colours apart; remove [colours] "
        'or set sensing = "polarity"'
    )


def test_colour_sensing_names_no_poles(tmp_path):
    assert problem(tmp_path, V, ("per_card = 5", 'per_card = 5\n[colours]\nnorth = "white"\n'
                                 'south = "black"\n')) == (
        "colours: colour sensing reads every marble colour, with no poles to name; remove "
        '[colours] or set sensing = "polarity"'
    )


def test_colour_not_in_the_palette(tmp_path):
    assert problem(tmp_path, B, ('south = "black"', 'south = "blak"')).startswith(
        "colours.south: 'blak' is not one of 'white', 'black', "
    )


def test_both_poles_one_colour(tmp_path):
    assert problem(tmp_path, B, ('south = "black"', 'south = "white"')) == (
        "colours.south: 'white' is the north colour too; the two poles need two colours"
    )


def test_mcu_driver_without_mcu_section(tmp_path):
    start, end = B.index("[mcu]"), B.index("[leds]")
    assert problem(tmp_path, B[:start] + B[end:]) == (
        "mcu: missing section (driver 'mcu' needs [mcu] with port and baud)"
    )


def test_gpio_driver_without_gpio_section(tmp_path):
    start, end = A.index("[gpio]"), A.index("[leds]")
    assert problem(tmp_path, A[:start] + A[end:]) == (
        "gpio: missing section (driver 'gpio' needs [gpio] with "
        "matrix_rows, matrix_columns, matrix_holes and encoders)"
    )


def test_gpio_section_with_another_driver(tmp_path):
    assert problem(tmp_path, A, ('driver = "gpio"', 'driver = "virtual"')) == (
        "gpio: a [gpio] section with driver 'virtual'; set driver = 'gpio' or remove the section"
    )


def test_not_toml(tmp_path):
    message = problem(tmp_path, A, ("size = 6", "size = = 6"))
    assert message.startswith("not valid TOML (")


def test_missing_file(tmp_path):
    with pytest.raises(ProfileError) as caught:
        load_profile(tmp_path / "nowhere.toml")
    assert str(caught.value) == (
        f"{tmp_path / 'nowhere.toml'}: cannot read the profile (No such file or directory)"
    )


def test_errors_in_a_shipped_profile_name_it_by_its_place_in_the_checkout(tmp_path, monkeypatch):
    monkeypatch.setattr(controller.profile.locate, "CHECKOUT", tmp_path.resolve())
    monkeypatch.setattr(controller.profile.locate, "PROFILE_DIR", tmp_path / "hardware" / "profiles")
    controller.profile.locate.PROFILE_DIR.mkdir(parents=True)
    (controller.profile.locate.PROFILE_DIR / "X-6x6.toml").write_text(A.replace("size = 6", "size = 8"))
    with pytest.raises(ProfileError) as caught:
        load_profile("X-6x6")
    assert str(caught.value) == (
        "hardware/profiles/X-6x6.toml: size: 8 is not a supported board size (6 or 9)"
    )


def test_no_profile_folder_says_how_to_point_at_one(tmp_path, monkeypatch):
    monkeypatch.setattr(controller.profile.locate, "PROFILE_DIR", tmp_path / "gone")
    with pytest.raises(ProfileError) as caught:
        load_profile("B-6x6")
    assert str(caught.value) == (
        f"no shipped profile named 'B-6x6': the profile folder {tmp_path / 'gone'} is missing or "
        "unreadable (checkout moved, or a private home directory?); set PENTAGO_BOARD_PROFILES "
        "to a readable copy of hardware/profiles, or give the path of a .toml file"
    )


def test_profile_folder_from_the_environment(tmp_path):
    import subprocess
    import sys

    (tmp_path / "mine.toml").write_text(V)
    code = "from controller.profile import shipped_profiles; print(shipped_profiles())"
    env = {**os.environ, "PENTAGO_BOARD_PROFILES": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout == "['mine']\n"


class FakeDistribution:
    def __init__(self, direct_url: str) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        return self.direct_url if name == "direct_url.json" else None


def test_a_non_editable_install_finds_the_checkout_it_was_installed_from(tmp_path, monkeypatch):
    checkout = tmp_path / "pentago-board"
    (checkout / "hardware" / "profiles").mkdir(parents=True)
    site = tmp_path / "site-packages"  # where a non-editable install puts the package
    monkeypatch.delenv("PENTAGO_BOARD_PROFILES", raising=False)
    monkeypatch.setattr(controller.profile.locate, "CHECKOUT", site)
    url = f'{{"url": "{checkout.as_uri()}", "dir_info": {{}}}}'
    monkeypatch.setattr(controller.profile.locate.importlib.metadata, "distribution",
                        lambda name: FakeDistribution(url))
    assert controller.profile.locate.profile_dir() == checkout / "hardware" / "profiles"
    monkeypatch.setenv("PENTAGO_BOARD_PROFILES", str(tmp_path / "elsewhere"))
    assert controller.profile.locate.profile_dir() == tmp_path / "elsewhere"


def test_unknown_shipped_name():
    with pytest.raises(ProfileError) as caught:
        load_profile("C-6x6")
    assert str(caught.value) == (
        "no shipped profile named 'C-6x6' (shipped: A-6x6, B-6x6, B-9x9, virtual-6x6, "
        "virtual-9x9); give one of those or the path of a .toml file"
    )


# --- the card strip and how a board learns colour (Pentago Triple) ---------------------------


def test_a_card_strip_numbers_its_cards_on_from_an_earlier_card_segment(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text(V.replace("per_card = 5", "per_card = 5\n\n[[leds.chain]]\ncards = 2"))
    leds = load_profile(path).leds
    assert [len(slot) for slot in leds.card_slots] == [5, 5, 5, 1, 1]
    assert [leds.pixels[i].card for i in leds.card_pixels[-3:]] == [2, 3, 4]
    assert leds.pattern_slots == ()  # mixed slots: cards fall back to the bottom row


def test_without_per_card_a_card_is_one_pixel_as_before(tmp_path):
    path = tmp_path / "old.toml"
    path.write_text(V.replace("per_card = 5\n", ""))
    leds = load_profile(path).leds
    assert (leds.length, leds.card_slots, leds.pattern_slots) == (67, ((64,), (65,), (66,)), ())


def test_per_card_goes_only_with_cards(tmp_path):
    assert problem(tmp_path, V, ("status = 4", "status = 4\nper_card = 5")) == (
        "leds.chain[2].per_card: does not go with status (a status segment takes status)")


@pytest.mark.parametrize("name, method, cycle, confirm", [
    ("A-6x6", "confirm", "back", "ok"), ("B-6x6", "confirm", "back", "ok"),
    ("B-9x9", "confirm", "back", "ok"),
    ("virtual-6x6", "sensed", None, None), ("virtual-9x9", "sensed", None, None),
])
def test_each_shipped_profile_declares_how_it_learns_colour(name, method, cycle, confirm):
    ask = load_profile(name).colour_input
    assert (ask.method, ask.cycle, ask.confirm) == (method, cycle, confirm)
    assert f"[colour_input]\nmethod = {method!r}".replace("'", '"') in (PROFILE_DIR / f"{name}.toml").read_text()


def test_without_colour_input_the_sensing_kind_picks_the_method(tmp_path):
    for base, method in ((A, "confirm"), (V, "sensed")):
        path = tmp_path / "plain.toml"
        start = base.index("[colour_input]")
        path.write_text(base[:start] + base[base.index("[leds]"):])
        assert load_profile(path).colour_input.method == method


COLOUR_INPUT = '[colour_input]\nmethod = "confirm"\ncycle = "back"\nconfirm = "ok"\n'


@pytest.mark.parametrize("base, new, message", [
    (A, '[colour_input]\nmethod = "sensed"\n',
     'colour_input.method: "sensed" needs sensors that tell every marble colour apart '
     '(sensing = "colour", the virtual board); a presence board sees a marble, not its colour; '
     'use method = "confirm"'),
    (B, '[colour_input]\nmethod = "sensed"\n',
     'colour_input.method: "sensed" needs sensors that tell every marble colour apart '
     '(sensing = "colour", the virtual board); a polarity board tells two colours apart at most; '
     'use method = "confirm"'),
    (A, '[colour_input]\nmethod = "guess"\n',
     "colour_input.method: 'guess' is not one of 'sensed', 'confirm'"),
    (A, '[colour_input]\ncycle = "colour"\n',
     "colour_input.cycle: no button named 'colour' (buttons: ok, back); name one from [buttons]"),
    (A, '[colour_input]\ncycle = "ok"\n',
     "colour_input.confirm: 'ok' is the cycle button too; cycling and confirming need two buttons"),
    (A, '[colour_input]\ncycle = 3\n', "colour_input.cycle: expected a string, got 3"),
    (A, '[colour_input]\ncycel = "back"\n', "colour_input.cycel: unknown key (did you mean 'cycle'?)"),
])
def test_colour_input_problems_are_named(tmp_path, base, new, message):
    assert problem(tmp_path, base, (COLOUR_INPUT, new)) == message


def test_a_sensed_board_takes_no_buttons_for_colour(tmp_path):
    assert problem(tmp_path, V, ('method = "sensed"', 'method = "sensed"\nconfirm = "ok"')) == (
        'colour_input.confirm: does not go with method = "sensed" (the sensors read the colour; '
        "no button confirms it)")


def test_a_virtual_board_may_confirm_with_the_simulators_buttons(tmp_path):
    path = tmp_path / "ask.toml"
    path.write_text(V.replace('method = "sensed"', 'method = "confirm"'))
    ask = load_profile(path).colour_input
    assert (ask.method, ask.cycle, ask.confirm) == ("confirm", "back", "ok")
    path.write_text(V.replace('method = "sensed"', 'method = "confirm"\ncycle = "next"'))
    with pytest.raises(ProfileError, match="no button named 'next' \\(buttons: ok, back\\)"):
        load_profile(path)


TRIPLE = ("blue", "yellow", "red")


def test_the_cycle_button_steps_through_the_games_colours_from_the_assumed_one():
    ask = load_profile("A-6x6").colour_input
    assert ask.cycle_order(TRIPLE, "red") == ("red", "blue", "yellow")
    assert [ask.next_colour(TRIPLE, c) for c in TRIPLE] == ["yellow", "red", "blue"]
    assert ask.next_colour(("white",), "white") == "white"
    with pytest.raises(ValueError):
        ask.cycle_order(TRIPLE, "green")


@pytest.mark.parametrize("name, colours, tells", [
    ("virtual-6x6", TRIPLE, True),
    ("B-6x6", ("white", "black"), True),
    ("B-6x6", TRIPLE, False),
    ("B-6x6", ("white", "black", "red"), False),
    ("A-6x6", ("white", "black"), False),
    ("A-6x6", ("white",), True),
])
def test_which_boards_tell_a_games_colours_apart(name, colours, tells):
    assert load_profile(name).tells_apart(colours) is tells


@pytest.mark.parametrize("name, reading, assumed", [
    ("B-6x6", "white", "blue"),  # north up: the game's first colour
    ("B-6x6", "black", "yellow"),  # south up: its second
    ("virtual-6x6", "red", "red"),  # colour sensing reads the colour itself
    ("A-6x6", "marble", "red"),  # presence: the flow's guess
    ("B-6x6", "unsure", "red"),
])
def test_the_assumed_colour_comes_from_the_reading_or_the_flows_guess(name, reading, assumed):
    assert load_profile(name).assumed_colour(reading, TRIPLE, "red") == assumed
