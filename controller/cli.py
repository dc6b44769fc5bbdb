"""The `pentago-board` command: referee Pentago on a sensored board, or on a virtual one.

Each subcommand is one module in controller/commands with ``register(subparsers)``, which adds
its parser and sets ``handler`` to a function taking the parsed arguments and returning the exit
status. Command modules import their heavy dependencies inside the handler, so
``pentago-board --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys

from . import __version__

COMMANDS = ("analyse", "calibrate", "classroom", "doctor", "firmware", "game", "inputs", "leds", "pictures", "profile", "replay", "run", "selftest", "sim")
DESCRIPTION = ("Referee Pentago on a sensored board, or play it on a virtual one in the browser "
               "(pentago-board sim). Each COMMAND has its own --help.")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pentago-board", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
    except BrokenPipeError:
        return _reader_went_away()
    except KeyboardInterrupt:  # Ctrl-C: end the line the ^C broke, exit as a shell expects
        print(file=sys.stderr)
        return 128 + signal.SIGINT
    return status


def _reader_went_away() -> int:
    """Whatever read our output stopped early (``| head``, ``| true``): end quietly, as Python's
    documentation of SIGPIPE recommends, pointing stdout at devnull so the final flush at exit
    has nowhere to fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    sys.exit(main())
