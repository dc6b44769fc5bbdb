"""Subcommands of `pentago-board`, one module each (see controller/cli.py), and the argument
spellings they share: a profile is named the same way in every command that takes one."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..daemon.config import Config

NOT_A_PORT = "is not a port number (1-65535, or 0 for any free one)"


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 meaning any free one.

    >>> port_number("8080")
    8080
    >>> port_number("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 99999 is not a port number (1-65535, or 0 for any free one)
    """
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} {NOT_A_PORT}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text} {NOT_A_PORT}")
    return port


class _Given(argparse.Action):
    """Stores a positional PROFILE only when one was given, so it never hides ``--profile``."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if values is not None:
            setattr(namespace, self.dest, values)


def add_profile_argument(parser: argparse.ArgumentParser, *, required: bool, help: str) -> None:
    """``PROFILE`` or ``--profile PROFILE``, the same in every command; one of them at most."""
    from ..profile import shipped_profiles

    shipped = ", ".join(shipped_profiles())
    either = parser.add_mutually_exclusive_group(required=required)
    either.add_argument("profile", nargs="?", metavar="PROFILE", action=_Given,
                        help=f"{help}: a shipped profile ({shipped}) or a .toml path")
    either.add_argument("--profile", dest="profile", metavar="PROFILE", help="the same, as an option")


DEFAULTED = "the built-in default"


def name_your_board() -> str:
    """What to type instead of the virtual board: the shipped profiles of real builds."""
    from ..profile import shipped_profiles

    builds = [name for name in shipped_profiles() if not _is_virtual(name)]
    return f"name your board with --profile {', '.join(builds)} or a .toml path, or with --config FILE"


def _is_virtual(name: str) -> bool:
    from ..errors import ProfileError
    from ..profile import load_profile

    try:
        return load_profile(name).driver == "virtual"
    except ProfileError:
        return True  # a broken shipped profile is no board to suggest


def configured(args: argparse.Namespace) -> tuple[Config, str]:
    """The config a command works with (``--config``, else the defaults) with ``--profile``
    applied, and where its profile came from: ``--profile``, the config file or DEFAULTED.

    Raises ConfigError for a config that does not load.
    """
    from dataclasses import replace

    from ..daemon.config import load_config

    config = load_config(args.config)
    if args.profile:
        return replace(config, profile=args.profile), "--profile"
    return config, str(args.config) if args.config else DEFAULTED
