"""Count: how many times one new game's options are checked, and rules objects built, on the way in.

Posts one ``new_game`` command per game to the real web console (aiohttp's test server over a
real runtime and core on the virtual board) and counts the calls of
:meth:`controller.games.GameSpec.options` (a check) and :meth:`~controller.games.GameSpec.make`
(a rules object: a check builds one to let the rules judge the combination, and the game itself
is one) from the request until the game has started. Then replays every recorded tape through
a fresh core and counts the registry's lookups (``games.get``) per ``Core.handle``: the core
keeps the spec of the game it started. Prints the counts; asserts nothing
(tests/daemon/web/test_app.py holds the check to one).

    .venv/bin/python bench/new_game_checks.py
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from unittest import mock

from aiohttp.test_utils import TestClient, TestServer

from controller.core import Core
from controller.daemon.config import GameDefaults
from controller.daemon.runtime import Runtime
from controller.daemon.web.app import build_app
from controller.drivers.virtual import VirtualBoard, VirtualPixels
from controller.games.spec import GameSpec
from controller.daemon.notify import Notifier
from controller.journal import Journal
from controller.profile import load_profile

REQUESTS = (
    ("virtual-6x6", {"game": "classic", "computer": True}),
    ("virtual-6x6", {"game": "triple", "players": 3, "mode": "bonus"}),
    ("virtual-9x9", {"game": "multiplayer", "players": 3}),
    ("virtual-9x9", {"game": "puzzle", "players": 2, "picture": "h"}),
)


def counted(profile_name: str, args: dict[str, object], journal_path: str) -> Counter[str]:
    """The checks and rules objects one web ``new_game`` with ``args`` costs."""
    profile = load_profile(profile_name)
    board = VirtualBoard.from_profile(profile, buttons=("ok", "back"))
    runtime = Runtime(Core(profile), inputs=board, pixels=VirtualPixels(profile.leds.length),
                      journal=Journal(journal_path), notifier=Notifier({}))
    app = build_app(runtime, profile, board=board, defaults=GameDefaults())
    counts: Counter[str] = Counter()
    check, make = GameSpec.options, GameSpec.make

    def options(spec, *a, **kw):
        counts["checks"] += 1
        return check(spec, *a, **kw)

    def rules(spec, *a, **kw):
        counts["rules objects"] += 1
        return make(spec, *a, **kw)

    async def main() -> None:
        runtime.start()
        client = TestClient(TestServer(app))
        await client.start_server()
        try:
            with mock.patch.object(GameSpec, "options", options), mock.patch.object(GameSpec, "make", rules):
                body = json.dumps({"name": "new_game", "args": args})
                response = await client.post("/api/command", data=body)
                assert response.status == 202, await response.text()
                for _ in range(250):
                    state = json.loads(await (await client.get("/api/state")).text())["state"]
                    if state["game"] == args["game"]:
                        break
                    await asyncio.sleep(0.02)
                else:
                    raise AssertionError(f"the game never started: {state}")
        finally:
            await client.close()
            runtime.stop()

    asyncio.run(main())
    return counts


def lookups_per_handle() -> tuple[int, int]:
    """``Core.handle`` calls over every tape, and the ``games.get`` calls they (and the tapes'
    starts) made."""
    from pathlib import Path

    from controller import games
    from controller.commands.replay import core_for, start
    from controller.tape import read_tape

    calls, handles, get = [0], 0, games.get

    def counted_get(name: str) -> games.GameSpec:
        calls[0] += 1
        return get(name)

    tapes = Path(__file__).resolve().parents[1] / "tests" / "data" / "tapes"
    with mock.patch.object(games, "get", counted_get):
        for path in sorted(tapes.glob("*.jsonl")):
            tape = read_tape(path)
            core = core_for(tape.header)
            start(core, tape.header)
            for event in tape.events:
                core.handle(event)
                handles += 1
    return handles, calls[0]


def main() -> None:
    import tempfile
    print(f"{'game':<12} {'checks':>6} {'rules objects':>14}")
    with tempfile.TemporaryDirectory() as folder:
        for index, (profile, args) in enumerate(REQUESTS):
            counts = counted(profile, args, f"{folder}/journal-{index}.jsonl")
            print(f"{args['game']:<12} {counts['checks']:>6} {counts['rules objects']:>14}")
    handles, lookups = lookups_per_handle()
    print(f"registry lookups over the tapes: {lookups} in {handles} Core.handle calls ({lookups / handles:.2f} a call)")


if __name__ == "__main__":
    main()
