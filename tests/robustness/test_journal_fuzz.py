"""Fuzz of the journal as start-up input (issue 9, "Keep attacking"): no journal content,
checksummed or not, stops the daemon starting or makes the core raise, and what a start-up
keeps resumes in full the next time."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.core import Core
from controller.daemon import service
from controller.daemon.config import Config
from controller.daemon.notify import Notifier
from controller.events import ButtonPress, EncoderSteps, HoleReading, Tick
from controller.journal import Journal
from controller.profile import load_profile

PROFILE = load_profile("virtual-6x6")
HOLES = [f"{c}{r}" for c in "abcdef" for r in range(1, 7)]
TWISTS = [f"{b}{d}" for b in range(1, 5) for d in "RL"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
# Mostly the right field values (so replays get deep into games), sometimes anything at all.
holes = st.sampled_from(HOLES) | json_values
twists = st.sampled_from(TWISTS) | json_values
times = st.floats(0, 1e6) | json_values


def record(kind: str, **fields: st.SearchStrategy) -> st.SearchStrategy:
    return st.fixed_dictionaries({"kind": st.just(kind)}, optional={"t": times, **fields})


records = st.one_of(
    st.fixed_dictionaries({"kind": st.just("start"), "game": st.just("classic") | json_values,
                           "players": st.just(2) | json_values},
                          optional={"t": times, "computer": st.booleans() | json_values,
                                    "match": st.booleans() | json_values, "starter": st.just(1) | json_values}),
    st.fixed_dictionaries({"kind": st.just("place"), "hole": holes}),
    st.fixed_dictionaries({"kind": st.just("twist"), "twist": twists}),
    record("skip"), record("take_back"), record("menu"), record("next_game"), record("end"),
    st.dictionaries(st.text(max_size=6), json_values, max_size=4),
)
journals = st.lists(records, max_size=30)


def poke(core: Core, t: float) -> None:
    """A few events of every kind after the resume; none may raise."""
    for hole in (0, 7, 35):
        core.handle(HoleReading(t, hole, "marble"))
    core.handle(EncoderSteps(t + 0.1, 1, 6))
    core.handle(ButtonPress(t + 0.2, "ok"))
    for step in range(1, 30):
        core.handle(Tick(t + 0.2 + step * 0.1))
    json.dumps(core.state())


@settings(max_examples=300, deadline=None)
@given(journals)
def test_any_records_resume_without_raising_and_the_used_prefix_resumes_in_full(records):
    core = Core(PROFILE, journal_records=records, start_time=100.0)
    assert 0 <= core.resume.used <= len(records)
    again = Core(PROFILE, journal_records=records[:core.resume.used], start_time=100.0)
    assert again.resume.problem is None
    assert again.state() == core.state()
    poke(core, 100.0)


def checksummed(lines: list[bytes]) -> bytes:
    return b"".join(b"%08x %s\n" % (zlib.crc32(line), line) for line in lines)


def written(records: list[dict]) -> bytes:
    """Journal lines with good checksums, NaN and Infinity included (Python's JSON reads them)."""
    return checksummed([json.dumps(r).encode() for r in records])


raw_journals = st.one_of(
    st.binary(max_size=300),
    st.lists(records, max_size=20).map(written),
    st.lists(st.binary(max_size=40) | st.text(max_size=40).map(str.encode), max_size=8).map(checksummed),
    st.tuples(st.lists(records, max_size=10), st.binary(max_size=30), st.lists(records, max_size=5)).map(
        lambda parts: written(parts[0]) + parts[1] + b"\n" + written(parts[2])),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw_journals)
def test_any_journal_file_starts_the_daemon_and_the_next_start_sets_nothing_aside(tmp_path_factory, content):
    journal: Path = tmp_path_factory.mktemp("journal") / "journal.jsonl"
    journal.write_bytes(content)
    config = Config(profile="virtual-6x6", journal=journal)
    first = service.build(config, Notifier({}))
    first.runtime.journal.close()
    resumed = first.runtime.core.state()
    poke(first.runtime.core, 1e9)
    aside = Journal(journal).set_aside_files()
    assert len(aside) <= 1 and (not aside or aside[0].read_bytes() == content)
    second = service.build(config, Notifier({}))
    second.runtime.journal.close()
    assert Journal(journal).set_aside_files() == aside  # what was kept resumes in full
    assert second.runtime.core.state() == resumed
