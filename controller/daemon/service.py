"""Start-up and shut-down: config -> profile -> journal -> core -> drivers -> runtime -> web -> MQTT.

The main thread runs an asyncio loop for the web console, the MQTT bridge, the signals and the
watch on the core thread (:mod:`.health`: a core thread that is gone ends the daemon with exit
status 1, for systemd to restart it); the core runs on the runtime's thread. SIGTERM (and Ctrl-C) let the core finish the event in hand, including its
journal write, then exit 0; SIGHUP re-reads the config and applies what can change live (the
brightness), logging which other changes need a restart. READY=1 goes to systemd once the
drivers and the web console are up.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import secrets
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import ConfigError, PentagoError, TapeError
from ..games import Catalogue, PictureStore
from ..files import read_bounded
from ..journal import Journal
from ..profile import Profile, load_profile
from . import health
from .config import Config, is_token, load_config
from .logs import event as log
from .notify import Notifier
from .runtime import Reload, Runtime
from .signals import LoopSignals

EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2
VIRTUAL_BUTTONS = ("ok", "back")  # the simulator's own buttons when the profile names none
TOKEN_ENV = "PENTAGO_BOARD_TOKEN"  # the console's token, kept off the command line
TOKEN_FILE = "web-token"  # a made-up token, beside the journal
MAX_TOKEN_BYTES = 4096  # a token is 22 characters
PICTURES_DIR = "pictures"  # the user pictures saved from the board, beside the journal
TAPE_HINT = "a new tape moves only an earlier tape aside: name a path for the tapes alone"
DISK_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO)  # the disk, not a setting


@dataclass
class Daemon:
    """The parts of a running daemon, built by :func:`build` and run by :func:`serve`."""

    config: Config
    profile: Profile
    runtime: Runtime
    board: Any = None  # the VirtualBoard, when the profile is virtual
    config_path: Path | None = None
    urls: list[str] = field(default_factory=list)
    mqtt: Any = None  # the MQTT bridge, when [mqtt] is enabled


def build(config: Config, notifier: Notifier, config_path: Path | None = None, *, lay_out: bool = False) -> Daemon:
    """Build every part from ``config``; raises PentagoError (ConfigError, ProfileError,
    DriverUnavailable) with a message for the user. ``lay_out``: the simulator's virtual board
    starts with a resumed game's marbles (``pentago-board run`` on the virtual profile starts
    it empty, as the tests of a board found cleared after a power cut want)."""
    from ..drivers.factory import build_inputs, build_pixels
    from .resume import core_from_journal, sensed_by

    profile = load_profile(config.profile)
    journal = Journal(config.journal)
    # The board's games read its picture library (the runtime writes to it, off the core thread):
    # the core, a resumed game, the menu and the web and MQTT checks all see the saved pictures.
    games = Catalogue(PictureStore(Path(config.journal).parent / PICTURES_DIR))
    clock = time.monotonic
    core = core_from_journal(profile, journal, clock(), games=games)

    def rebuild(old: Any, fresh: bool) -> Any:  # the runtime's: after a fault, or a write that failed
        return core_from_journal(profile, journal, clock(), sensed=sensed_by(old), fresh=fresh, games=games)

    overrides: dict[str, Any] = {"buttons": VIRTUAL_BUTTONS} if profile.driver == "virtual" and not profile.buttons else {}
    inputs = build_inputs(profile, **overrides)
    runtime = Runtime(core, inputs=inputs, pixels=build_pixels(profile), journal=journal, rebuild=rebuild,
                      notifier=notifier, tape=_tape(config, profile, clock(), core), clock=clock,
                      brightness=config.brightness, level=config.game.level, engine=config.game.engine,
                      games=games)
    board = inputs if profile.driver == "virtual" else None
    if board is not None and lay_out:
        _lay_out(board, core)
    log("resumed" if core.resume.used else "fresh start", profile=profile.name, journal=config.journal,
        records=core.resume.used)
    return Daemon(config, profile, runtime, board, config_path, mqtt=_mqtt(config, runtime, profile.size))


def _lay_out(board: Any, core: Any) -> None:
    """A resumed game on the virtual board: its marbles go back where the game has them, as a
    real board keeps them through a power cut (else every marble came back through repair)."""
    flow = core.flow
    if flow.game is None:
        return
    position = flow.expected()
    for hole in range(position.geometry.hole_count):
        colour = position.colour_at(hole)
        if colour is not None:
            board.place(hole, flow.colours[colour])


def _mqtt(config: Config, runtime: Runtime, size: int | None = None) -> Any:
    """The MQTT bridge when [mqtt] is enabled (its client library is the mqtt extra)."""
    if not config.mqtt.enabled:
        return None
    try:
        from .mqtt.bridge import Bridge
    except ImportError as exc:
        raise ConfigError(f"mqtt.enabled = true needs the MQTT client ({exc.name} is missing): "
                          "pip install 'pentago-board[mqtt]'") from None
    return Bridge(config.mqtt, runtime, config.game.command_args(), size)


def kept_from_tapes(config: Config) -> dict[str, Path]:
    """The daemon's own files a tape must never be recorded over (see tape_path_problem)."""
    return {"the journal": config.journal, "the journal's temporary file": Journal(config.journal).temporary}


