"""`pentago-board doctor`: check this machine for everything the daemon needs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import DEFAULTED, add_profile_argument, configured, name_your_board


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check this machine for everything the daemon needs",
        description="Check the profile, SPI, device nodes, groups, the board MCU and its "
        "firmware, and the journal directory; print each with a fix. Exit status 1 if any fails.",
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="the daemon's config TOML")
    add_profile_argument(parser, required=False, help="check this profile instead of the config's")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..daemon.doctor import report, run_checks
    from ..errors import ConfigError

    try:
        config, source = configured(args)
    except ConfigError as exc:
        print(f"FAIL  config: {exc}", file=sys.stderr)
        return 2
    if source == DEFAULTED:
        print(f"note: no --config or --profile given, so this checks {config.profile}, the virtual "
              f"board; {name_your_board()}")
    text, status = report(run_checks(config))
    print(text)
    return status
