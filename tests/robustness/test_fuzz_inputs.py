"""Fuzz of every file a user hands the product: the daemon config, hardware profiles and tapes
(issue 9, "Keep attacking").

Each input is arbitrary bytes, a shipped file with bytes spliced in and lines dropped, swapped
or cut, or a well-formed file with one value replaced by anything TOML or JSON can hold. Loading
it gives the value or the module's own error (ConfigError, ProfileError, TapeError); the commands
that read it exit 0, 1 or 2, with a ``pentago-board <command>: ...`` message on exit 2. Anything
else escapes ``main`` and fails the test with its traceback. Each test prints how many inputs
it ran (``pytest -s`` shows the figures); bench/robustness/fuzz_inputs.py runs it longer.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.cli import main
from controller.commands.replay import replay
from controller.daemon.config import load_config
from controller.errors import ConfigError, ProfileError, TapeError
from controller.profile import PROFILE_DIR, load_profile
from controller.tape import read_tape

ROOT = Path(__file__).resolve().parents[2]
CONFIG_SEED = (ROOT / "systemd" / "config.toml").read_bytes()
PROFILE_SEEDS = [path.read_bytes() for path in sorted(PROFILE_DIR.glob("*.toml"))]
TAPE_SEEDS = [path.read_bytes() for path in sorted((ROOT / "tests" / "data" / "tapes").glob("*.jsonl"))]
# bench/robustness/fuzz_inputs.py runs this file with PENTAGO_FUZZ_SCALE > 1: more inputs, and
# fresh random ones each run; the suite's run is the same every time.
SCALE = float(os.environ.get("PENTAGO_FUZZ_SCALE", "1"))
LOADER_EXAMPLES = int(400 * SCALE)  # per loader; enough to reach the deep-nesting and long-number inputs
COMMAND_EXAMPLES = int(120 * SCALE)  # per command: the commands add their handling to the loaders

# Byte strings that have broken parsers before: bad UTF-8, NULs, deep nesting, numbers too long
# or too large for Python, TOML and JSON punctuation, line endings.
NASTY = [
    b"\xff", b"\xe9", b"\xed\xa0\x80", b"\x00", b"\r", b"\n", b"\t", b"\\", b'"', b"'", b"=", b"#",
    b"[", b"]", b"{", b"}", b",", b":", b"[" * 100_000, b"{" * 3000, b"a = " + b"[" * 100_000,
    b"a = " + b"{a=" * 100_000, b'{"t": ' + b"[" * 100_000, b'{"t": 1' + b"0" * 5000 + b"}", b"9" * 5000, b"-" + b"9" * 30, b"1e400", b"-1e400", b"NaN", b"nan",
    b"inf", b"Infinity", b"true", b"null", b"0x7fffffff", b"1979-05-27T07:32:00Z", b"\\u0000",
    b"\\ud800", "\u00e9\u2603\U0001f600".encode(), b"[[leds.chain]]", b"[web]", b"[[x]]",
    b'"' + b"a" * 20000 + b'"', b"\xef\xbb\xbf",
]
# Values a decoded TOML or JSON document may hold, to put anywhere in a well-formed one.
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
    st.sampled_from(["a1", "f6", "i9", "z9", "serpentine", "1R", "9L", "white", "GRB", "spi",
                     "classic", "chess", "6x6", "9x9", "presence", "polarity", "marble", "empty",
                     "unsure", "ok", "up", "B-6x6", "virtual-6x6", "", "127.0.0.1", "::1",
                     "b" * 5000]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)
# Value spellings no JSON or TOML writer makes: nesting past the recursion limit, numbers past
# Python's conversion limit or a float's range, bytes that are not UTF-8.
RAW_VALUES = [b"[" * 100_000, b"9" * 5000, b"-" + b"9" * 5000, b"1e400", b'"\xff"', b'"\xed\xa0\x80"']
RAW_JSON = st.sampled_from(RAW_VALUES + [b"{" * 100_000, b'{"a": ' * 100_000, b"NaN", b"-Infinity"])
RAW_TOML = st.sampled_from(RAW_VALUES + [b"{a=" * 100_000, b"[[" * 50_000, b"nan", b"-inf"])
RAW = "\x00raw value\x00"  # stands for a RAW_JSON value until the line is written
# TOML spellings of values, for the config (no TOML writer ships with Python).
TOML_VALUES = st.one_of(
    st.sampled_from(['""', '"B-6x6"', '"virtual-9x9"', '"A-6x6"', "true", "false", "0", "-1",
                     "65536", "0.5", "1.5", "nan", "inf", "[]", "{}", "[1, 2]", '{a = 1}',
                     "1979-05-27", "07:32:00", '"/nonexistent/journal.jsonl"', '"localhost"',
                     '"0.0.0.0"', '"::1"', '"my-pi"', "'''x'''", '"' + "b" * 5000 + '"']),
    RAW_TOML.map(lambda raw: raw.decode("utf-8", "surrogateescape")),
    st.integers().map(str), st.floats(allow_nan=False).map(repr).filter(lambda s: "e" not in s),
    st.text(max_size=10).map(json.dumps),
)
CONFIG_KEYS = {"": ["profile"], "game": ["game", "computer", "match"], "lights": ["brightness"],
               "storage": ["journal", "tape"], "web": ["enabled", "bind", "port", "token"]}


@st.composite
def spliced(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A seed file with a few byte splices and line edits."""
    data = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        lines = data.split(b"\n")
        edit = draw(st.sampled_from(["splice", "drop", "swap", "repeat", "cut"]))
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        if edit == "splice":
            at = draw(st.integers(0, len(data)))
            gap = draw(st.integers(0, 12))
            data = data[:at] + draw(st.sampled_from(NASTY) | st.binary(max_size=8)) + data[at + gap:]
            continue
        if edit == "drop":
            del lines[i]
        elif edit == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif edit == "repeat":
            lines.insert(j, lines[i])
        else:
            lines = lines[:i] + [lines[i][: draw(st.integers(0, len(lines[i])))]]
        data = b"\n".join(lines)
    return data


