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
        "journal write; SIGHUP reloads the config (brightness; other keys need a restart). "
        "The web console's token comes from the config (web.token) or the environment variable "
        "PENTAGO_BOARD_TOKEN, never from the command line, where the process list shows it.",
    )
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="config TOML (default: built-in defaults, the virtual board)")
    # Refused with a pointer to the environment variable (the process list shows arguments).
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..daemon import logs, service
    from ..daemon.config import load_config
    from ..errors import ConfigError

    logs.setup(under_journald=service.under_journald())
    if args.token is not None:
        logs.event("cannot start", 40, error=f"--token is not taken: every user can read it in the "
                   f"process list; set {service.TOKEN_ENV} or web.token in the config instead")
        return service.EXIT_CONFIG
    try:
        config = service.with_token(load_config(args.config))
    except ConfigError as exc:
        logs.event("cannot start", 40, error=exc)
        return service.EXIT_CONFIG
    return service.start(config, args.config)
