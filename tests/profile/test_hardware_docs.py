"""The hardware docs are generated from the profiles: the committed files must equal what
hardware/tools/wiring.py writes now, and what it writes must cover every pin and load."""

from __future__ import annotations

import math
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller.profile import load_profile

TOOLS = Path(__file__).resolve().parents[2] / "hardware" / "tools"
sys.path.insert(0, str(TOOLS))

import mechanics  # noqa: E402  (hardware/tools is not a package: the scripts run from there)
import parts  # noqa: E402
import pinout  # noqa: E402
import wiring  # noqa: E402

REAL = ["A-6x6", "B-6x6", "B-9x9"]


def test_real_profiles_are_the_ones_with_hardware():
    assert wiring.real_profiles() == REAL


def test_committed_docs_match_the_generator():
    assert wiring.stale(REAL) == [], "run: python hardware/tools/wiring.py"


def test_check_reports_an_edited_doc(tmp_path, monkeypatch, capsys):
    for name in REAL:
        for suffix in (".md", ".svg", "-mechanics.md", "-mechanics.svg"):
            shutil.copy(wiring.HARDWARE / f"{name}{suffix}", tmp_path)
    monkeypatch.setattr(wiring, "HARDWARE", tmp_path)
    assert wiring.main(["--check"]) == 0
    doc = tmp_path / "B-6x6.md"
    doc.write_text(doc.read_text().replace("GPIO10", "GPIO12"))
    assert wiring.main(["--check"]) == 1
    assert capsys.readouterr().out == (
        "hardware/B-6x6.md is stale: run python hardware/tools/wiring.py\n"
    )


def table_rows(markdown: str, heading: str) -> list[list[str]]:
    """The body rows of the first table after ``heading``."""
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")][2:]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def profile_pins(name: str) -> set[int]:
    p = load_profile(name)
    pins = set(p.buttons.values()) | {p.leds.pin}
    if p.gpio:
        pins |= set(p.gpio.matrix_rows) | set(p.gpio.matrix_columns)
        pins |= {pin for pair in p.gpio.encoders for pin in pair}
    return pins


@pytest.mark.parametrize("name", REAL)
def test_pi_table_lists_every_pin_of_the_profile_at_its_header_position(name):
    markdown = (wiring.HARDWARE / f"{name}.md").read_text()
    rows = table_rows(markdown, "Raspberry Pi 40-pin header")
    gpio_rows = {int(row[1].removeprefix("GPIO")): int(row[0])
                 for row in rows if row[1].startswith("GPIO")}
    assert set(gpio_rows) == profile_pins(name)
    assert all(pinout.PI_HEADER[physical] == bcm for bcm, physical in gpio_rows.items())


@pytest.mark.parametrize("name", ["B-6x6", "B-9x9"])
def test_pico_table_lists_every_pin_of_the_firmware_config(name):
    profile = load_profile(name)
    config = pinout.pico_config(profile)
    markdown = (wiring.HARDWARE / f"{name}.md").read_text()
    listed = {int(row[1].removeprefix("GP")) for row in table_rows(markdown, "Raspberry Pi Pico")
              if re.fullmatch(r"GP\d+", row[1])}
    expected = set(config["select_pins"]) | set(config["adc_pins"])
    expected |= {gp for pair in config["encoders"] for gp in pair}
    assert listed == expected


@pytest.mark.parametrize("name", ["B-6x6", "B-9x9"])
def test_every_hole_has_one_mux_channel(name):
    profile = load_profile(name)
    wires = pinout.sensor_wires(pinout.pico_config(profile))
    assert [w.hole for w in wires] == list(range(profile.geometry.hole_count))
    assert len({(w.mux, w.channel) for w in wires}) == len(wires)
    assert all(0 <= w.channel < 16 for w in wires)


def test_nine_by_nine_needs_six_muxes_and_an_inverter():
    config = pinout.pico_config(load_profile("B-9x9"))
    assert (pinout.mux_count(config), pinout.muxes_per_adc(config)) == (6, 2)
    bom = wiring.markdown(load_profile("B-9x9"), config)
    assert "| 6 | TI CD74HC4067" in bom and "| 1 | TI SN74LVC1G04" in bom