@st.composite
def tape_edits(draw: st.DrawFn) -> bytes:
    """A recorded tape with one value of one line (the header or an event) replaced."""
    lines = [json.loads(line) for line in draw(st.sampled_from(TAPE_SEEDS)).splitlines() if line.strip()]
    n = draw(st.integers(0, len(lines) - 1))
    keys = sorted(lines[n]) + ["extra"]
    key = draw(st.sampled_from(keys))
    action = "set" if key == "extra" else draw(st.sampled_from(["raw", "set", "raw", "delete"]))
    if action == "delete":
        del lines[n][key]
    else:
        lines[n][key] = draw(VALUES) if action == "set" else RAW
    text = "\n".join(json.dumps(line) for line in lines).encode("utf-8", "surrogatepass")
    return text.replace(json.dumps(RAW).encode(), draw(RAW_JSON))


@st.composite
def toml_edits(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A shipped TOML file with the value of one ``key = value`` line replaced."""
    lines = draw(st.sampled_from(seeds)).split(b"\n")
    keyed = [i for i, line in enumerate(lines) if b" = " in line and not line.startswith(b"#")]
    i = draw(st.sampled_from(keyed))
    value = draw(TOML_VALUES).encode("utf-8", "surrogateescape")
    lines[i] = lines[i].split(b" = ")[0] + b" = " + value
    return b"\n".join(lines)


@st.composite
def config_texts(draw: st.DrawFn) -> bytes:
    """A config TOML built key by key, each value well-formed or not, sometimes a stray key."""
    out = []
    for section, keys in CONFIG_KEYS.items():
        chosen = draw(st.lists(st.sampled_from(keys + ["stray"]), unique=True, max_size=len(keys) + 1))
        if section:
            out.append(f"[{section}]")
        out += [f"{key} = {draw(TOML_VALUES)}" for key in chosen]
    return "\n".join(out).encode("utf-8", "surrogateescape")


ANY_BYTES = st.binary(max_size=300)
CONFIGS = st.one_of(ANY_BYTES, spliced([CONFIG_SEED]), config_texts(), toml_edits([CONFIG_SEED]))
PROFILES = st.one_of(ANY_BYTES, spliced(PROFILE_SEEDS), toml_edits(PROFILE_SEEDS))
TAPES = st.one_of(ANY_BYTES, spliced(TAPE_SEEDS), tape_edits())
# A message quotes the bad value cut short, never the whole input.
MESSAGE_CHARS = 600
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


class Figures:
    """Counts the inputs a test ran and how each ended."""

    def __init__(self, name: str, examples: int) -> None:
        self.name, self.examples, self.runs, self.refused = name, examples, 0, 0

    def count(self, refused: bool) -> None:
        self.runs += 1
        self.refused += refused

    def report(self) -> None:
        print(f"\n{self.name}: {self.runs} inputs, {self.refused} refused with a message, "
              f"{self.runs - self.refused} loaded, 0 tracebacks")
        assert self.runs >= self.examples // 2


def loads_or_refuses(load: Callable[[Path], Any], error: type[Exception], data: bytes, figures: Figures,
                     max_chars: int = 10**9) -> Any:
    """``load`` on a file holding ``data``: the value, or None after the module's own error."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.toml"
        path.write_bytes(data)
        try:
            value = load(path)
        except error as exc:
            assert 0 < len(str(exc).strip()) <= max_chars, str(exc)[:2000]
            figures.count(refused=True)
            return None
    figures.count(refused=False)
    return value


def exits_cleanly(data: bytes, figures: Figures, argv: Callable[[Path], list[str]], capsys: Any,
                  max_chars: int) -> None:
    """The command on a file holding ``data``: exit 0, 1 or 2, and a message with exit 2."""
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        path = Path(folder) / "input"
        path.write_bytes(data)
        status = main(argv(path))
    out, err = capsys.readouterr()
    assert status in (0, 1, 2), (status, out, err)
    if status == 2:
        command = argv(path)[0]
        assert err.startswith(f"pentago-board {command}: ") or err.startswith("FAIL  config: "), err
    assert "Traceback" not in out + err
    assert len(err) <= max_chars or status != 2, err[:2000]
    figures.count(refused=status == 2)


def fuzzed(strategy: st.SearchStrategy, check: Callable[..., None], name: str, *args: Any,
           examples: int = LOADER_EXAMPLES) -> None:
    figures = Figures(name, examples)
    run = settings(max_examples=examples, deadline=None, derandomize=SCALE == 1, database=None,
                   suppress_health_check=HEALTH)
    run(given(strategy)(lambda data: check(data, figures, *args)))()
    figures.report()


def _config(data: bytes, figures: Figures) -> None:
    config = loads_or_refuses(load_config, ConfigError, data, figures, MESSAGE_CHARS)
    if config is not None:
        assert 0 <= config.brightness <= 1 and 1 <= config.web.port <= 65535


def _profile(data: bytes, figures: Figures) -> None:
    profile = loads_or_refuses(load_profile, ProfileError, data, figures, MESSAGE_CHARS)
    if profile is not None:
        assert len(profile.leds.hole_pixel) == profile.geometry.hole_count


def _tape(data: bytes, figures: Figures) -> None:
    tape = loads_or_refuses(read_tape, TapeError, data, figures, MESSAGE_CHARS)
    if tape is None:
        return
    try:
        result = replay(tape)
    except TapeError as exc:  # the header's game and options are the core's to refuse
        assert str(exc).startswith("line 1: the header's game cannot start: ")
        return
    assert result["outcome"]["result"] in ("win", "draw", "none")
    assert all(isinstance(t, float) and math.isfinite(t) for t in (e.t for e in tape.events))


def test_config_files_load_or_raise_config_error():
    fuzzed(CONFIGS, _config, "config files")


def test_profile_files_load_or_raise_profile_error():
    fuzzed(PROFILES, _profile, "profile files")


def test_tapes_read_or_raise_tape_error_and_every_readable_tape_replays():
    fuzzed(TAPES, _tape, "tapes")


COMMANDS = {
    "replay": (TAPES, lambda path: ["replay", str(path)], MESSAGE_CHARS),
    "replay --json": (TAPES, lambda path: ["replay", "--json", str(path)], MESSAGE_CHARS),
    "profile": (PROFILES, lambda path: ["profile", str(path)], MESSAGE_CHARS),
    "leds": (PROFILES, lambda path: ["leds", "--profile", str(path), "--step-s", "0"], MESSAGE_CHARS),
    "inputs": (PROFILES, lambda path: ["inputs", str(path), "--seconds", "0"], MESSAGE_CHARS),
    "doctor": (CONFIGS, lambda path: ["doctor", "--config", str(path)], 10**9),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_commands_exit_with_a_message_never_a_traceback(name, capsys):
    strategy, argv, max_chars = COMMANDS[name]
    fuzzed(strategy, exits_cleanly, f"pentago-board {name}", argv, capsys, max_chars, examples=COMMAND_EXAMPLES)


def test_the_inputs_that_broke_the_loaders_are_refused_with_a_message(tmp_path):
    """The inputs that raised RecursionError, ValueError or UnicodeDecodeError before."""
    cases = [
        (load_config, ConfigError, b"profile = " + b"[" * 100_000, "not valid TOML (nested too deeply)"),
        (load_config, ConfigError, b"[web]\nport = 1" + b"0" * 5000, "not valid TOML (Exceeds the limit"),
        (load_profile, ProfileError, b"size = " + b"{a=" * 100_000, "not valid TOML (nested too deeply)"),
        (load_profile, ProfileError, b"# \xff\n", "not UTF-8 text (byte 0xff on line 1)"),
        (read_tape, TapeError, b"[" * 100_000, "line 1: the header is not valid JSON (nested too deeply)"),
        (read_tape, TapeError, b'{"tape": 1' + b"0" * 5000 + b"}",
         "line 1: the header is not valid JSON (Exceeds the limit"),
    ]
    for load, error, data, message in cases:
        path = tmp_path / "input"
        path.write_bytes(data)
        with pytest.raises(error) as caught:
            load(path)
        assert message in str(caught.value), str(caught.value)[:200]


def test_a_tape_message_quotes_a_long_value_cut_short():
    header = '{"tape": 1, "board": "6x6", "sensing": "presence", "detents_per_quarter": 4, "game": "classic"}'
    for event in ('{"t": 1, "hole": "%s", "reading": "marble"}', '{"t": 1, "block": 1, "steps": "%s"}'):
        with pytest.raises(TapeError) as caught:
            read_tape([header, event % ("x" * 5000)])
        assert len(str(caught.value)) < 200 and "...xxx" in str(caught.value)


@pytest.mark.parametrize(("load", "error", "data"), [
    (load_config, ConfigError, b'profile = "virtual-6x6"\n[web]\nbind = "' + b"x" * 5000 + b'"'),
    (load_config, ConfigError, b'brightness = "' + b"x" * 5000 + b'"'),
    (load_profile, ProfileError, b'name = "v"\nsize = "' + b"x" * 5000 + b'"'),
    (load_profile, ProfileError, b'name = "v"\nsize = [' + b"6, " * 2000 + b'6]'),
    # found by the profile fuzz: a button name quoted whole
    (load_profile, ProfileError, (ROOT / "hardware/profiles/A-6x6.toml").read_bytes().replace(
        b'cycle = "back"', b'cycle = "' + b"b" * 5000 + b'"')),
    (lambda path: load_profile("p" * 5000), ProfileError, b""),  # a profile named in a config
])
def test_config_and_profile_messages_quote_a_long_value_cut_short(tmp_path, load, error, data):
    path = tmp_path / "input.toml"
    path.write_bytes(data)
    with pytest.raises(error) as caught:
        load(path)
    assert len(str(caught.value)) < 400, str(caught.value)[:2000]
