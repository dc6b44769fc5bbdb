"""Item 18 of issue 9: what the commands say is written for people, with no internal names."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from controller.cli import build_parser, main
from controller.commands.replay import core_for, drive, start
from controller.events import Command
from controller.tape import read_tape

TAPES = Path(__file__).resolve().parents[1] / "data" / "tapes"
MARKUP = ("`", ":mod:", ":class:", ":func:")


def every_parser(parser: argparse.ArgumentParser, name: str = "pentago-board"):
    """The top-level parser and every subcommand's, by the words a user types."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                yield from every_parser(subparser, f"{name} {sub}")


def test_top_level_help_says_what_the_program_does():
    assert build_parser().description == (
        "Referee Pentago on a sensored board, or play it on a virtual one in the browser "
        "(pentago-board sim). Each COMMAND has its own --help.")


PARSERS = dict(every_parser(build_parser()))


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_no_help_text_shows_source_markup(name):
    text = PARSERS[name].format_help()
    assert not [mark for mark in MARKUP if mark in text], f"{name} --help:\n{text}"


def test_replay_and_firmware_help_start_with_what_they_do():
    assert PARSERS["pentago-board replay"].description == (
        "Run a recorded tape through the core and print the accepted moves and the outcome.")
    assert PARSERS["pentago-board firmware"].description == (
        "Install the firmware on the board's Pico: pentago-board firmware flash.")


def test_replay_of_a_missing_file_names_it_once(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "nope.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "pentago-board replay: nope.jsonl: cannot read it (No such file or directory)\n")


def test_replay_of_a_bad_line_names_the_file_and_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text((TAPES / "win_on_placement.jsonl").read_text().splitlines()[0]
                   + '\n{"t": 1, "hole": "z9", "reading": "marble"}\n')
    assert main(["replay", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"pentago-board replay: {bad}: line 2: ")


def take_back_notice(core) -> str:
    return core.handle(Command(core.now, "take_back", {})).notices[0]


def test_nothing_to_take_back_is_said_in_plain_words():
    tape = read_tape(TAPES / "win_on_placement.jsonl")
    core = core_for(tape.header)
    assert take_back_notice(core) == "nothing to take back: no game is running"
    start(core, tape.header)
    assert take_back_notice(core) == "nothing to take back: no move has been played yet"
    drive(core, tape.events)
    assert take_back_notice(core) == "nothing to take back: the game is over"


def test_replay_of_a_tape_for_another_game_exits_2_naming_the_field(tmp_path, capsys):
    chess = tmp_path / "chess.jsonl"
    chess.write_text((TAPES / "win_on_placement.jsonl").read_text().replace('"classic"', '"chess"'))
    assert main(["replay", str(chess)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"pentago-board replay: {chess}: line 1: \"game\" is 'chess'; write \"classic\" or \"triple\" or \"puzzle\"\n"


def test_replay_of_a_tape_whose_game_cannot_start_exits_2(tmp_path, capsys):
    three = tmp_path / "three.jsonl"
    header, *events = (TAPES / "win_on_placement.jsonl").read_text().splitlines()
    three.write_text("\n".join([header.replace('"game"', '"players": 3, "game"'), *events]) + "\n")
    assert main(["replay", str(three)]) == 2
    assert capsys.readouterr().err == (
        f"pentago-board replay: {three}: line 1: the header's game cannot start: "
        "players 3: classic Pentago is for 2 players\n")


@pytest.mark.parametrize("doc", ["README.md", "docs/benchmarks.md"])
def test_the_docs_run_the_benchmarks_with_the_venv_python(doc):
    text = (Path(__file__).resolve().parents[2] / doc).read_text()
    runs = [line for line in text.splitlines() if "bench/" in line and ".py" in line and "python" in line]
    assert runs, f"{doc} shows how to run a benchmark"
    assert all(".venv/bin/python bench/" in line for line in runs), runs


# -- issue 22, item 21: the small things a hobbyist reads first ----------------------------------

def test_every_option_with_a_default_says_it_in_its_help():
    """sim --help showed no default port; a default a user cannot see is a guess."""
    for name in ("pentago-board sim", "pentago-board leds"):
        for action in PARSERS[name]._actions:
            if action.default not in (None, False, argparse.SUPPRESS) and action.option_strings and action.help:
                assert "default" in action.help, f"{name} {action.option_strings[0]}: {action.help}"


def test_leds_help_says_what_each_colour_looks_like_and_lights_for():
    text = " ".join(PARSERS["pentago-board leds"].format_help().split())
    assert "black (glows violet)" in text
    assert "prompt (sky blue, the computer's move or a hint" in text
    assert "turn_back (orange, repair: turn this block back" in text


def test_firmware_without_an_action_says_what_it_can_do(capsys):
    assert main(["firmware"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pentago-board firmware: say what to do, e.g. pentago-board firmware flash\n")
    assert "flash     copy the firmware to a connected Pico and check it" in err
    assert "error:" not in err
