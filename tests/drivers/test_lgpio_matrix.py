"""The matrix on lgpio's group calls, against a model of a gpiochip with build A's diode matrix
behind it (the real chip is in bench/pi_vm: a kernel GPIO bank in a VM, read by the daemon)."""

from __future__ import annotations

import logging
import sys
import types

import pytest

from controller.profile import load_profile

PINS = load_profile("A-6x6").gpio


class Chip:
    """One gpiochip: lines claimed by handles (a line claimed twice is 'GPIO busy', as the
    kernel says), rows driven, columns pulled up and pulled low through closed switches."""

    def __init__(self) -> None:
        self.owner: dict[int, int] = {}  # line -> handle
        self.level: dict[int, int] = {}  # driven lines
        self.groups: dict[tuple[int, int], list[int]] = {}  # (handle, leader) -> lines
        self.closed: set[int] = set()  # holes
        self.calls = 0
        self.handles = 0

    def column_level(self, line: int) -> int:
        c = PINS.matrix_columns.index(line)
        for r, row in enumerate(PINS.matrix_rows):
            if self.level.get(row) == 0 and PINS.matrix_holes[r * 6 + c] in self.closed:
                return 0
        return 1

    def module(self) -> types.ModuleType:
        chip, lgpio = self, types.ModuleType("lgpio")

        class error(Exception):
            pass

        def gpiochip_open(number):
            chip.handles += 1
            return chip.handles

        def claim(handle, lines):
            if any(chip.owner.get(line, handle) != handle for line in lines):
                raise error("'GPIO busy'")
            chip.owner.update({line: handle for line in lines})
            chip.groups[handle, lines[0]] = list(lines)

        def group_claim_output(handle, lines, levels):
            claim(handle, lines)
            chip.level.update(zip(lines, levels))

        def group_write(handle, leader, bits, mask=~0):
            chip.calls += 1
            for i, line in enumerate(chip.groups[handle, leader]):
                chip.level[line] = bits >> i & 1

        def group_read(handle, leader):
            chip.calls += 1
            lines = chip.groups[handle, leader]
            return len(lines), sum(chip.column_level(line) << i for i, line in enumerate(lines))

        def gpiochip_close(handle):
            for line in [line for line, owner in chip.owner.items() if owner == handle]:
                del chip.owner[line]
                chip.level.pop(line, None)

        lgpio.error, lgpio.SET_PULL_UP = error, 32
        lgpio.gpiochip_open, lgpio.gpiochip_close = gpiochip_open, gpiochip_close
        lgpio.group_claim_output, lgpio.group_write, lgpio.group_read = group_claim_output, group_write, group_read
        lgpio.group_claim_input = lambda handle, lines, flags: claim(handle, lines)
        return lgpio


@pytest.fixture
def chip(monkeypatch):
    chip = Chip()
    monkeypatch.setitem(sys.modules, "lgpio", chip.module())
    monkeypatch.delitem(sys.modules, "controller.drivers.gpio.lgpio_matrix", raising=False)
    return chip


def matrix(chip):
    from controller.drivers.gpio.lgpio_matrix import LgpioMatrix

    return LgpioMatrix(PINS.matrix_rows, PINS.matrix_columns, PINS.matrix_holes, chip=0)


@pytest.mark.parametrize("holes", [set(), {20}, {0, 5, 30, 35, 14, 21, 7, 28}, set(range(36))])
def test_every_hole_reads_as_its_switch_is(chip, holes):
    reader = matrix(chip)
    chip.closed = holes
    assert [i for i, closed in enumerate(reader.read()) if closed] == sorted(holes)
    assert {chip.level[row] for row in PINS.matrix_rows} == {1}  # rows left idle
    reader.close()


def test_a_scan_is_one_call_to_drive_and_one_to_read_each_row(chip):
    reader = matrix(chip)
    chip.calls = 0
    reader.read()
    assert chip.calls == 2 * 6 + 1  # gpiozero pin by pin: 6 x (on + 6 reads + off) = 84
    reader.close()


def test_close_releases_every_line_and_can_be_called_twice(chip):
    reader = matrix(chip)
    reader.close()
    reader.close()
    assert chip.owner == {}
    matrix(chip).close()  # the lines can be claimed again


def test_a_line_already_claimed_releases_what_was_claimed(chip):
    chip.owner[PINS.matrix_columns[2]] = 99  # another program holds a column
    with pytest.raises(Exception, match="GPIO busy"):
        matrix(chip)
    assert set(chip.owner) == {PINS.matrix_columns[2]}


def test_a_chip_that_will_not_let_go_is_one_log_line_and_stop_goes_on(chip, monkeypatch, caplog):
    """issue 25 item 3: stopping on lgpio printed a traceback ('GPIO busy'); a refusal to
    release is one warning naming the matrix, without a traceback, and a second close is quiet."""
    import lgpio

    reader = matrix(chip)

    def refuse(handle):
        raise lgpio.error("'GPIO busy'")

    monkeypatch.setattr(lgpio, "gpiochip_close", refuse)
    with caplog.at_level(logging.WARNING, logger="controller.drivers.gpio"):
        reader.close()
        reader.close()
    assert [(r.getMessage(), r.exc_info) for r in caplog.records] == [
        ("could not release the matrix lines: 'GPIO busy'", None)]
