"""Tapes: the fixed JSON-lines format, its validation messages, and the recorder round trip."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.errors import TapeError
from controller.events import ButtonPress, EncoderSteps, HoleReading, LinkChange, Tick
from controller.rules import geometry
from controller.tape import (
    MARBLE_COLOURS, TapeHeader, TapeRecorder, event_to_json, header_to_json, parse_event,
    parse_header, read_tape,
)

HEADER = {"tape": 1, "board": "6x6", "sensing": "presence", "detents_per_quarter": 4, "game": "classic"}
POLARITY = {**HEADER, "sensing": "polarity", "colours": ["white", "black"]}


def lines(header: dict, *events: dict | str) -> list[str]:
    return [json.dumps(header)] + [e if isinstance(e, str) else json.dumps(e) for e in events]


def test_reads_every_event_kind_with_hole_indices():
    tape = read_tape(lines(
        HEADER,
        {"t": 0, "hole": "a1", "reading": "marble"},
        {"t": 1.25, "hole": "2/5", "reading": "empty"},  # the rulebook's block/position form
        {"t": 2.5, "block": 4, "steps": -1},
        {"t": 3.0, "button": "ok"},
        {"t": 4.0, "link": "down"},
        {"t": 4.0, "link": "up"},
    ))
    assert tape.header == TapeHeader(6, "presence", 4, "classic")
    assert tape.events == [
        HoleReading(0, 0, "marble"), HoleReading(1.25, geometry(6).centres[1], "empty"),
        EncoderSteps(2.5, 4, -1), ButtonPress(3.0, "ok"), LinkChange(4.0, False), LinkChange(4.0, True),
    ]


def test_header_keeps_options_and_start_position():
    header = {**HEADER, "board": "9x9", "players": 3, "twist": "clockwise",
              "start": [{"hole": "i9", "reading": "marble"}, {"hole": "a1", "reading": "marble"}]}
    tape = read_tape(lines(header))
    assert tape.header == TapeHeader(9, "presence", 4, "classic", {"players": 3, "twist": "clockwise"},
                                     ((80, "marble"), (0, "marble")))
    assert tape.events == []


def test_polarity_tape_reads_colours_and_unsure():
    tape = read_tape(lines(POLARITY, {"t": 1, "hole": "c3", "reading": "black"},
                           {"t": 2, "hole": "c3", "reading": "unsure"}))
    assert [e.reading for e in tape.events] == ["black", "unsure"]


def test_colour_tape_reads_every_marble_colour_and_a_colourless_marble():
    """The virtual board's tapes: it tells every marble colour apart (a marble put down with
    no colour reads "marble")."""
    tape = read_tape(lines({**HEADER, "sensing": "colour"}, {"t": 1, "hole": "c3", "reading": "red"},
                           {"t": 2, "hole": "c4", "reading": "marble"}))
    assert tape.header.sensing == "colour"
    assert [e.reading for e in tape.events] == ["red", "marble"]


def test_reads_a_file_by_path_skipping_blank_lines(tmp_path):
    path = tmp_path / "game.tape"
    path.write_text("\n".join(lines(HEADER, "", {"t": 1, "button": "back"})) + "\n\n")
    assert read_tape(path).events == [ButtonPress(1, "back")]
    assert read_tape(str(path)).events == [ButtonPress(1, "back")]


EV = {"t": 1, "hole": "b5", "reading": "marble"}

BAD_TAPES = [
    ([], "line 1: the tape is empty; the first line must be the header"),
    (["{nope"], "line 1: the header is not valid JSON (Expecting property name enclosed in double "
                "quotes at column 2): '{nope'"),
    (["[1, 2]"], "line 1: the header must be a JSON object, not '[1, 2]'"),
    ([json.dumps(EV)], 'line 1: the first line must be the header with "tape": 1, not '
                       '\'{"t": 1, "hole": "b5", "reading": "marble"}\''),
    (lines({**HEADER, "tape": 2}), "line 1: \"tape\" is 2; this reader knows version 1"),
    (lines({**HEADER, "tape": 1.0}), "line 1: \"tape\" is 1.0; this reader knows version 1"),
    (lines({**HEADER, "board": "7x7"}), "line 1: \"board\" is '7x7'; write \"6x6\" or \"9x9\""),
    (lines({k: v for k, v in HEADER.items() if k != "board"}), "line 1: the header has no 'board'"),
    (lines({**HEADER, "board": 6}), "line 1: 'board' is 6; it must be a string"),
    (lines({**HEADER, "sensing": "rgb"}), "line 1: \"sensing\" is 'rgb'; write \"presence\" or \"polarity\" or \"colour\""),
    (lines({**HEADER, "sensing": "colour"}, {"t": 1, "hole": "c3", "reading": "unsure"}),
     'line 2: "reading" is \'unsure\'; a colour tape reads "empty", "marble", "white", "black", '
     '"blue", "yellow", "red", "green", "magenta"'),
    (lines({**HEADER, "detents_per_quarter": 0}), "line 1: \"detents_per_quarter\" is 0; it must be at least 1"),
    (lines({**HEADER, "detents_per_quarter": 4.5}), "line 1: 'detents_per_quarter' is 4.5; it must be an integer"),
    (lines({**HEADER, "detents_per_quarter": True}), "line 1: 'detents_per_quarter' is True; it must be an integer"),
    (lines({**HEADER, "game": "two words"}), "line 1: \"game\" is 'two words'; write \"classic\" or \"triple\" or \"puzzle\""),
    (lines({**HEADER, "game": "chess"}), "line 1: \"game\" is 'chess'; write \"classic\" or \"triple\" or \"puzzle\""),
    (lines({**HEADER, "players": 5}), "line 1: \"players\" is 5; it must be an integer from 2 to 4"),
    (lines({**HEADER, "colours": ["white", "white"]}),
     "line 1: \"colours\" is ['white', 'white']; it must be a list of distinct colour names"),
    (lines({**HEADER, "colours": [["white"]]}),
     "line 1: \"colours\" is [['white']]; it must be a list of distinct colour names"),
    (lines({**HEADER, "start": {"b5": "marble"}}),
     "line 1: \"start\" is {'b5': 'marble'}; it must be a list of {\"hole\": ..., \"reading\": ...}"),
    (lines({**HEADER, "start": [{"hole": "b5"}]}),
     "line 1: a \"start\" entry is {'hole': 'b5'}; write {\"hole\": \"b5\", \"reading\": \"marble\"}"),
    (lines({**HEADER, "start": [{"hole": "b5", "reading": "marble"}, {"hole": "B5", "reading": "empty"}]}),
     "line 1: \"start\" names hole 'B5' twice"),
    (lines({**HEADER, "start": [{"hole": "g1", "reading": "marble"}]}),
     "line 1: 'g1' is not a hole on the 6x6 board (columns a-f, rows 1-6)"),
    (lines(HEADER, "{\"t\": 1,"), "line 2: an event is not valid JSON (Expecting property name enclosed in "
                                  "double quotes at column 9): '{\"t\": 1,'"),
    (lines(HEADER, '{"t": NaN, "button": "ok"}'), "line 2: NaN is not a number a tape may hold"),
    (lines(HEADER, {"t": 1}), "line 2: '{\"t\": 1}' is not an event: it needs \"hole\", \"block\", \"button\" or \"link\""),
    (lines(HEADER, {**EV, "block": 2}),
     "line 2: a hole event has no key 'block' (keys: t, hole, reading): "
     "'{\"t\": 1, \"hole\": \"b5\", \"reading\": \"marble\", \"block\": 2}'"),
    (lines(HEADER, {"hole": "b5", "reading": "marble"}),
     "line 2: a hole event needs 't' (keys: t, hole, reading): '{\"hole\": \"b5\", \"reading\": \"marble\"}'"),
    (lines(HEADER, {**EV, "t": "1"}), "line 2: \"t\" is '1'; it must be the seconds from the start, from 0 to 1e9"),
    (lines(HEADER, {**EV, "t": -0.5}), "line 2: \"t\" is -0.5; it must be the seconds from the start, from 0 to 1e9"),
    (lines(HEADER, '{"t": 1e400, "button": "ok"}'),
     "line 2: \"t\" is inf; it must be the seconds from the start, from 0 to 1e9"),
    (lines(HEADER, EV, {**EV, "t": 0.5}), "line 3: time 0.5 is before the previous 1"),
    (lines(HEADER, {**EV, "hole": "b7"}), "line 2: 'b7' is not a hole on the 6x6 board (columns a-f, rows 1-6)"),
    (lines(HEADER, {**EV, "hole": 7}), "line 2: \"hole\" is 7; write a hole name such as \"b5\""),
    (lines(HEADER, {**EV, "reading": "white"}),
     "line 2: \"reading\" is 'white'; a presence tape reads \"empty\", \"marble\""),
    (lines(POLARITY, {**EV, "reading": "marble"}),
     "line 2: \"reading\" is 'marble'; a polarity tape reads \"empty\", \"unsure\", \"white\", \"black\""),
    (lines(HEADER, {"t": 1, "block": 5, "steps": 1}), "line 2: \"block\" is 5; the 6x6 board has blocks 1-4"),
    (lines(HEADER, {"t": 1, "block": "4", "steps": 1}), "line 2: \"block\" is '4'; the 6x6 board has blocks 1-4"),
    (lines(HEADER, {"t": 1, "block": 4, "steps": 0}),
     "line 2: \"steps\" is 0; it must be a non-zero integer (positive = clockwise)"),
    (lines(HEADER, {"t": 1, "block": 4, "steps": 1.0}),
     "line 2: \"steps\" is 1.0; it must be a non-zero integer (positive = clockwise)"),
    (lines(HEADER, {"t": 1, "button": "menu"}), "line 2: \"button\" is 'menu'; write \"ok\" or \"back\""),
    (lines(HEADER, {"t": 1, "link": True}), "line 2: \"link\" is True; write \"up\" or \"down\""),
    (lines(HEADER, "", "", {"t": 1, "link": "sideways"}), "line 4: \"link\" is 'sideways'; write \"up\" or \"down\""),
]


@pytest.mark.parametrize("tape, message", BAD_TAPES)
def test_bad_tapes_name_the_line_and_the_value(tape, message):
    with pytest.raises(TapeError) as caught:
        read_tape(tape)
    assert str(caught.value) == message


def test_bad_bytes_and_missing_file_are_tape_errors(tmp_path):
    path = tmp_path / "bad.tape"
    path.write_bytes(json.dumps(HEADER).encode() + b"\n\xff\xfe\n")
    with pytest.raises(TapeError) as caught:
        read_tape(path)
    assert str(caught.value) == f"{path}: line 2: not UTF-8 text: b'\\xff\\xfe'"
    with pytest.raises(TapeError) as caught:
        read_tape(tmp_path / "missing.tape")
    assert str(caught.value) == f"{tmp_path / 'missing.tape'}: cannot read it (No such file or directory)"


def test_formatters_write_the_issue_format():
    header = TapeHeader(6, "presence", 4, "classic", {"players": 2}, ((9, "marble"),))
    assert json.loads(header_to_json(header)) == {
        **HEADER, "players": 2, "start": [{"hole": "d2", "reading": "marble"}]}
    g = geometry(6)
    assert json.loads(event_to_json(HoleReading(1.5, 9, "empty"), g)) == {"t": 1.5, "hole": "d2", "reading": "empty"}
    assert json.loads(event_to_json(EncoderSteps(2, 3, -2), g)) == {"t": 2, "block": 3, "steps": -2}
    assert json.loads(event_to_json(LinkChange(3, False, "unplugged"), g)) == {"t": 3, "link": "down"}
    with pytest.raises(TapeError, match="Tick.*is not a physical input a tape records"):
        event_to_json(Tick(1), g)  # type: ignore[arg-type]


def test_header_options_may_not_shadow_fixed_keys():
    with pytest.raises(TapeError, match="the option 'board' clashes with a fixed header key"):
        header_to_json(TapeHeader(6, "presence", 4, options={"board": "9x9"}))


# --- the recorder ----------------------------------------------------------------------------


@st.composite
def tapes(draw):
    size = draw(st.sampled_from([6, 9]))
    g = geometry(size)
    sensing = draw(st.sampled_from(["presence", "polarity"]))
    colours = draw(st.lists(st.sampled_from(MARBLE_COLOURS), min_size=1, max_size=4, unique=True))
    options = {"colours": colours} if sensing == "polarity" else {}
    header = TapeHeader(size, sensing, draw(st.integers(1, 24)), "classic", options)
    holes = st.integers(0, g.hole_count - 1)
    readings = st.sampled_from(header.readings())
    start = draw(st.dictionaries(holes, readings, max_size=5))
    header = TapeHeader(size, sensing, header.detents_per_quarter, "classic", options, tuple(start.items()))
    times = sorted(draw(st.lists(st.floats(0, 1e5, allow_nan=False) | st.integers(0, 1000), max_size=30)))
    makers = [
        st.builds(lambda h, r: lambda t: HoleReading(t, h, r), holes, readings),
        st.builds(lambda b, s: lambda t: EncoderSteps(t, b, s), st.integers(1, g.block_count),
                  st.integers(-40, 40).filter(bool)),
        st.builds(lambda b: lambda t: ButtonPress(t, b), st.sampled_from(["ok", "back"])),
        st.builds(lambda u: lambda t: LinkChange(t, u), st.booleans()),
    ]
    return header, [draw(st.one_of(makers))(t) for t in times]


@settings(deadline=None)  # real file writes: their time depends on the disk, not on us
@given(tapes())
def test_recorder_then_reader_round_trips(tmp_path_factory, tape):
    header, events = tape
    path = tmp_path_factory.mktemp("tapes") / "round.tape"
    with TapeRecorder(path, header) as recorder:
        for event in events:
            recorder.record(event)
    back = read_tape(path)
    assert back.header == header
    assert back.events == events
    assert [type(e) for e in back.events] == [type(e) for e in events]


def test_recorder_flushes_each_line_and_shifts_to_tape_time(tmp_path):
    path = tmp_path / "live.tape"
    recorder = TapeRecorder(path, TapeHeader(6, "presence", 4), t0=100.0)
    recorder.record(HoleReading(101.5, 0, "marble"))
    assert read_tape(path).events == [HoleReading(1.5, 0, "marble")]  # readable before close
    recorder.close()


def test_recorder_skips_what_the_tape_cannot_carry_with_a_warning(tmp_path, caplog):
    path = tmp_path / "skips.tape"
    with caplog.at_level(logging.WARNING, logger="controller.tape"):
        with TapeRecorder(path, TapeHeader(6, "presence", 4)) as recorder:
            recorder.record(HoleReading(1, 0, "marble"))
            recorder.record(ButtonPress(2, "menu"))
            recorder.record(HoleReading(3, 0, "white"))
            recorder.record(HoleReading(0.5, 1, "marble"))
            recorder.record(Tick(4))  # type: ignore[arg-type]
            recorder.record(HoleReading(5, 0, "empty"))
    assert read_tape(path).events == [HoleReading(1, 0, "marble"), HoleReading(5, 0, "empty")]
    problems = [r.getMessage().split(": ", 2)[-1] for r in caplog.records]
    assert problems == [
        "\"button\" is 'menu'; write \"ok\" or \"back\"",
        "\"reading\" is 'white'; a presence tape reads \"empty\", \"marble\"",
        "time 0.5 is before the previous 1",
        "Tick(t=4) is not a physical input a tape records",
    ]


def test_parse_and_format_pair_on_single_lines():
    header = parse_header(json.dumps(POLARITY))
    assert parse_header(header_to_json(header)) == header
    event = parse_event('{"t": 2, "hole": "f6", "reading": "white"}', header)
    assert parse_event(event_to_json(event, header.geometry), header) == event


def test_an_open_file_reads_like_its_path(tmp_path):
    path = tmp_path / "open.tape"
    path.write_text("\n".join(lines(HEADER, {"t": 0.5, "block": 2, "steps": 3})) + "\n")
    with open(path, encoding="utf-8") as file:
        assert read_tape(file) == read_tape(path)


TAPES = Path(__file__).parent / "data" / "tapes"


def test_the_recorded_game_tapes_read_and_format_back_to_the_same_tape(tmp_path):
    tapes = sorted(TAPES.glob("*.jsonl"))
    assert tapes, f"no tapes in {TAPES}"
    for path in tapes:
        tape = read_tape(path)
        assert tape.events, path.name
        copy = tmp_path / path.name
        with TapeRecorder(copy, tape.header) as recorder:
            for event in tape.events:
                recorder.record(event)
        assert read_tape(copy) == tape, path.name


def test_a_new_recording_keeps_the_previous_tape(tmp_path):
    path = tmp_path / "daemon.tape"
    for t in (1, 2, 3):  # three daemon starts
        with TapeRecorder(path, TapeHeader(6, "presence", 4)) as recorder:
            recorder.record(ButtonPress(t, "ok"))
    assert read_tape(path).events == [ButtonPress(3, "ok")]
    assert read_tape(tmp_path / "daemon.tape.1").events == [ButtonPress(2, "ok")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["daemon.tape", "daemon.tape.1"]


# -- where a tape may be recorded: nothing but the daemon's own tapes is ever moved (issue 19, item 8)

def a_tape(path: Path) -> bytes:
    with TapeRecorder(path, TapeHeader(6, "presence", 4)):
        pass
    return path.read_bytes()


@pytest.mark.parametrize("what, make, problem", [
    ("directory", lambda p: p.mkdir(), "is a directory; name a file in it"),
    ("fifo", lambda p: os.mkfifo(p), "is not a regular file (a device, a FIFO or a socket)"),
    # a device node of its own (/dev/null's numbers): a test must never risk moving the real one
    ("device", lambda p: os.mknod(p, stat.S_IFCHR | 0o600, os.makedev(1, 3)),
     "is not a regular file (a device, a FIFO or a socket)"),
    ("config", lambda p: p.write_text('profile = "A-6x6"\n'), "holds something other than a tape"),
    ("symlink to a device", lambda p: p.symlink_to("/dev/null"), "is a symbolic link; name the file itself"),
])
def test_a_tape_path_holding_anything_but_a_tape_is_refused_and_left_where_it_is(tmp_path, what, make, problem):
    path = tmp_path / "tape.jsonl"
    make(path)
    before = sorted(tmp_path.iterdir())
    with pytest.raises(TapeError) as refused:
        TapeRecorder(path, TapeHeader(6, "presence", 4))
    assert str(refused.value) == problem
    assert sorted(tmp_path.iterdir()) == before and not (tmp_path / "tape.jsonl.1").exists()


def test_the_journal_is_never_a_tape_nor_where_the_previous_tape_goes(tmp_path):
    journal = tmp_path / "journal.jsonl"
    journal.write_bytes(b"")  # an empty journal (a new game's) would pass for a tape by its content
    with pytest.raises(TapeError, match="^is the journal$"):
        TapeRecorder(journal, TapeHeader(6, "presence", 4), keep={"the journal": journal})
    tape = tmp_path / "journal"
    kept = a_tape(tape)
    with pytest.raises(TapeError, match=r"journal\.1 \(where the previous tape is kept\) is the journal$"):
        TapeRecorder(tape, TapeHeader(6, "presence", 4), keep={"the journal": tmp_path / "journal.1"})
    assert tape.read_bytes() == kept


def test_a_new_recording_moves_only_a_tape_over_a_previous_tape(tmp_path):
    path = tmp_path / "t.jsonl"
    a_tape(path)
    (tmp_path / "t.jsonl.1").write_text("my notes\n")
    with pytest.raises(TapeError, match="t.jsonl.1 .where the previous tape is kept. holds something other than a tape"):
        TapeRecorder(path, TapeHeader(6, "presence", 4))
    assert (tmp_path / "t.jsonl.1").read_text() == "my notes\n"
    (tmp_path / "t.jsonl.1").unlink()
    path.write_bytes(b"")  # a tape whose header a full disk never took: the daemon's own, moved aside
    TapeRecorder(path, TapeHeader(6, "presence", 4)).close()
    assert (tmp_path / "t.jsonl.1").read_bytes() == b"" and read_tape(path).events == []


def test_a_replay_skips_a_silent_day_to_the_next_deadline_instead_of_ticking_through_it(monkeypatch):
    # Issue 19 item 16: a won game (whose win line animates every 0.12 s) and one event 10^5 s
    # later once meant 833,000 Ticks, 60 s and 745 MB; t may go up to 10^9.
    from controller.commands.replay import replay
    from controller.core import Core

    path = Path(__file__).parent / "data" / "tapes" / "win_on_placement.jsonl"
    lines = path.read_text().splitlines()
    expected = replay(read_tape(lines))
    handled = []
    original = Core.handle
    monkeypatch.setattr(Core, "handle", lambda self, event: handled.append(event) or original(self, event))
    for late in (1e5, 1e9 - 1):
        handled.clear()
        assert replay(read_tape([*lines, json.dumps({"t": late, "hole": "a1", "reading": "empty"})])) == expected
        assert len(handled) < 2 * len(lines)  # the events and their settles: no Tick per frame