def _tape(config: Config, profile: Profile, t0: float, core: Any) -> Any:
    if config.tape is None:
        return None
    from ..tape import TapeHeader, TapeRecorder

    header = TapeHeader(profile.size, profile.sensing, profile.detents_per_quarter,
                        options={"colours": list(profile.colours.values())} if profile.colours else {})
    try:
        recorder = TapeRecorder(config.tape, header, t0=t0, keep=kept_from_tapes(config))
    except TapeError as exc:
        raise ConfigError(f"storage.tape = {str(config.tape)!r}: {exc}; {TAPE_HINT}") from None
    except OSError as exc:
        if exc.errno in DISK_ERRNOS:  # the disk now, not the setting: the board plays unrecorded
            log("tape not recording: its disk takes no writes; the board plays on", logging.ERROR,
                path=config.tape, error=exc.strerror)
            core.tell(f"the tape is not recording ({exc.strerror}); the game is not affected")
            return None
        raise ConfigError(f"storage.tape = {str(config.tape)!r}: cannot write it ({exc.strerror})") from exc
    log("recording tape", path=config.tape)
    return recorder


async def serve(daemon: Daemon, on_listening: Callable[[list[str]], None] | None = None) -> int:
    """Run until SIGTERM or SIGINT; returns the exit status."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = LoopSignals(loop, {signal.SIGTERM: stop.set, signal.SIGINT: stop.set,
                                 signal.SIGHUP: lambda: reload(daemon)})
    try:
        return await _serve_until(daemon, stop, on_listening)
    finally:
        signals.close()


async def _serve_until(daemon: Daemon, stop: asyncio.Event,
                       on_listening: Callable[[list[str]], None] | None) -> int:
    runtime = daemon.runtime
    runtime.start()
    runner = await _start_web(daemon, announced=on_listening is not None) if daemon.config.web.enabled else None
    if daemon.config.mqtt.enabled:
        daemon.mqtt.start()  # connects in the background: a missing broker never holds up the board
    if on_listening is not None:
        on_listening(daemon.urls)
    runtime.notifier.ready(status="board live")
    log("board live", profile=daemon.profile.name, watchdog_s=runtime.notifier.watchdog_s or "off")
    watching = asyncio.create_task(health.watch(runtime, stop), name="health")  # sets stop if the core dies
    await stop.wait()
    await watching
    log("stopping")
    if daemon.config.mqtt.enabled:
        await daemon.mqtt.stop()
    if runner is not None:
        await runner.cleanup()  # closes the pages' WebSockets first (see web/app.py)
    runtime.stop()
    for part in (runtime.journal, runtime.tape):
        close = getattr(part, "close", None)
        if close is not None:
            close()
    return EXIT_FAILED if runtime.failed else EXIT_OK


async def _start_web(daemon: Daemon, announced: bool = False) -> Any:
    """The web console, listening; ``announced``: its address (with the token) goes to the
    terminal, so the log names no address of its own (one address on the screen, never two)."""
    from aiohttp import web

    from .web.app import SHUTDOWN_TIMEOUT_S, build_app
    from .web.refusals import RefusalLog

    web_config = daemon.config.web
    app = build_app(daemon.runtime, daemon.profile, board=daemon.board, token=web_config.token,
                    defaults=daemon.config.game, bind=web_config.bind)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=SHUTDOWN_TIMEOUT_S,
                           logger=RefusalLog())  # malformed HTTP: one short line per client a minute
    await runner.setup()
    try:
        await web.TCPSite(runner, web_config.bind, web_config.port).start()
    except OSError as exc:
        await runner.cleanup()
        daemon.runtime.stop()
        raise ConfigError(f"web.port = {web_config.port}: cannot listen on {web_config.bind} "
                          f"({exc.strerror}); choose another port (sim: --port N, 0 for any)") from exc
    addresses = [f"http://{_host(host)}:{port}/" for host, port, *_ in runner.addresses]
    query = f"?token={quote(web_config.token, safe='')}" if web_config.token else ""
    daemon.urls = [address + query for address in addresses]  # for the terminal only, never the log
    if announced:
        log("web console", port=runner.addresses[0][1], token=_token_source(daemon.config))
    else:
        log("web console", url=" ".join(addresses), token=_token_source(daemon.config))
    return runner


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _token_source(config: Config) -> str:
    """Where to find the console's token, for the log line (which never shows the token)."""
    return config.web.token_from or ("set" if config.web.token else "none")


