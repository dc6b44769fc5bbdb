"""Portable test table: board config validation, mux switching costs, and full scans of both
board sizes through the simulated field."""

import boardconfig
from calibration import Calibration
from mux import Mux, gray
from scanner import Scanner
from sim import SimBoard
from wire import NORTH, SOUTH


def no_sleep(_us):
    pass


def build(size):
    config = boardconfig.parse(boardconfig.default(size))
    sim = SimBoard(config)
    mux = Mux(sim.select_setters(), sim.adc_readers(), no_sleep)
    return config, sim, mux, Scanner(config, mux)


def refused(data, text):
    try:
        boardconfig.parse(data)
    except ValueError as e:
        assert str(e) == text, str(e)
    else:
        raise AssertionError("accepted a bad config: " + text)


def test_gray_sequence_changes_one_line_per_step():
    for i in range(31):
        diff = gray(i) ^ gray(i + 1)
        assert diff and diff & (diff - 1) == 0, i
    assert sorted(gray(i) for i in range(32)) == list(range(32))


def test_both_sizes_come_from_the_same_code():
    for size, holes, muxes in ((6, 36, 16), (9, 81, 32)):
        config, sim, mux, scanner = build(size)
        assert config.hole_count == holes and mux.channels == muxes
        assert len(scanner.scan()) == holes


def test_scan_reads_every_hole_after_its_discarded_read():
    config, sim, mux, scanner = build(6)
    sim.noise_counts = 0
    sim.place(14, NORTH)
    sim.place(0, SOUTH)
    raw = scanner.scan()
    for hole in range(36):
        assert abs(raw[hole] - sim.field(hole)) == 0, hole
    assert raw[14] - sim.rest[14] == sim.marble_counts
    assert sim.rest[0] - raw[0] == sim.marble_counts


def test_without_the_discarded_read_a_hole_reads_its_neighbour():
    # Reading straight after each switch, as a naive scanner would, gets the previous signal.
    config, sim, mux, scanner = build(6)
    sim.noise_counts = 0
    sim.place(14, NORTH)
    readers = sim.adc_readers()
    wrong = []
    for adc, holes in enumerate(config.channels):
        for address, hole in enumerate(holes):
            if hole is not None:
                mux.select(address)
                if readers[adc]() != sim.field(hole):
                    wrong.append(hole)
    assert wrong, "the stale sample should have shown up somewhere"


def test_work_per_scan_is_one_pin_write_per_address():
    for size, addresses in ((6, 11), (9, 26)):   # 12 and 27 addresses, one fewer switches
        config, sim, mux, scanner = build(size)
        writes = []
        setters = sim.select_setters()
        mux._select = [counted(writes, setter) for setter in setters]
        for scan in range(4):
            del writes[:]
            reads = sim.adc_reads
            assert scanner.scan() is scanner.raw
            assert len(writes) == addresses + (len(setters) if scan == 0 else 0), (size, scan)
            assert sim.adc_reads - reads == 2 * size * size, size
        assert [abs(scanner.raw[h] - sim.field(h)) <= 2 * sim.noise_counts for h in range(4)]


def counted(log, setter):
    def write(level):
        log.append(level)
        setter(level)
    return write


def test_both_directions_read_the_same_values():
    config, sim, mux, scanner = build(9)
    sim.noise_counts = 0
    sim.place(40, NORTH)
    first = list(scanner.scan())
    second = list(scanner.scan())
    assert first == second == [sim.field(h) for h in range(81)]


def test_calibration_from_scans_finds_each_rest_level():
    config, sim, mux, scanner = build(9)
    cal = Calibration(81)
    cal.begin(16)
    while cal.collecting:
        cal.add(scanner.scan())
    worst = max(abs(cal.baseline[h] - sim.rest[h]) for h in range(81))
    assert worst <= 150, worst
    assert max(cal.noise) <= 2 * sim.noise_counts


def test_config_errors_name_the_value():
    good = boardconfig.default(6)
    bad = dict(good)
    bad["size"] = 7
    refused(bad, "board config: size must be 6 or 9, got 7")
    bad = dict(good)
    del bad["adc_pins"]
    refused(bad, "board config: missing 'adc_pins'")
    bad = dict(good)
    bad["channels"] = [list(c) for c in good["channels"]]
    bad["channels"][1][0] = 0
    refused(bad, "board config: hole 0 is on channels[0][0] and channels[1][0]")
    bad["channels"][1][0] = 99
    refused(bad, "board config: channels[1][0] = 99 is not a hole of a 6x6 board")
    bad["channels"][1][0] = None
    refused(bad, "board config: holes [1] have no mux channel")
    bad = dict(good)
    bad["encoders"] = good["encoders"][:3]
    refused(bad, "board config: 3 encoders for 4 blocks")


def test_sim_turn_rotates_marbles_and_drives_the_encoder():
    from encoders import Encoders
    config, sim, mux, scanner = build(6)
    enc = Encoders(4)
    for i, (a, b) in enumerate(sim.pins):
        enc.attach(i, a, b, sim.irq_both_edges)
    sim.place(33, NORTH)        # d6: top-left of block 2 (top-right block)
    sim.begin_turn(2)
    sim.encoder_edges(2, 3, bounce=True)
    sim.end_turn(2, 1)
    assert sim.marbles == {35: NORTH}   # f6: a clockwise quarter moves top-left to top-right
    assert enc.take_steps(1) == 3 and enc.errors[1] == 0


def test_shipped_board_files_are_the_reference_wiring():
    import wire
    folder = wire.__file__.rsplit("/", 1)[0] if "/" in wire.__file__ else "."
    for size in (6, 9):
        config = boardconfig.load(folder + "/board-%d.json" % size)
        assert config.size == size
        with open(folder + "/board-%d.json" % size) as f:
            import json
            assert json.loads(f.read()) == boardconfig.default(size)
