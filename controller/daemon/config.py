"""The daemon's config file (TOML): which profile, game defaults, brightness, where the journal
and tape go, and the web console.

Every key is optional; a missing file section takes the defaults below. A wrong value raises
:class:`~controller.errors.ConfigError` naming the file, the key, the value and what is allowed,
so the daemon refuses to start instead of half-starting.

Example (``/etc/pentago-board/config.toml``)::

    profile = "B-6x6"

    [game]
    game = "classic"      # a game of the registry (controller.games): classic, multiplayer, teams
    computer = false      # which seats the computer plays: false (none), true (seat 2) or a
                          # list such as [1] or [1, 2] (games the computer plays: classic)
    level = 2             # the computer's level when a new game names none: 0 beginner, 1 easy,
                          # 2 normal, 3 strong (a new_game command's "level" overrides it)
    match = true          # classic: best of five (the other games take their own defaults)
    practice = false      # Picture-Puzzle: one child practises, the computer dismantles at
                          # the level above (0-3)
    engine = "auto"       # the classic computer's search: auto (compiled when the fast extra
                          # is installed), python or compiled

    [lights]
    brightness = 0.4      # 0.0 to 1.0, on top of the profile's cap

    [storage]
    journal = "/var/lib/pentago-board/journal.jsonl"
    tape = ""             # empty: no tape; else a path to record the physical input to

    [web]
    enabled = false
    bind = "127.0.0.1"    # any other address needs a token
    port = 8080
    token = ""            # or set PENTAGO_BOARD_TOKEN (it wins); empty with a public bind:
                          # one is made up once and kept in web-token beside the journal

    [mqtt]                # publishing to an MQTT broker (needs the mqtt extra); see docs/operate.md
    enabled = false
    host = "localhost"    # the broker
    port = 1883           # 1 to 65535 (8883 is the usual TLS port)
    board = ""            # this board's name in topics: letters, digits, - and _, at most 32;
                          # empty: the machine's host name, made to fit
    prefix = "pentago-board"  # the topic tree: <prefix>/<board>/state, event, status, command
    tls = false           # true: TLS, checking the broker's certificate
    ca_file = ""          # TLS: the CA file that signed the broker's certificate (empty: the system's)
    username = ""         # empty: no login
    password = ""         # only with a username
    discovery = true      # Home Assistant MQTT discovery under discovery_prefix
    discovery_prefix = "homeassistant"
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..ai import DEFAULT_LEVEL, ENGINES, LEVELS, engine_in_use
from ..checks import among, is_whole, key_hint, read_toml, within
from ..errors import ConfigError, shown
from ..files import check_path
from ..games import DEFAULT, NAMES, OptionError, get
from ..games.spec import LEVEL_WORDS

SECTIONS = {
    "game": ("game", "computer", "match", "level", "practice", "engine"),
    "lights": ("brightness",),
    "storage": ("journal", "tape"),
    "web": ("enabled", "bind", "port", "token"),
    "mqtt": ("enabled", "host", "port", "board", "prefix", "tls", "ca_file", "username", "password",
             "discovery", "discovery_prefix"),
}
DEFAULT_JOURNAL = "/var/lib/pentago-board/journal.jsonl"
MAX_CONFIG_BYTES = 1024 * 1024  # a config is a few hundred bytes


@dataclass(frozen=True)
class GameDefaults:
    """The game a fresh board starts (and the web console's preselection); its options are the
    registry's to check (:mod:`controller.games`)."""

    game: str = DEFAULT
    computer: bool | list[int] = False  # the seats the computer plays (the registry checks them)
    match: bool = False
    level: int = DEFAULT_LEVEL  # the computer's level for games that name none (the runtime's)
    practice: bool = False  # Picture-Puzzle practice: 1 player, the computer dismantles at ``level``
    engine: str = "auto"  # the classic computer's search (controller.ai.compiled.ENGINES)

    def command_args(self) -> dict[str, object]:
        """The arguments of a ``new_game`` command starting this game: its complete options
        (the game's own defaults for what the config does not set). Practice names the level:
        its dismantle is planned on the core, which records the level it plans with."""
        args: dict[str, object] = {"game": self.game, "computer": self.computer, "match": self.match}
        if self.practice:
            if get(self.game).choice("practice") is None:
                raise OptionError(f"practice true: {get(self.game).title} has no practice (Picture-Puzzle has)")
            args.update(practice=True, players=1, level=self.level)
        return dict(get(self.game).options(args))


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = False
    bind: str = "127.0.0.1"
    port: int = 8080
    token: str = ""
    token_from: str = ""  # where the token came from, for the log (which never shows the token)

    @property
    def is_local(self) -> bool:
        """True when only this machine can reach the console (no token needed)."""
        return self.bind == "localhost" or ipaddress.ip_address(self.bind).is_loopback


TOPIC_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a board name or prefix: one topic level, no wildcards
HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)")  # one label of a host name (RFC 1123, and _)
MAX_HOST_CHARS = 253


