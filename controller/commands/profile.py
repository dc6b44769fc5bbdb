"""`pentago-board profile`: list the shipped hardware profiles, or check one and summarise it."""

from __future__ import annotations

import argparse
import sys

from ..drivers.pixels import DEFAULT_GAMMA, white_at_cap_ma
from ..errors import ProfileError
from ..profile import LedChain, Profile, load_profile, shipped_profiles
from . import add_profile_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "profile",
        help="list or check hardware profiles",
        description="Without PROFILE, list the shipped profiles. With one (a shipped name or the "
        "path of a .toml file), check it and print what it describes; exit 2 if it is wrong.",
    )
    add_profile_argument(parser, required=False, help="check and summarise this profile")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.profile is None:
        for name in shipped_profiles():
            print(f"{name}: {load_profile(name).description}")
        return 0
    try:
        profile = load_profile(args.profile)
    except ProfileError as error:
        print(f"pentago-board profile: {error}", file=sys.stderr)
        return 2
    print(summary(profile))
    return 0


def summary(p: Profile) -> str:
    """A few lines saying what the profile describes."""
    g = p.geometry
    lines = [
        f"{p.name}: {p.description}" if p.description else p.name,
        f"  board {g.size}x{g.size} ({g.block_count} blocks), {p.sensing} sensing, "
        f"{p.driver} driver, {p.detents_per_quarter} detents per quarter turn",
    ]
    if p.colours:
        lines.append(f"  colours: north up {p.colours['north']}, south up {p.colours['south']}")
    if p.buttons:
        lines.append("  buttons: " + ", ".join(f"{n} GPIO{pin}" for n, pin in p.buttons.items()))
    ask = p.colour_input
    lines.append("  colour input: " + ("sensed" if ask.method == "sensed" else
                 f"confirm (cycle with {ask.cycle}, confirm with {ask.confirm})"))
    if p.gpio:
        lines.append(f"  gpio: {len(p.gpio.matrix_rows)} matrix rows x "
                     f"{len(p.gpio.matrix_columns)} columns, {len(p.gpio.encoders)} encoders")
    if p.mcu:
        lines.append(f"  mcu: {p.mcu.port} at {p.mcu.baud} baud")
    return "\n".join(lines + [_leds(p)])


def _leds(p: Profile) -> str:
    leds = p.leds
    where = "virtual" if leds.driver == "virtual" else f"on GPIO{leds.pin} ({leds.driver})"
    arrows = sum(map(len, leds.arrow_pixels.values()))
    return "\n".join([
        f"  leds: {leds.length} {leds.order} pixels {where}: {len(leds.hole_pixel)} hole, "
        f"{arrows} arrow, {len(leds.status_pixels)} status, {_cards(leds)}; "
        f"brightness cap {leds.brightness_cap:g}", *_current(leds)])


def _cards(leds: LedChain) -> str:
    slots = leds.pattern_slots
    return f"{len(leds.card_pixels)} card" + (f" ({len(slots)} cards x 5)" if slots else "")


def _current(leds: LedChain) -> list[str]:
    """What the LEDs can draw through the pixel output, and what that asks of the supply."""
    if leds.driver == "virtual":
        return ["  current: virtual pixels draw nothing; there is no supply to size"]
    full = white_at_cap_ma(leds)
    share = full / leds.full_current_ma()
    budget = leds.current_budget_ma
    verdict = ("more than the LEDs can draw at the cap, so it never dims a frame" if full <= budget else
               "a frame that would draw more is dimmed as a whole to fit, hues kept")
    return [f"  current: every pixel white at the cap draws {full:.0f} mA in all (the cap goes "
            f"through gamma {DEFAULT_GAMMA:g}: {leds.brightness_cap:g} gives {share:.0%} of full current)",
            f"  budget {budget} mA: {verdict}; the hardware docs size the 5 V supply for "
            f"{min(budget, leds.full_current_ma()):.0f} mA of LEDs (the budget: the most the daemon "
            "ever lets them draw, so a higher cap still fits)"]
