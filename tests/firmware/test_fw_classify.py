"""Portable test table (runs under CPython/pytest and inside MicroPython): classification with
noisy readings, hysteresis, and the bands' validation."""

from classify import Classifier
from wire import EMPTY, NORTH, SOUTH, UNSURE

# A deterministic noise sequence (+-450 counts): no random module needed on either interpreter.
NOISE = (0, 310, -450, 120, 449, -300, -17, 260, -449, 75)

# (delta, current class, expected class)
CASES = (
    (0, EMPTY, EMPTY),
    (1500, EMPTY, EMPTY),
    (1900, EMPTY, EMPTY),      # inside the empty band's hysteresis
    (2100, EMPTY, UNSURE),
    (1900, NORTH, UNSURE),     # a marble leaving does not get the empty band's slack
    (1400, NORTH, EMPTY),
    (5000, EMPTY, NORTH),
    (4700, EMPTY, UNSURE),     # not yet north from empty
    (4700, NORTH, NORTH),      # still north inside the hysteresis
    (4400, NORTH, UNSURE),
    (-5000, EMPTY, SOUTH),
    (-4700, SOUTH, SOUTH),
    (-4700, UNSURE, UNSURE),
    (-4700, NORTH, UNSURE),    # north's slack never reaches across to the south band
    (9000, SOUTH, NORTH),      # marbles swapped between scans
    (-9000, NORTH, SOUTH),
)


def test_case_table():
    c = Classifier(north_threshold=5000, south_threshold=-5000, empty_max_counts=1500,
                   hysteresis_counts=500)
    for delta, current, expected in CASES:
        got = c.classify(delta, current)
        assert got == expected, (delta, current, got, expected)


def test_noisy_marble_near_the_edge_never_flickers():
    c = Classifier(north_threshold=5000, south_threshold=-5000)
    cls = c.classify(5200, EMPTY)
    assert cls == NORTH
    for n in NOISE * 5:
        cls = c.classify(5000 + n, cls)
        assert cls == NORTH, n


def test_noisy_empty_hole_stays_empty():
    c = Classifier()
    cls = EMPTY
    for n in NOISE * 5:
        cls = c.classify(n * 3, cls)   # +-1350 counts
        assert cls == EMPTY, n


def test_without_hysteresis_the_same_noise_flickers():
    # Proves the noise above is large enough to matter: hysteresis is what keeps it steady.
    c = Classifier(north_threshold=5000, south_threshold=-5000, hysteresis_counts=0)
    seen = set()
    cls = NORTH
    for n in NOISE:
        cls = c.classify(5000 + n, cls)
        seen.add(cls)
    assert seen == {NORTH, UNSURE}


def test_overlapping_thresholds_are_refused_with_the_values():
    c = Classifier()
    try:
        c.set_thresholds(2000, -5000)
    except ValueError as e:
        assert "north=2000" in str(e) and "2500" in str(e), str(e)
    else:
        raise AssertionError("overlapping bands accepted")
    assert c.north_threshold == 5000


def test_margins_of_a_quiet_and_a_noisy_hole():
    c = Classifier(north_threshold=5000, south_threshold=-6000, empty_max_counts=1500)
    assert c.margins(200) == (1400, 3500)
    assert c.margins(3200) == (-100, 3500)


def test_classify_all_decides_like_classify():
    c = Classifier(north_threshold=5000, south_threshold=-5000, empty_max_counts=1500,
                   hysteresis_counts=500)
    deltas = [d for d, _, _ in CASES] + [5000 + n for n in NOISE] + [n * 3 for n in NOISE]
    for current in (EMPTY, NORTH, SOUTH, UNSURE):
        classes = [current] * len(deltas)
        baseline = [30000] * len(deltas)
        changed = []
        c.classify_all([30000 + d for d in deltas], baseline, classes, changed)
        expected = [c.classify(d, current) for d in deltas]
        assert classes == expected, current
        assert changed == [h for h, cls in enumerate(expected) if cls != current], current
