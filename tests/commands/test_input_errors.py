"""Item 14 of issue 9: what a new user types wrong gets a message and exit status 2, and output
piped into a command that stops reading early ends quietly; never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.daemon.config import load_config
from controller.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
TAPE = ROOT / "tests" / "data" / "tapes" / "bounce_and_roll.jsonl"
NOT_UTF8 = b'profile = "virtual-6x6"\n# caf\xe9 in Latin-1\n'


def usage_error(capsys, argv: list[str]) -> str:
    """The last line argparse prints for ``argv``, which must exit with status 2."""
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize("port", ["99999", "-5", "65536"])
def test_sim_port_out_of_range_is_a_usage_error(capsys, port):
    assert usage_error(capsys, ["sim", "--no-browser", "--port", port]) == (
        f"pentago-board sim: error: argument --port: {port} is not a port number "
        "(1-65535, or 0 for any free one)"
    )


def test_sim_port_that_is_not_a_number_is_a_usage_error(capsys):
    assert usage_error(capsys, ["sim", "--port", "http"]) == (
        "pentago-board sim: error: argument --port: 'http' is not a port number "
        "(1-65535, or 0 for any free one)"
    )


def test_config_with_bytes_that_are_not_utf8_names_the_file_and_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(NOT_UTF8)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == (
        f"config {path}: not UTF-8 text (byte 0xe9 on line 2); save the file as UTF-8"
    )


@pytest.mark.parametrize("command", [["doctor"], ["selftest", "--timeout", "0"]])
def test_commands_with_a_config_that_is_not_utf8_exit_2(tmp_path, capsys, command):
    path = tmp_path / "config.toml"
    path.write_bytes(NOT_UTF8)
    assert main([*command, "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"config {path}: not UTF-8 text (byte 0xe9 on line 2)" in err
    assert "Traceback" not in err


def test_run_with_a_config_that_is_not_utf8_exits_2_with_the_message(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(NOT_UTF8)
    done = subprocess.run([sys.executable, "-m", "controller", "run", "--config", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "not UTF-8 text (byte 0xe9 on line 2)" in done.stderr
    assert "Traceback" not in done.stderr


def into_closed_pipe(*argv: str) -> subprocess.CompletedProcess:
    """Run the command with its output going into a pipe nobody reads any more."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        process = subprocess.Popen([sys.executable, "-m", "controller", *argv], cwd=ROOT,
                                   stdout=write_end, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write_end)
    _, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, "", err)


@pytest.mark.parametrize("argv", [
    ("game", "--json", "b5 4R"),
    ("profile",),
    ("profile", "B-9x9"),
    ("replay", str(TAPE)),
])
def test_output_into_a_closed_pipe_ends_quietly(argv):
    done = into_closed_pipe(*argv)
    assert done.stderr == ""
    assert done.returncode == 1  # what Python's docs recommend for EPIPE (signal module, SIGPIPE)


def test_ctrl_c_ends_a_command_quietly_with_status_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr("controller.commands.replay.run", interrupted)
    assert main(["replay", str(TAPE)]) == 130
    assert capsys.readouterr().err == "\n"
