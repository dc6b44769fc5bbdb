"""The doctest examples in the daemon's modules run with the suite (testpaths skips controller/)."""

import doctest

from controller.daemon.web import record


def test_record_examples():
    assert doctest.testmod(record).failed == 0
