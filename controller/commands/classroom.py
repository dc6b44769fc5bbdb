"""`pentago-board classroom`: the teacher's console for every board publishing to one broker.

It listens on 127.0.0.1 by default, needing no token there (as the board's web console). Listening
on any other address it needs a token: PENTAGO_BOARD_TOKEN, or else a fresh one made for this run
and printed in the address (shown on this terminal only). ``--token`` is refused, as ``run``
refuses it: every user of the machine can read a command line in the process list. Listening on
every address (``--listen 0.0.0.0``), the address printed is this machine's on its network, the
one a tablet opens.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket

from . import port_number

LOCAL = ("127.0.0.1", "localhost", "::1")
TOKEN_ENV = "PENTAGO_BOARD_TOKEN"


def network_address() -> str:
    """This machine's address on its network (the one its default route leaves by: what a
    tablet on the classroom's network opens), else 127.0.0.1. A UDP socket's connect sends
    nothing; it only picks the route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            address = probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    return address if not address.startswith("127.") else "127.0.0.1"


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "classroom", help="the teacher's web console for every board publishing to an MQTT broker",
        description="List every board on the broker live and start a game or a Picture-Puzzle round on "
                    "one board or all of them; download every board's summary as one CSV.")
    parser.add_argument("--broker", default="localhost", metavar="HOST", help="the MQTT broker (default localhost)")
    parser.add_argument("--port", type=port_number, default=1883, metavar="N", help="the broker's port (default 1883)")
    parser.add_argument("--prefix", default="pentago-board", help="the boards' topic prefix (default pentago-board)")
    parser.add_argument("--listen", default="127.0.0.1", metavar="ADDRESS",
                        help="where the console's page listens (default 127.0.0.1: this machine only; 0.0.0.0: "
                             "every address, so a tablet on the network can open it: it prints that address)")
    parser.add_argument("--web-port", type=port_number, default=8090, metavar="N",
                        help="the page's port (default 8090; 0 for any free one)")
    parser.add_argument("--token", help=argparse.SUPPRESS)  # refused: see the module doc
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import importlib.util
    import sys

    if args.token is not None:
        print(f"pentago-board classroom: --token is not taken: every user can read it in the process list; "
              f"set {TOKEN_ENV} instead (or let the console make one up and print it)", file=sys.stderr)
        return 2
    if importlib.util.find_spec("aiomqtt") is None:
        print("the classroom console needs the MQTT client: pip install 'pentago-board[mqtt]'", file=sys.stderr)
        return 2
    return asyncio.run(_serve(args))


async def _serve(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from aiohttp import web

    from ..classroom.app import make_app
    from ..classroom.boards import Boards
    from ..classroom.link import Link
    from ..daemon.web.refusals import RefusalLog

    token = os.environ.get(TOKEN_ENV, "") or ("" if args.listen in LOCAL else secrets.token_urlsafe(12))
    try:  # bound before anything starts: a taken port is told at once, with nothing to undo
        listening = socket.create_server((args.listen, args.web_port),
                                         family=socket.AF_INET6 if ":" in args.listen else socket.AF_INET)
    except OSError as error:  # the port taken, an address not of this machine
        print(f"the console cannot listen on {args.listen} port {args.web_port}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    app = make_app(Link(args.broker, args.port, Boards(args.prefix)), args.listen, token)
    runner = web.AppRunner(app, access_log=None, logger=RefusalLog())  # see daemon/web/refusals.py
    await runner.setup()
    await web.SockSite(runner, listening).start()
    port = runner.addresses[0][1]
    host = network_address() if args.listen in ("0.0.0.0", "::") else (f"[{args.listen}]" if ":" in args.listen else args.listen)
    query = f"?token={token}" if token else ""
    print(f"Classroom console: http://{host}:{port}/{query}  (boards on {args.broker}:{args.port}; Ctrl-C to stop)",
          flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
    return 0
