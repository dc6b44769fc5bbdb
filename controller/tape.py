"""Tapes: JSON-lines recordings of every physical input, read back for replay and tests.

The format is fixed (issue 4; other tools depend on it). The first line is the header::

    {"tape": 1, "board": "6x6", "sensing": "presence", "detents_per_quarter": 4,
     "game": "classic", "players": 2, "start": [{"hole": "c3", "reading": "marble"}]}

Optional game options ("players", "colours", ...) sit beside the fixed keys; "start" lists the
hole readings present when the tape begins (an empty board otherwise). Then one event per line,
times in seconds from the start, non-decreasing::

    {"t": 1.25, "hole": "b5", "reading": "marble"}
    {"t": 2.5, "block": 4, "steps": 1}
    {"t": 3.0, "button": "ok"}
    {"t": 4.0, "link": "down"}

Presence tapes read "empty" or "marble"; polarity tapes read "empty", a colour name, or
"unsure" (the driver's reading between the bands); colour tapes (the virtual board, which tells
every marble colour apart) read "empty", a colour name, or "marble" (a marble put down with no
colour). The parser and the formatters are a pair:
:func:`read_tape` / :class:`TapeRecorder` round-trip every header and event. Every problem raises
:class:`~controller.errors.TapeError` as ``line N: <problem quoting the value>``,
after the path when reading a file.

>>> tape = read_tape(['{"tape": 1, "board": "6x6", "sensing": "presence",'
...                   ' "detents_per_quarter": 4, "game": "classic"}',
...                   '{"t": 0.5, "hole": "a1", "reading": "marble"}'])
>>> tape.events
[HoleReading(t=0.5, hole=0, reading='marble')]
>>> read_tape(['{"tape": 1, "board": "7x7"}'])
Traceback (most recent call last):
...
controller.errors.TapeError: line 1: "board" is '7x7'; write "6x6" or "9x9"
"""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO, TypeVar

from .checks import is_number, is_whole, within
from .colours import MARBLE_COLOURS
from .errors import NotationError, TapeError, shown
from .events import (
    EMPTY, MARBLE, UNSURE, ButtonPress, EncoderSteps, HoleReading, InputEvent, LinkChange,
)
from .files import read_bounded
from .games import DEFAULT, offered
from .rules import Geometry, geometry, hole_name, parse_hole

log = logging.getLogger(__name__)
T = TypeVar("T")

TAPE_VERSION = 1
MAX_TAPE_BYTES = 64 * 1024 * 1024  # an evening's play is a few MiB
BOARDS = {"6x6": 6, "9x9": 9}
SENSINGS = ("presence", "polarity", "colour")
BUTTONS = ("ok", "back")
LINK_STATES = {"up": True, "down": False}
MAX_HOLE_CHARS = 8  # "b5", "i9", the rulebook's "2/5": anything longer is no hole name
MAX_T = 1e9  # seconds: about 30 years; a larger time (or 1e400, which JSON reads as inf) is garbage
# A polarity tape reads the marble colours of every variant (controller.colours); its header
# may narrow them with "colours".
FIXED_KEYS = ("tape", "board", "sensing", "detents_per_quarter", "game", "start")
EVENT_KEYS = {"hole": ("t", "hole", "reading"), "block": ("t", "block", "steps"),
              "button": ("t", "button"), "link": ("t", "link")}


@dataclass(frozen=True)
class TapeHeader:
    """The first line of a tape: the board, how it senses, and the game being played.

    ``options`` holds the optional game options ("players", "colours", ...) as JSON values;
    ``start`` the (hole index, reading) pairs present when the tape begins.
    """

    size: int
    sensing: str
    detents_per_quarter: int
    game: str = DEFAULT
    options: dict[str, Any] = field(default_factory=dict)
    start: tuple[tuple[int, str], ...] = ()

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size)

    def readings(self) -> tuple[str, ...]:
        """The hole readings this tape's sensing can give."""
        if self.sensing == "presence":
            return (EMPTY, MARBLE)
        if self.sensing == "colour":  # the virtual board: any marble colour, or none given
            return (EMPTY, MARBLE, *self.options.get("colours", MARBLE_COLOURS))
        return (EMPTY, UNSURE, *self.options.get("colours", MARBLE_COLOURS))


@dataclass(frozen=True)
class Tape:
    """A whole tape: its header and its events in order."""

    header: TapeHeader
    events: list[InputEvent]


# --- parsing -------------------------------------------------------------------------------