def reload(daemon: Daemon) -> None:
    """SIGHUP: apply the new brightness and the computer's level; name what else changed and
    needs a restart."""
    if daemon.config_path is None:
        log("reload: no config file to read; nothing to do")
        return
    try:
        new = with_token(load_config(daemon.config_path))
    except ConfigError as exc:
        log("reload refused; keeping the running config", logging.ERROR, error=exc)
        return
    applied = replace(new, game=replace(new.game, level=daemon.config.game.level))  # the level is applied
    changed = [name for name in ("profile", "game", "journal", "tape", "web", "mqtt")
               if getattr(applied, name) != getattr(daemon.config, name)]
    if changed:
        log("reload: restart the service to apply", logging.WARNING, changed=",".join(changed))
    daemon.runtime.put(Reload(new.brightness, new.game.level))


def with_token(config: Config, environ: Mapping[str, str] = os.environ) -> Config:
    """The config with the console's token: ``PENTAGO_BOARD_TOKEN`` when set, else web.token.
    A console reachable from other machines with neither gets one made once and kept, readable
    by the service's user only, in ``web-token`` beside the journal (never in the log, never
    on a command line where the process list would show it)."""
    token = environ.get(TOKEN_ENV, "").strip()
    if token:
        if not is_token(token):
            raise ConfigError(f"{TOKEN_ENV}: not a usable token; use letters, digits and "
                              "punctuation, without spaces")
        return config.with_web(token=token, token_from=TOKEN_ENV)
    if config.web.token:
        return config.with_web(token_from=f"web.token in {config.source}")
    if config.web.enabled and not config.web.is_local:
        path = config.journal.parent / TOKEN_FILE
        return config.with_web(token=_kept_token(path), token_from=str(path))
    return config


def _kept_token(path: Path) -> str:
    """The token kept in ``path``, made (and kept) first if there is none."""
    try:
        kept = read_bounded(path, MAX_TOKEN_BYTES).decode("ascii").strip() if path.exists() else ""
        if kept and is_token(kept):
            return kept
        path.parent.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(16)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(token + "\n")
        return token
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"the web console listens beyond this machine, so it needs a token, "
                          f"and cannot keep one in {path} ({exc}); set web.token or {TOKEN_ENV}") from exc


def under_journald(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """True when stderr goes to the journal (systemd sets JOURNAL_STREAM for it)."""
    return bool(environ.get("JOURNAL_STREAM"))


def start(config: Config, config_path: Path | None,
          on_listening: Callable[[list[str]], None] | None = None, *, lay_out: bool = False) -> int:
    """Build and serve the daemon; user errors are printed and give exit status 2 (config,
    profile) or 1 (drivers, web port)."""
    try:
        daemon = build(config, Notifier(), config_path, lay_out=lay_out)
        return asyncio.run(serve(daemon, on_listening))
    except ConfigError as exc:
        log("cannot start", logging.ERROR, error=exc)
        return EXIT_CONFIG
    except PentagoError as exc:
        log("cannot start", logging.ERROR, error=exc)
        return EXIT_CONFIG if isinstance(exc, ValueError) else EXIT_FAILED
