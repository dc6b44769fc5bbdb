"""Fixtures the daemon's tests share."""

from __future__ import annotations

import logging

import pytest


@pytest.fixture
def logs(caplog):
    """The daemon's log lines (its logger does not propagate once configured; here it does)."""
    logger = logging.getLogger("pentago_board")
    propagate, logger.propagate = logger.propagate, True
    with caplog.at_level(logging.INFO, logger="pentago_board"):
        yield caplog
    logger.propagate = propagate
