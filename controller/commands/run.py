"""`pentago-board run`: the daemon (what the systemd service starts)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the board daemon (the systemd service)",
        description="Referee games on the board the config's hardware profile describes. Logs "
        "key=value lines to stderr (the journal under systemd). SIGTERM stops after the current "
        "journal write; SIGHUP reloads the config (brightness; other keys need a restart).",
    )
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config TOML (default: built-in defaults, the virtual board)")
    parser.add_argument("--token", metavar="TOKEN",
                        help="web console token (default: the config's, or a fresh one printed "
                        "at start when the console listens beyond this machine)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..daemon import logs, service
    from ..daemon.config import load_config
    from ..errors import ConfigError

    logs.setup(under_journald=service.under_journald())
    try:
        config = service.with_token(load_config(args.config), args.token)
    except ConfigError as exc:
        logs.event("cannot start", 40, error=exc)
        return service.EXIT_CONFIG
    return service.start(config, args.config)
