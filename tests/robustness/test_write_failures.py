"""The journal's and the tape's writes fail under a real daemon process, a few cycles of each
kind (the full run is bench/robustness/write_failures.py): no move shown before it is durable,
none lost at a restart, the board carries on by itself once the disk takes writes again, and a
tape that cannot be written is switched off with one log line while the referee plays on."""

from __future__ import annotations

import os
import shutil

import pytest

from bench.robustness.write_failures import run


def assert_sound(figures: dict, cycles: int) -> None:
    assert figures["cycles"] == cycles and figures["failed_starts"] == 0, figures["problems"]
    assert figures["pauses"] == cycles, figures  # every cycle's writes failed and the board said so
    assert (figures["shown_not_durable"], figures["lost"], figures["invented"]) == (0, 0, 0), figures["problems"]
    assert figures["never_carried_on"] == 0, figures["problems"]
    assert figures["carried_on"] + figures["killed_while_paused"] == cycles
    assert figures["tape_off_lines"] == figures["tape_failures"]  # one line for each tape switched off


def test_a_file_size_limit_loses_no_move_shown_and_the_board_carries_on(tmp_path):
    figures = run(3, seed=1, modes=("fsize",), workdir=tmp_path)
    assert_sound(figures, 3)
    assert figures["tape_failures"] == 3  # the tape, written at every reading, hits the limit first


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="a full tmpfs needs mount, a read-only directory setpriv, both root")
@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_a_full_disk_or_a_read_only_directory_loses_no_move_shown(tmp_path, mode):
    assert_sound(run(2, seed=2, modes=(mode,), workdir=tmp_path), 2)