def read_tape(source: str | os.PathLike[str] | Iterable[str]) -> Tape:
    """Read a tape from a file path, or from an iterable of lines (a list, an open file).

    Blank lines are skipped. Raises TapeError naming the line and the problem, after the file
    when reading one.
    """
    if isinstance(source, (str, os.PathLike)):
        try:
            return _read_lines(_file_lines(Path(source)))
        except TapeError as e:
            raise TapeError(f"{os.fspath(source)}: {e}", os.fspath(source), e.key) from None
    return _read_lines(source)


def _read_lines(lines: Iterable[str]) -> Tape:
    numbered = ((n, line) for n, line in enumerate(lines, start=1) if line.strip())
    first = next(numbered, None)
    if first is None:
        raise TapeError("line 1: the tape is empty; the first line must be the header", key="line 1")
    header = _at_line(first[0], parse_header, first[1])
    events: list[InputEvent] = []
    for number, line in numbered:
        event = _at_line(number, parse_event, line, header)
        if events and event.t < events[-1].t:
            previous = events[-1].t
            raise TapeError(f"line {number}: time {event.t!r} is before the previous {previous!r}", key=f"line {number}")
        events.append(event)
    return Tape(header, events)


def parse_header(text: str) -> TapeHeader:
    """The header in one line of JSON text; raises TapeError without a line number."""
    data = _json_object(text, "the header")
    if "tape" not in data:
        raise TapeError(f'the first line must be the header with "tape": {TAPE_VERSION}, '
                        f'not {shown(text.strip())}')
    if type(data["tape"]) is not int or data["tape"] != TAPE_VERSION:
        raise TapeError(f'"tape" is {shown(data["tape"])}; this reader knows version {TAPE_VERSION}')
    size = BOARDS.get(_required(data, "board", str))
    if size is None:
        raise TapeError(f'"board" is {shown(data["board"])}; write "6x6" or "9x9"')
    sensing = _one_of(data, "sensing", SENSINGS)
    detents = _required(data, "detents_per_quarter", int)
    if detents < 1:
        raise TapeError(f'"detents_per_quarter" is {shown(detents)}; it must be at least 1')
    _required(data, "game", str)
    game = _one_of(data, "game", tuple(spec.name for spec in offered(size)))  # the board's games
    options = {key: value for key, value in data.items() if key not in FIXED_KEYS}
    _check_options(options)
    header = TapeHeader(size, sensing, detents, game, options)
    return replace(header, start=_start(data.get("start", []), header))


def parse_event(text: str, header: TapeHeader) -> InputEvent:
    """One event line for a tape with ``header``; raises TapeError without a line number."""
    data = _json_object(text, "an event")
    kind = next((key for key in EVENT_KEYS if key in data), None)
    if kind is None:
        raise TapeError(
            f'{shown(text.strip())} is not an event: it needs "hole", "block", "button" or "link"')
    keys = EVENT_KEYS[kind]
    extra, missing = sorted(set(data) - set(keys)), [key for key in keys if key not in data]
    if extra or missing:
        problem = f"has no key {shown(extra[0])}" if extra else f"needs {shown(missing[0])}"
        raise TapeError(f'a {kind} event {problem} (keys: {", ".join(keys)}): {shown(text.strip())}')
    t = _time(data)
    if kind == "hole":
        return HoleReading(t, _hole(data["hole"], header), _reading(data, header))
    if kind == "block":
        return EncoderSteps(t, _block(data, header), _steps(data))
    if kind == "button":
        return ButtonPress(t, _one_of(data, "button", BUTTONS))
    return LinkChange(t, LINK_STATES[_one_of(data, "link", tuple(LINK_STATES))])


def _file_lines(path: Path) -> Iterator[str]:
    try:
        raw = read_bounded(path, MAX_TAPE_BYTES)
    except OSError as e:
        raise TapeError(f"cannot read it ({e.strerror})") from e
    for number, line in enumerate(raw.splitlines(), start=1):
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError:
            raise TapeError(f"line {number}: not UTF-8 text: {line[:40]!r}", key=f"line {number}") from None


