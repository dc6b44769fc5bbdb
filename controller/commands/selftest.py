"""`pentago-board selftest`: LED chase, then every hole sensor and encoder, with a person."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from . import DEFAULTED, add_profile_argument, configured, name_your_board


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "selftest",
        help="check every LED, hole sensor and encoder with a person at the board",
        description="Chase the LEDs in chain order, then ask for a marble on each lit hole and a "
        "quarter turn of each block; report dead sensors and encoders. Stop the service first "
        "(sudo systemctl stop pentago-board): the test needs the hardware to itself.",
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="the daemon's config TOML")
    add_profile_argument(parser, required=False, help="test this profile instead of the config's")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S",
                        help="seconds a step may go without progress (default 30)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import PentagoError

    try:
        test = _prepare(args)
    except PentagoError as exc:
        print(f"pentago-board selftest: {exc}", file=sys.stderr)
        return 2
    result = test.run()
    for problem in result.problems:
        print(f"FAIL  {problem}")
    print("all LEDs chased, every sensor and encoder answered" if result.ok else
          f"{len(result.problems)} problem(s) found")
    return 0 if result.ok else 1


def _prepare(args: argparse.Namespace) -> Any:
    """The SelfTest for the chosen profile; raises PentagoError when there is nothing to test."""
    from ..daemon.selftest import SelfTest
    from ..drivers.factory import build_inputs, build_pixels
    from ..errors import ConfigError
    from ..profile import load_profile

    config, source = configured(args)
    profile = load_profile(config.profile)
    if profile.driver == "virtual":
        chosen = (f"no --config or --profile given, so the profile is {profile.name}" if source == DEFAULTED
                  else f"the profile is {profile.name} (from {source})")
        raise ConfigError(f"{chosen}, the virtual board: it has no LEDs, sensors or encoders to "
                          f"test; {name_your_board()}")
    print(f"> testing {profile.name} (from {source}): {profile.description}", flush=True)
    return SelfTest(profile, build_inputs(profile), build_pixels(profile), timeout_s=args.timeout,
                    say=lambda text: print(f"> {text}", flush=True))
