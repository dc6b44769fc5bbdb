"""Portable test table: per-hole deferred debounce (scans and milliseconds)."""

from debounce import Debouncer
from wire import EMPTY, NORTH, SOUTH, UNSURE

# Each row: (ms, class read this scan, unsettled, expected stable class after the scan)
ROLLING_MARBLE = (
    (0, EMPTY, False, EMPTY),
    (10, NORTH, False, EMPTY),     # first sight of a marble
    (20, EMPTY, False, EMPTY),     # it bounced out: the wait restarts
    (30, NORTH, False, EMPTY),
    (40, NORTH, False, EMPTY),
    (50, NORTH, False, EMPTY),     # three scans but only 20 ms since 30
    (60, NORTH, False, NORTH),     # 30 ms and four scans: accepted
    (70, UNSURE, False, NORTH),
    (80, NORTH, False, NORTH),
)

TWISTED_BLOCK = (
    (0, NORTH, False, NORTH),
    (10, EMPTY, True, NORTH),      # nothing is accepted while the block turns ...
    (20, SOUTH, True, NORTH),      # ... garbage restarts the wait; the marble lands at 30
    (30, SOUTH, True, NORTH),
    (40, SOUTH, True, NORTH),
    (50, SOUTH, True, NORTH),
    (60, SOUTH, False, SOUTH),     # still at last: held since 20, accepted at once
    (70, SOUTH, False, SOUTH),
)

TWIST_ENDING_AS_IT_SETTLES = (
    (0, NORTH, False, NORTH),
    (10, EMPTY, True, NORTH),
    (20, EMPTY, True, NORTH),
    (30, SOUTH, False, NORTH),     # the block counts as still as the new class first shows
    (40, SOUTH, False, NORTH),
    (50, SOUTH, False, NORTH),     # three scans but only 20 ms
    (60, SOUTH, False, SOUTH),
)


def run(table, initial):
    d = Debouncer(4, initial, hold_scans=3, hold_ms=30)
    changes = 0
    for ms, cls, unsettled, expected in table:
        changes += d.update(2, cls, ms, unsettled)
        assert d.stable[2] == expected, (ms, cls, d.stable[2], expected)
    assert d.stable[0] == initial and d.stable[3] == initial   # other holes untouched
    return changes


def test_rolling_marble_is_accepted_once():
    assert run(ROLLING_MARBLE, EMPTY) == 1


def test_twisted_block_holes_wait_until_settled_and_count_the_wait_while_turning():
    assert run(TWISTED_BLOCK, NORTH) == 1
    assert run(TWIST_ENDING_AS_IT_SETTLES, NORTH) == 1


def test_slow_scans_need_the_scan_count_too():
    d = Debouncer(1, EMPTY, hold_scans=3, hold_ms=30)
    assert not d.update(0, NORTH, 0)
    assert not d.update(0, NORTH, 100)     # long enough, but only two scans
    assert d.update(0, NORTH, 200)


def test_ticks_wrap_does_not_stall_the_wait():
    from compat import ticks_add
    start = ticks_add(0, -15)              # 15 ms before the counter wraps
    d = Debouncer(1, EMPTY, hold_scans=2, hold_ms=30)
    assert not d.update(0, SOUTH, start)
    assert not d.update(0, SOUTH, ticks_add(start, 20))
    assert d.update(0, SOUTH, ticks_add(start, 30))


def test_bad_settings_are_refused():
    try:
        Debouncer(1, EMPTY, hold_scans=0)
    except ValueError as e:
        assert "hold_scans >= 1" in str(e)
    else:
        raise AssertionError("hold_scans=0 accepted")


def test_update_all_reports_the_holes_that_changed():
    one = Debouncer(3, EMPTY, hold_scans=2, hold_ms=10)
    many = Debouncer(3, EMPTY, hold_scans=2, hold_ms=10)
    scans = ((0, (NORTH, EMPTY, SOUTH)), (10, (NORTH, EMPTY, SOUTH)), (20, (NORTH, UNSURE, SOUTH)),
             (30, (NORTH, UNSURE, SOUTH)), (40, (EMPTY, UNSURE, SOUTH)))
    unsettled = [False, False, True]
    last = [EMPTY] * 3
    for ms, classes in scans:
        if ms == 30:
            unsettled[2] = False                  # the block stopped: hole 2 may now change
        touched = [h for h in range(3) if classes[h] != last[h]]
        last = list(classes)
        changed = []
        many.update_all(list(classes), ms, unsettled, touched, changed)
        expected = [h for h in range(3) if one.update(h, classes[h], ms, unsettled[h])]
        assert sorted(changed) == expected, (ms, changed, expected)   # within a scan, any order
        assert many.stable == one.stable, ms
    assert many.stable == [NORTH, UNSURE, SOUTH]     # hole 0 read empty only once at the end
