"""`pentago-board doctor`: check this machine for everything the daemon needs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check this machine for everything the daemon needs",
        description="Check the profile, SPI, device nodes, groups, the board MCU and its "
        "firmware, and the journal directory; print each with a fix. Exit status 1 if any fails.",
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="the daemon's config TOML")
    parser.add_argument("--profile", metavar="NAME", help="check this profile instead of the config's")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..daemon.config import load_config
    from ..daemon.doctor import report, run_checks
    from ..errors import ConfigError

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"FAIL  config: {exc}", file=sys.stderr)
        return 2
    if args.profile:
        config = replace(config, profile=args.profile)
    text, status = report(run_checks(config))
    print(text)
    return status