@dataclass(frozen=True)
class MqttConfig:
    """Where the board publishes (see controller.daemon.mqtt); ``board`` is never empty once
    parsed (the host name stands in)."""

    enabled: bool = False
    host: str = "localhost"
    port: int = 1883
    board: str = ""
    prefix: str = "pentago-board"
    tls: bool = False
    ca_file: str = ""
    username: str = ""
    password: str = field(default="", repr=False)  # never in a log line or a traceback
    discovery: bool = True
    discovery_prefix: str = "homeassistant"


def board_name(host_name: str) -> str:
    """A topic-safe board name from a host name: other characters become ``-``, at most 32.

    >>> board_name("Pi 4.local")
    'Pi-4-local'
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", host_name)[:32] or "board"


@dataclass(frozen=True)
class Config:
    profile: str = "virtual-6x6"
    game: GameDefaults = field(default_factory=GameDefaults)
    brightness: float = 1.0
    journal: Path = Path(DEFAULT_JOURNAL)
    tape: Path | None = None
    web: WebConfig = field(default_factory=WebConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    source: str = "<defaults>"  # the file it came from, for messages

    def with_web(self, **changes: Any) -> Config:
        return replace(self, web=replace(self.web, **changes))


def is_token(text: str) -> bool:
    """True for a usable console token (or none): printable ASCII without spaces, as it goes
    into an address and a header."""
    return all("!" <= c <= "~" for c in text)


def load_config(path: str | Path | None) -> Config:
    """Read and check the config at ``path``; ``None`` gives the defaults.

    Raises ConfigError for a missing or unparsable file and for any bad key or value.
    """
    if path is None:
        return Config()
    return parse_config(read_toml(path, MAX_CONFIG_BYTES, f"config {path}", ConfigError), source=str(path))


def parse_config(data: dict[str, Any], source: str = "<config>") -> Config:
    """Check a parsed TOML table and build the Config; see the module docstring for the keys."""
    check = _Checker(source)
    check.known_keys(data, "", ("profile", *SECTIONS))
    for section, keys in SECTIONS.items():
        check.known_keys(check.table(data, section), f"{section}.", keys)
    game, lights = check.table(data, "game"), check.table(data, "lights")
    storage, web = check.table(data, "storage"), check.table(data, "web")
    tape = check.path(storage, "storage.tape", "")
    return Config(
        profile=check.path(data, "profile", Config.profile, allow_empty=False),
        game=_game_defaults(check, game),
        brightness=check.number(lights, "lights.brightness", 1.0, 0.0, 1.0),
        journal=Path(check.path(storage, "storage.journal", DEFAULT_JOURNAL, allow_empty=False)),
        tape=Path(tape) if tape else None,
        web=_web_config(check, web),
        mqtt=_mqtt_config(check, check.table(data, "mqtt")),
        source=source,
    )


def _game_defaults(check: _Checker, game: dict[str, Any]) -> GameDefaults:
    defaults = GameDefaults(
        game=check.choice(game, "game.game", DEFAULT, NAMES),
        computer=check.seats(game, "game.computer"),
        match=check.boolean(game, "game.match", False),
        level=check.level(game, "game.level"),
        practice=check.boolean(game, "game.practice", False),
        engine=check.choice(game, "game.engine", "auto", ENGINES),
    )
    try:
        engine_in_use(defaults.engine)
    except ValueError as error:  # compiled without the fast extra
        raise ConfigError(f"config {check.source}: [game] engine = \"compiled\": {error}") from None
    try:
        defaults.command_args()
    except OptionError as error:
        raise ConfigError(f"config {check.source}: [game] {error}") from None
    return defaults


def _web_config(check: _Checker, web: dict[str, Any]) -> WebConfig:
    return WebConfig(
        enabled=check.boolean(web, "web.enabled", False),
        bind=check.address(web, "web.bind", "127.0.0.1"),
        port=check.integer(web, "web.port", 8080, 1, 65535),
        token=check.token(web, "web.token"),
    )


def _mqtt_config(check: _Checker, mqtt: dict[str, Any]) -> MqttConfig:
    username = check.text(mqtt, "mqtt.username", "")
    password = check.text(mqtt, "mqtt.password", "")
    if password and not username:
        raise check.fail("mqtt.password", "<hidden>", "a password only with mqtt.username")
    tls, ca_file = check.boolean(mqtt, "mqtt.tls", False), check.path(mqtt, "mqtt.ca_file", "")
    if ca_file and not tls:
        raise check.fail("mqtt.ca_file", ca_file, "a CA file only with mqtt.tls = true")
    return MqttConfig(
        enabled=check.boolean(mqtt, "mqtt.enabled", False),
        host=check.host_name(mqtt, "mqtt.host", "localhost"),
        port=check.integer(mqtt, "mqtt.port", 1883, 1, 65535),
        board=check.topic_name(mqtt, "mqtt.board", "") or board_name(socket.gethostname()),
        prefix=check.topic_name(mqtt, "mqtt.prefix", "pentago-board"),
        tls=tls,
        ca_file=ca_file,
        username=username,
        password=password,
        discovery=check.boolean(mqtt, "mqtt.discovery", True),
        discovery_prefix=check.topic_name(mqtt, "mqtt.discovery_prefix", "homeassistant"),
    )


class _Checker:
    """Reads typed values from TOML tables; every complaint names the file and the key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, value: object, allowed: str) -> ConfigError:
        return ConfigError(f"config {self.source}: {key} = {shown(value)} is not allowed; expected {allowed}",
                           self.source, key)

    def known_keys(self, table: dict[str, Any], prefix: str, keys: tuple[str, ...]) -> None:
        for key in table:
            if key not in keys:
                name = key if len(key) <= 80 else key[:77] + "..."  # a key may be a megabyte long
                raise ConfigError(f"config {self.source}: unknown key {prefix}{name}; {key_hint(key, keys, prefix)}",
                                  self.source, prefix + name)

    def table(self, data: dict[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, value, "a table ([" + key + "])")
        return value

    def text(self, table: dict[str, Any], key: str, default: str, allow_empty: bool = True) -> str:
        value = table.get(key.rpartition(".")[2], default)
        if not isinstance(value, str) or (not value and not allow_empty):
            raise self.fail(key, value, "a non-empty string" if not allow_empty else "a string")
        return value

    def path(self, table: dict[str, Any], key: str, default: str, allow_empty: bool = True) -> str:
        """A file's path (or a profile's name): text no file name can hold is refused here."""
        value = self.text(table, key, default, allow_empty)
        try:
            check_path(value)
        except OSError as error:
            raise self.fail(key, value, f"a path ({error.strerror})") from None
        return value

    def token(self, table: dict[str, Any], key: str) -> str:
        value = self.text(table, key, "")
        if not is_token(value):
            raise self.fail(key, "<hidden>", "letters, digits and punctuation, without spaces")
        return value

    def boolean(self, table: dict[str, Any], key: str, default: bool) -> bool:
        value = table.get(key.rpartition(".")[2], default)
        if not isinstance(value, bool):
            raise self.fail(key, value, "true or false")
        return value

    def seats(self, table: dict[str, Any], key: str) -> bool | list[int]:
        value = table.get(key.rpartition(".")[2], False)
        if not isinstance(value, bool) and not (isinstance(value, list) and all(map(is_whole, value))):
            raise self.fail(key, value, "true (seat 2), false (none) or a list of seats such as [1, 2]")
        return value

    def integer(self, table: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
        value = table.get(key.rpartition(".")[2], default)
        if not within(value, low, high, whole=True):
            raise self.fail(key, value, f"a whole number from {low} to {high}")
        return int(value)

    def number(self, table: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
        value = table.get(key.rpartition(".")[2], default)
        if not within(value, low, high):
            raise self.fail(key, value, f"a number from {low} to {high}")
        return float(value)

    def level(self, table: dict[str, Any], key: str) -> int:
        value = table.get(key.rpartition(".")[2], DEFAULT_LEVEL)
        if not among(value, LEVELS):
            raise self.fail(key, value, f"a level of the computer opponent: {LEVEL_WORDS}")
        return int(value)

    def choice(self, table: dict[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
        value = table.get(key.rpartition(".")[2], default)
        if not among(value, allowed):
            raise self.fail(key, value, "one of " + ", ".join(allowed))
        return str(value)

    def topic_name(self, table: dict[str, Any], key: str, default: str) -> str:
        """One level of an MQTT topic (empty only where ``default`` is empty: "choose for me")."""
        value = self.text(table, key, default)
        if value != default and not TOPIC_NAME.fullmatch(value):
            raise self.fail(key, value, "letters, digits, - and _ (1 to 32 of them)")
        return value

    def host_name(self, table: dict[str, Any], key: str, default: str) -> str:
        """An IP address or a host name that can be looked up: one the resolver refuses (a label
        over 63 characters, an empty one) would fail at every connection attempt, for ever."""
        value = self.text(table, key, default, allow_empty=False)
        if _is_ip(value):
            return value
        try:
            ascii_name = value.rstrip(".").encode("idna").decode("ascii")  # a name in any script
        except UnicodeError:
            ascii_name = ""
        if not ascii_name or len(ascii_name) > MAX_HOST_CHARS or not all(
                HOST_LABEL.fullmatch(label) for label in ascii_name.split(".")):
            raise self.fail(key, value, "an IP address or a host name: labels of 1 to 63 letters, digits "
                                        f"and hyphens between dots, at most {MAX_HOST_CHARS} characters")
        return value

    def address(self, table: dict[str, Any], key: str, default: str) -> str:
        value = self.text(table, key, default, allow_empty=False)
        if value != "localhost" and not _is_ip(value):
            raise self.fail(key, value, "an IP address such as 127.0.0.1, 0.0.0.0 or ::1, or localhost")
        return value


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