@pytest.mark.parametrize("name", REAL)
def test_svg_is_well_formed_and_labels_every_hole(name):
    root = ET.parse(wiring.HARDWARE / f"{name}.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    g = load_profile(name).geometry
    assert {f"{chr(97 + c)}{r + 1}" for c in range(g.size) for r in range(g.size)} <= texts


def test_power_budget_counts_leds_at_their_current_budget():
    loads = parts.power_budget(load_profile("A-6x6"), has_mcu=False)
    assert [(load.what, load.ma) for load in loads] == [
        ("LED chain, at most its current budget", 1500),  # the daemon dims any frame past it
        ("LED quiescent", 79.0),  # 67 pixels + the 12 of the card strip
        ("Raspberry Pi 4", parts.PI_MA),
    ]


def test_supply_is_the_smallest_with_headroom():
    name, need = parts.supply_for(load_profile("B-9x9"), has_mcu=True)
    total = 2000 + 142 + parts.PI_MA + parts.PICO_MA + 81 * parts.HALL_MA
    assert need == pytest.approx(total * parts.HEADROOM)
    assert name == "Mean Well LRS-35-5 (5 V 7 A)"  # 6.0 A needed: the 5 A one is too small


@pytest.mark.parametrize("name", REAL)
def test_the_profile_command_and_the_hardware_doc_quote_the_same_power_figures(name, capsys):
    """Issue 22, item 20: `profile A-6x6` said 335 mA at the cap, hardware/A-6x6.md 1422 mA
    (the cap taken as a linear share, gamma forgotten). Now both quote the draw at the cap and
    the budget the supply is sized for, the same numbers."""
    from controller.cli import main

    assert main(["profile", name]) == 0
    said = capsys.readouterr().out
    at_cap = re.search(r"every pixel white at the cap draws (\d+) mA", said).group(1)
    sized = re.search(r"size the 5 V supply for (\d+) mA of LEDs", said).group(1)
    doc = (wiring.HARDWARE / f"{name}.md").read_text()
    row = next(line for line in doc.splitlines() if line.startswith("| LED chain, at most"))
    assert f"draws {at_cap}:" in row and row.endswith(f"| {sized} |")
    assert f"they draw at most {at_cap} mA" in doc


def test_chain_runs_group_rows_and_arrows():
    p = load_profile("A-6x6")
    runs = wiring.chain_runs(p.leds.pixels, p.geometry)
    assert runs[:2] == [(0, 5, "holes a1 -> f1"), (6, 11, "holes f2 -> a2")]
    assert runs[6] == (36, 38, "arrow 1R (block 1 clockwise)")
    assert runs[-4:] == [(60, 63, "status 0-3"), (64, 68, "card 0: its 5 marbles, left to right"),
                         (69, 73, "card 1: its 5 marbles, left to right"),
                         (74, 78, "card 2: its 5 marbles, left to right")]
    nine = load_profile("B-9x9")  # no card strip: one pixel per card, one run
    assert wiring.chain_runs(nine.leds.pixels, nine.geometry)[-1] == (139, 141, "card 0-2")


def test_the_card_strip_costs_twelve_pixels_and_the_supply_still_holds():
    """3 cards x 5 pixels instead of 3 pixels: 12 more at 1 mA idle each (their light is within
    the LED budget)."""
    for name, total in (("A-6x6", 3379), ("B-6x6", 3764)):
        p = load_profile(name)
        assert round(sum(load.ma for load in parts.power_budget(p, p.mcu is not None))) == total
        assert parts.supply_for(p, p.mcu is not None)[0] == "Mean Well RS-25-5 (5 V 5 A)"
    text = (wiring.HARDWARE / "A-6x6.md").read_text()
    assert "| 79 | WS2812B" in text and "15 card pixels (3 cards x 5: the card strip)" in text


@pytest.mark.parametrize("doc", ["README.md", *(f"{name}.md" for name in REAL)])
def test_relative_links_in_the_hardware_docs_resolve(doc):
    text = (wiring.HARDWARE / doc).read_text()
    targets = re.findall(r"\]\(([^)#:]+)\)", text)
    assert targets
    missing = [t for t in targets if not (wiring.HARDWARE / t).exists()]
    assert missing == []


# -- issue 22, item 19: the mechanical drawing and the cut list ------------------------------------

@pytest.mark.parametrize("name", REAL)
def test_the_mechanical_drawing_and_cut_list_follow_the_profile(name):
    p = load_profile(name)
    m = mechanics.layout(p)
    per_side = p.size // 3
    assert m.board == per_side * m.block + (per_side - 1) * mechanics.GAP + 2 * mechanics.FRAME
    # The encoders' detents: 24 a turn coupled so a quarter turn of the block is the profile's count.
    assert m.ratio * mechanics.ENCODER_DETENTS == 4 * p.detents_per_quarter
    assert mechanics.BLOCK_PULLEY_TEETH / m.encoder_teeth == m.ratio
    # The belt fits its pulleys at the distance drawn (GT2: 2 mm a tooth).
    r = [t * mechanics.GT2_PITCH / (2 * math.pi) for t in (mechanics.BLOCK_PULLEY_TEETH, m.encoder_teeth)]
    length = 2 * m.centres + math.pi * sum(r) + (r[0] - r[1]) ** 2 / m.centres
    assert length == pytest.approx(m.belt_teeth * mechanics.GT2_PITCH, abs=0.5)
    counts = {part: qty for qty, part, _ in mechanics.cut_list(p)}
    assert sum(qty for part, qty in counts.items() if part.startswith("block top plate")) == p.geometry.block_count
    assert counts[f"marble, {mechanics.MARBLE:g} mm (wood, resin or acrylic)"] == p.geometry.hole_count
    doc = (wiring.HARDWARE / f"{name}-mechanics.md").read_text()
    for words in ("| hole pitch | 30 |", "| marble | 16 ", f"{p.detents_per_quarter} per quarter turn",
                  "**Detent alignment.**", "**Bearing.**", "**The holes after a quarter turn.**", "## Cut list"):
        assert words in doc, words
    root = ET.parse(wiring.HARDWARE / f"{name}-mechanics.svg").getroot()
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert f"{m.board:.0f}" in texts and "pitch 30" in texts and f"block {m.block:g}" in texts


def test_a_quarter_turn_brings_every_hole_over_a_fixed_sensor_and_led():
    """The drawing's claim: a block's 3x3 seats, turned 90 degrees about the centre seat, land on
    the same nine positions, where the LEDs and sensors are."""
    seats = {(col * mechanics.PITCH, row * mechanics.PITCH) for col in (-1, 0, 1) for row in (-1, 0, 1)}
    assert {(-y, x) for x, y in seats} == seats


def test_detents_no_pulley_pair_can_make_are_refused(tmp_path):
    from dataclasses import replace

    odd = replace(load_profile("B-6x6"), detents_per_quarter=7)  # 28 a turn: no 36-tooth ratio
    with pytest.raises(ValueError, match="7 detents per quarter needs a 1.16667:1 coupling"):
        mechanics.layout(odd)
    doubled = mechanics.layout(replace(load_profile("B-6x6"), detents_per_quarter=12))
    assert (doubled.ratio, doubled.encoder_teeth) == (2.0, 18)
