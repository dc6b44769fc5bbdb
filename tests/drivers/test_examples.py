"""The examples in the drivers' docstrings run (pytest's doctest collection covers rules only)."""

import doctest

import pytest

from controller.commands import inputs
from controller.drivers import factory, grid, pixels, virtual
from controller.drivers.gpio import debounce

MODULES = [pixels, virtual, factory, debounce, inputs, grid]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