def _at_line(number: int, parse: Callable[..., T], *args: Any) -> T:
    """Call ``parse``, prefixing any TapeError with the line number."""
    try:
        return parse(*args)
    except TapeError as e:
        raise TapeError(f"line {number}: {e}", key=f"line {number}") from None


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        problem = f"{what} is not valid JSON ({e.msg} at column {e.colno})"
        raise TapeError(f"{problem}: {text.strip()[:60]!r}") from None
    except RecursionError:
        raise TapeError(f"{what} is not valid JSON (nested too deeply)") from None
    except TapeError:  # from _no_constant
        raise
    except ValueError as e:  # an integer too long to convert
        raise TapeError(f"{what} is not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise TapeError(f"{what} must be a JSON object, not {text.strip()[:60]!r}")
    return data


def _no_constant(name: str) -> None:
    raise TapeError(f"{name} is not a number a tape may hold")


def _required(data: dict[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise TapeError(f"the header has no {shown(key)}")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TapeError(f"{shown(key)} is {shown(value)}; it must be {_KIND_NAMES[kind]}")
    return value


_KIND_NAMES = {str: "a string", int: "an integer"}


def _one_of(data: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = data.get(key)
    if value not in allowed or not isinstance(value, str):
        choices = " or ".join(json.dumps(a) for a in allowed)
        raise TapeError(f'"{key}" is {shown(value)}; write {choices}')
    return value


def _check_options(options: dict[str, Any]) -> None:
    players = options.get("players", 2)
    if not within(players, 2, 4, whole=True):
        raise TapeError(f'"players" is {shown(players)}; it must be an integer from 2 to 4')
    colours = options.get("colours", MARBLE_COLOURS)
    names = isinstance(colours, list | tuple) and all(
        isinstance(c, str) and c.isidentifier() and c not in (EMPTY, MARBLE, UNSURE) for c in colours)
    if not names or not colours or len(set(colours)) != len(colours):
        raise TapeError(f'"colours" is {shown(colours)}; it must be a list of distinct colour names')


def _start(items: Any, header: TapeHeader) -> tuple[tuple[int, str], ...]:
    if not isinstance(items, list):
        raise TapeError(
            f'"start" is {shown(items)}; it must be a list of {{"hole": ..., "reading": ...}}')
    start: dict[int, str] = {}
    for item in items:
        if not isinstance(item, dict) or set(item) != {"hole", "reading"}:
            raise TapeError(
                f'a "start" entry is {shown(item)}; write {{"hole": "b5", "reading": "marble"}}')
        hole = _hole(item["hole"], header)
        if hole in start:
            raise TapeError(f'"start" names hole {shown(item["hole"])} twice')
        start[hole] = _reading(item, header)
    return tuple(start.items())


def _time(data: dict[str, Any]) -> float:
    t = data.get("t")
    if not is_number(t) or not 0 <= t < MAX_T:
        raise TapeError(f'"t" is {shown(t)}; it must be the seconds from the start, from 0 to 1e9')
    return t


def _hole(text: Any, header: TapeHeader) -> int:
    if not isinstance(text, str) or len(text) > MAX_HOLE_CHARS:
        raise TapeError(f'"hole" is {shown(text)}; write a hole name such as "b5"')
    try:
        return parse_hole(text, header.geometry)
    except NotationError as e:
        raise TapeError(str(e)) from None


def _reading(data: dict[str, Any], header: TapeHeader) -> str:
    reading = data.get("reading")
    allowed = header.readings()
    if reading not in allowed or not isinstance(reading, str):
        choices = ", ".join(json.dumps(a) for a in allowed)
        raise TapeError(f'"reading" is {shown(reading)}; a {header.sensing} tape reads {choices}')
    return reading


def _block(data: dict[str, Any], header: TapeHeader) -> int:
    block, count = data["block"], header.geometry.block_count
    if not within(block, 1, count, whole=True):
        board = f"{header.size}x{header.size}"
        raise TapeError(f'"block" is {shown(block)}; the {board} board has blocks 1-{count}')
    return block


def _steps(data: dict[str, Any]) -> int:
    steps = data.get("steps")
    if not is_whole(steps) or steps == 0:
        raise TapeError(
            f'"steps" is {shown(steps)}; it must be a non-zero integer (positive = clockwise)')
    return steps


# --- formatting ----------------------------------------------------------------------------


def header_to_json(header: TapeHeader) -> str:
    """The header as one line of JSON (no newline); :func:`parse_header` reads it back."""
    clash = sorted(set(header.options) & set(FIXED_KEYS))
    if clash:
        raise TapeError(f"the option {clash[0]!r} clashes with a fixed header key")
    g = header.geometry
    data: dict[str, Any] = {
        "tape": TAPE_VERSION, "board": f"{header.size}x{header.size}", "sensing": header.sensing,
        "detents_per_quarter": header.detents_per_quarter, "game": header.game, **header.options,
    }
    if header.start:
        data["start"] = [{"hole": hole_name(h, g), "reading": r} for h, r in header.start]
    return json.dumps(data)


def event_to_json(event: InputEvent, g: Geometry) -> str:
    """One event as one line of JSON (no newline); :func:`parse_event` reads it back.

    A LinkChange's ``reason`` is for the log only; the tape format has no place for it.
    """
    match event:
        case HoleReading(t, hole, reading):
            data: dict[str, Any] = {"t": t, "hole": hole_name(hole, g), "reading": reading}
        case EncoderSteps(t, block, steps):
            data = {"t": t, "block": block, "steps": steps}
        case ButtonPress(t, button):
            data = {"t": t, "button": button}
        case LinkChange(t, up):
            data = {"t": t, "link": "up" if up else "down"}
        case _:
            raise TapeError(f"{event!r} is not a physical input a tape records")
    return json.dumps(data)


def previous_tape(path: Path) -> Path:
    """Where a new recording at ``path`` keeps the tape it finds there."""
    return path.with_name(path.name + ".1")


def tape_path_problem(path: Path, keep: dict[str, Path] | None = None) -> str | None:
    """Why a tape may not be recorded at ``path``, or None when it may.

    A recorder moves the tape it finds at ``path`` to :func:`previous_tape` (replacing the
    tape there), so both names must hold nothing but tapes, or nothing: never a directory, a
    device, a FIFO, a symbolic link, a file that is not a tape, or a file of ``keep`` (what
    to call it -> its path, e.g. ``{"the journal": ...}``). An empty file counts as a tape (the
    daemon's own, when a full disk took no header)."""
    for target in (path, previous_tape(path)):
        problem = _not_a_tape(target, keep or {})
        if problem is not None:
            return problem if target == path else f"{target} (where the previous tape is kept) {problem}"
    return None


def _not_a_tape(target: Path, keep: dict[str, Path]) -> str | None:
    for name, kept in keep.items():
        if os.path.abspath(target) == os.path.abspath(kept) or _same_file(target, kept):
            return f"is {name}"
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"cannot be checked ({e.strerror})"
    if stat.S_ISDIR(mode):
        return "is a directory; name a file in it"
    if stat.S_ISLNK(mode):
        return "is a symbolic link; name the file itself"
    if not stat.S_ISREG(mode):
        return "is not a regular file (a device, a FIFO or a socket)"
    return None if _holds_a_tape(target) else "holds something other than a tape"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _holds_a_tape(path: Path) -> bool:
    """True if ``path`` is empty or its first line is a tape header (of any board; or the start
    of ours, torn by a disk that filled up)."""
    try:
        with open(path, "rb") as file:
            first = file.read(4096).split(b"\n", 1)[0]
        return not first or first.startswith(b'{"tape":') or isinstance(json.loads(first).get("tape"), int)
    except (OSError, ValueError, AttributeError):
        return False


class TapeRecorder:
    """Records physical inputs to a tape file as they happen, one flushed line per event.

    ``t0`` is the clock time the tape starts at; it is subtracted from every event's time so
    the tape holds seconds from the start. An event the tape cannot carry (an unknown button, a
    reading the sensing cannot give, a time before the previous one) is skipped with a warning:
    recording is a diagnostic aid and must never stop the daemon. A failed write raises
    OSError (the daemon then stops recording; see the runtime).

    A tape already at ``path`` is kept as ``<path>.1`` (replacing an older one): after a crash
    or a power cut the daemon starts a new tape, and the tape of the interrupted game is the one
    a bug report needs. Nothing else is ever moved or replaced: a ``path`` or ``<path>.1`` that
    is anything but a tape, or one of ``keep`` (see :func:`tape_path_problem`), raises TapeError.
    """

    def __init__(self, path: str | os.PathLike[str], header: TapeHeader, t0: float = 0,
                 keep: dict[str, Path] | None = None) -> None:
        self.path = Path(path)
        self.header = header
        self.t0 = t0
        self._last_t: float = 0
        problem = tape_path_problem(self.path, keep)
        if problem is not None:
            raise TapeError(problem)
        if self.path.exists():
            os.replace(self.path, previous_tape(self.path))
        self._file: TextIO = open(self.path, "x", encoding="utf-8")  # "x": creates, never truncates
        self._write(header_to_json(header))

    def record(self, event: InputEvent) -> None:
        """Append ``event`` as one line (flushed, so a crash keeps everything before it)."""
        try:
            line = self._line(event)
        except TapeError as e:
            log.warning("tape %s: not recording %r: %s", self.path, event, e)
            return
        self._write(line)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> TapeRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _line(self, event: InputEvent) -> str:
        """The tape line for ``event``, checked to read back as read_tape would read it."""
        shifted = replace(event, t=event.t - self.t0)
        line = event_to_json(shifted, self.header.geometry)
        parse_event(line, self.header)
        if shifted.t < self._last_t:
            raise TapeError(f"time {shifted.t!r} is before the previous {self._last_t!r}")
        self._last_t = shifted.t
        return line

    def _write(self, line: str) -> None:
        self._file.write(line + "\n")
        self._file.flush()

