"""The `pentago-board` command: one subcommand per module in :mod:`controller.commands`.

Each command module has ``register(subparsers)``, which adds its parser and sets ``handler`` to a
function taking the parsed arguments and returning the exit status. Command modules import their
heavy dependencies inside the handler, so ``pentago-board --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__

COMMANDS = ("calibrate", "doctor", "firmware", "game", "inputs", "leds", "profile", "replay", "run", "selftest", "sim")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pentago-board", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
