"""`pentago-board sim`: the daemon on a virtual board, played in the browser."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
from pathlib import Path

from . import port_number

SENSINGS = ("colour", "presence")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="play on a virtual board in the browser",
        description="Start the daemon on a virtual board and serve it at http://127.0.0.1:PORT/: "
        "click holes to place and lift marbles, arrows to turn blocks, and watch the LEDs.",
    )
    parser.add_argument("--port", type=port_number, default=8080, help="port to serve on (default 8080; 0: any free one)")
    parser.add_argument("--board", choices=("6x6", "9x9"), default="6x6", help="the board's size (default 6x6)")
    parser.add_argument("--sensing", choices=SENSINGS, default="colour",
                        help="what the virtual sensors tell: every marble colour (default), or only "
                        "that a marble is there, as reed switches do (a chosen colour, Pentago "
                        "Triple's, is then confirmed with Back and OK, as on build A)")
    parser.add_argument("--journal", type=Path, metavar="FILE",
                        help="keep the game in this journal across restarts (default: a fresh one)")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open a browser even when there is a display")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..daemon import logs

    logs.setup(under_journald=False)
    if args.journal is not None:
        return _serve(args, args.journal)
    # Without --journal the game lives in a folder of its own, gone when the simulator stops.
    with tempfile.TemporaryDirectory(prefix="pentago-sim-") as folder:
        return _serve(args, Path(folder) / "journal.jsonl")


def _serve(args: argparse.Namespace, journal: Path) -> int:
    from ..daemon import service
    from ..daemon.config import Config, WebConfig

    # A fresh token each run: other users and processes on this machine cannot drive the board.
    web = WebConfig(enabled=True, bind="127.0.0.1", port=args.port, token=secrets.token_urlsafe(12),
                    token_from="the address sim printed on its terminal")
    config = Config(profile=profile_for(args.board, args.sensing, journal.parent), journal=journal, web=web)
    return service.start(config, None, on_listening=lambda urls: announce(urls, args.no_browser), lay_out=True)


def profile_for(board: str, sensing: str, folder: Path) -> str:
    """The virtual profile of ``board``; for presence sensing, a copy of it in ``folder`` whose
    sensors read presence only and whose chosen colours are confirmed with Back and OK."""
    name = f"virtual-{board}"
    if sensing == "colour":
        return name
    from ..profile import PROFILE_DIR

    text = (PROFILE_DIR / f"{name}.toml").read_text(encoding="utf-8")
    text = text.replace('sensing = "colour"', 'sensing = "presence"').replace('method = "sensed"', 'method = "confirm"')
    path = folder / f"{name}-presence.toml"
    path.write_text(text.replace(f'name = "{name}"', f'name = "{name}-presence"'), encoding="utf-8")
    return str(path)


def announce(urls: list[str], no_browser: bool) -> None:
    """Print where the board is, with this run's token (printed here only, never logged); open
    a browser only when someone can see it."""
    print(f"Virtual board: {urls[0]}  (Ctrl-C to stop)", flush=True)
    print("The address carries this run's token and is shown only here: keep this terminal "
          "(or the open tab) to come back to the board.", flush=True)
    has_display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if has_display and not no_browser and sys.stdout.isatty():
        import webbrowser

        webbrowser.open(urls[0])
