"""Portable test table: baselines from an empty board, drift tracking, the file on flash."""

from calibration import Calibration

NOISE = (0, 40, -35, 12, -50, 28, -7, 50, -22, 9)


def calibrated(rest):
    cal = Calibration(len(rest))
    cal.begin(len(NOISE))
    done = False
    for n in NOISE:
        done = cal.add([r + n for r in rest])
    assert done and not cal.collecting
    return cal


def test_baseline_is_the_mean_and_noise_the_spread():
    cal = calibrated([32000, 33500, 30000])
    assert cal.baseline == [32002, 33502, 30002]   # mean of NOISE is 2.5, floored
    assert cal.noise == [100, 100, 100]
    assert cal.calibrated


def test_scans_before_begin_are_ignored():
    cal = Calibration(2)
    assert not cal.add([1, 2])
    assert cal.baseline == [32768, 32768] and not cal.calibrated


def test_drift_is_followed_slowly():
    cal = calibrated([32000])
    for _ in range(64):                      # 2 ** drift_shift updates
        cal.track(0, 32400)
    # One time constant: about 63 % of the 398-count step.
    assert 32240 <= cal.baseline[0] <= 32260, cal.baseline[0]
    for _ in range(10 * 64):
        cal.track(0, 32400)
    assert 32395 <= cal.baseline[0] <= 32400


def test_drift_has_no_bias_downwards():
    cal = calibrated([32000])
    for _ in range(1000):
        cal.track(0, 32010)
    assert cal.baseline[0] == 32010   # a plain `diff >> shift` would stop short of it
    for _ in range(1000):
        cal.track(0, 31990)
    assert cal.baseline[0] == 31990


def test_track_all_follows_only_settled_empty_holes():
    from wire import EMPTY, NORTH
    cal = calibrated([32000, 32000, 32000, 32000])
    raw = [32300] * 4
    classes = [EMPTY, NORTH, EMPTY, EMPTY]
    stable = [EMPTY, NORTH, NORTH, EMPTY]      # hole 2 reads empty but is not settled yet
    unsettled = [False, False, False, True]    # hole 3's block is turning
    for _ in range(200):
        cal.track_all(raw, classes, stable, unsettled)
    assert cal.baseline[0] > 32250
    assert cal.baseline[1:] == [32002, 32002, 32002]


def test_file_round_trip_and_a_file_for_another_board():
    cal = calibrated([31000, 34000])
    other = Calibration(2)
    other.from_json(cal.to_json())
    assert other.baseline == cal.baseline and other.noise == cal.noise and other.calibrated
    big = Calibration(81)
    try:
        big.from_json(cal.to_json())
    except ValueError as e:
        assert str(e) == "calibration file is for 2 holes, this board has 81"
    else:
        raise AssertionError("a 36-hole file loaded on 81 holes")


def test_begin_refuses_zero_scans():
    try:
        Calibration(1).begin(0)
    except ValueError as e:
        assert "at least 1 scan, got 0" in str(e)
    else:
        raise AssertionError("zero scans accepted")
