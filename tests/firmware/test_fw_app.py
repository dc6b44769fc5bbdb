"""Portable test table: the whole firmware loop (app.App) on the simulated board: hello and
snapshot, debounced hole events, encoder steps and unsettled holes during a twist, heartbeats
with the state hash, requests and their acks, calibration, drift, errors and a full heap."""

import boardconfig
import calreport
import wire
from app import HEAP_FULL, App
from sim import SimBoard
from version import FIRMWARE_VERSION


def scratch_file(name):
    try:
        import tempfile
        return tempfile.mkdtemp() + "/" + name
    except ImportError:      # MicroPython: the harness runs in a throwaway in-memory filesystem
        return name


class Rig:
    """An App on a SimBoard with a fake millisecond clock and a decoder for what it sends."""

    def __init__(self, size=6, marbles=()):
        self.sim = SimBoard(boardconfig.parse(boardconfig.default(size)))
        self.sim.noise_counts = 250
        for hole, pole in marbles:
            self.sim.place(hole, pole)
        self.app = App(self.sim.config, self.sim, scratch_file("calibration.json"))
        for hole in range(self.sim.config.hole_count):   # as if calibrated at the factory
            self.app.calibration.set_baseline(hole, self.sim.rest[hole])
        self.now = 0
        self.reader = wire.FrameReader()
        self.host_seq = 0

    def start(self):
        self.app.start(self.now)
        return self.take()

    def run(self, ms):
        for _ in range(ms // 10):
            self.now += 10
            self.app.step(self.now)
        return self.take()

    def take(self):
        out = []
        for chunk in self.sim.outbox:
            for mtype, seq, payload in self.reader.feed(chunk):
                out.append((wire.NAMES[mtype], wire.decode_payload(mtype, payload)))
        del self.sim.outbox[:]
        return out

    def request(self, mtype, fields=None):
        self.sim.inbox += wire.encode_message(mtype, self.host_seq, fields)
        self.host_seq += 1
        return self.host_seq - 1


def events(messages, kind):
    return [fields for name, fields in messages if name == kind]


def test_hello_and_snapshot_describe_the_board_as_it_is():
    rig = Rig(marbles=((0, wire.NORTH), (35, wire.SOUTH)))
    rig.app.calibration.load = lambda path: False
    msgs = rig.start()
    assert [name for name, _ in msgs] == ["hello", "snapshot"]
    hello = msgs[0][1]
    assert (hello["size"], hello["firmware"], hello["protocol"]) == (6, FIRMWARE_VERSION, 1)
    assert hello["caps"] == wire.CAP_POLARITY | wire.CAP_ENCODERS
    assert hello["reset_cause"] == wire.RESET_POWER_ON and hello["boot_id"] == rig.app.boot_id
    snap = msgs[1][1]
    assert snap["classes"][0] == wire.NORTH and snap["classes"][35] == wire.SOUTH
    assert sum(1 for c in snap["classes"] if c != wire.EMPTY) == 2
    assert snap["counts"] == [0, 0, 0, 0]


def test_a_placed_marble_is_one_event_after_the_debounce():
    rig = Rig()
    rig.start()
    rig.sim.place(14, wire.SOUTH)
    assert events(rig.run(20), "hole") == []           # two scans: not yet
    assert events(rig.run(100), "hole") == [{"hole": 14, "cls": wire.SOUTH}]
    rig.sim.lift(14)
    assert events(rig.run(200), "hole") == [{"hole": 14, "cls": wire.EMPTY}]


def test_heartbeat_every_250_ms_carries_the_state_hash():
    rig = Rig()
    rig.start()
    rig.sim.place(7, wire.NORTH)
    beats = events(rig.run(1000), "heartbeat")
    assert len(beats) == 4
    classes = [wire.EMPTY] * 36
    classes[7] = wire.NORTH
    assert beats[-1]["state_hash"] == wire.state_hash(classes, [0, 0, 0, 0])


def test_a_twist_reports_steps_and_the_rotated_marbles_only_after_it_settles():
    rig = Rig(marbles=((33, wire.NORTH),))       # d6, top-left of block 2
    rig.start()
    rig.sim.begin_turn(2)
    rig.sim.encoder_edges(2, 1, bounce=True)
    msgs = rig.run(30)
    rig.sim.encoder_edges(2, 1)
    msgs += rig.run(30)
    assert events(msgs, "hole") == []                  # garbage while turning is never reported
    rig.sim.end_turn(2, 1)
    msgs += rig.run(300)
    assert events(msgs, "encoder") == [{"block": 2, "steps": 1}, {"block": 2, "steps": 1}]
    holes = events(msgs, "hole")
    assert sorted((h["hole"], h["cls"]) for h in holes) == [(33, wire.EMPTY), (35, wire.NORTH)]
    rig.request(wire.REQUEST_SNAPSHOT)
    snap = events(rig.run(10), "snapshot")[0]
    assert snap["counts"] == [0, 2, 0, 0]


def test_a_count_past_the_32_bit_limit_wraps_as_the_protocol_says():
    rig = Rig()
    rig.start()
    rig.app.detents[1] = 2147483647                    # ~500 million turns since boot
    rig.sim.begin_turn(2)
    rig.sim.encoder_edges(2, 1)
    rig.sim.end_turn(2, 1)
    msgs = rig.run(300)
    assert events(msgs, "encoder") == [{"block": 2, "steps": 1}]
    assert rig.app.detents[1] == -2147483648
    assert events(msgs, "heartbeat")[-1]["state_hash"] == wire.state_hash(
        rig.app.debouncer.stable, [0, -2147483648, 0, 0])
    rig.request(wire.REQUEST_SNAPSHOT)
    assert events(rig.run(10), "snapshot")[0]["counts"] == [0, -2147483648, 0, 0]


def test_requests_are_answered():
    rig = Rig()
    rig.start()
    table = (
        (wire.PING, None, ("ack", wire.OK)),
        (wire.SET_CONFIG, {"key": "debounce_scans", "value": 5}, ("ack", wire.OK)),
        (wire.SET_CONFIG, {"key": "colour", "value": 1}, ("ack", wire.UNKNOWN_KEY)),
        (wire.SET_CONFIG, {"key": "scan_ms", "value": 0}, ("ack", wire.BAD_VALUE)),
        (wire.SET_CONFIG, {"key": "north_threshold", "value": 1000}, ("ack", wire.BAD_VALUE)),
        (wire.SET_CONFIG, {"key": "south_threshold", "value": -6000}, ("ack", wire.OK)),
        (wire.CALIBRATE, {"kind": 7}, ("ack", wire.BAD_VALUE)),
        (wire.REQUEST_SNAPSHOT, None, ("snapshot", None)),
    )
    for mtype, fields, (answer, status) in table:
        seq = rig.request(mtype, fields)
        msgs = [m for m in rig.run(10) if m[0] not in ("heartbeat", "log")]
        assert msgs[0][0] == answer, (mtype, msgs)
        if answer == "ack":
            assert msgs[0][1] == {"ref_seq": seq, "status": status}, (mtype, fields, msgs)
    assert rig.app.debouncer.hold_scans == 5
    assert rig.app.classifier.south_threshold == -6000
    assert rig.app.classifier.north_threshold == 5000


def test_unknown_and_malformed_requests_get_their_status():
    rig = Rig()
    rig.start()
    rig.sim.inbox += wire.encode_frame(0x4F, 9, b"")
    rig.sim.inbox += wire.encode_frame(wire.CALIBRATE, 10, b"\x00\x01")
    acks = events(rig.run(10), "ack")
    assert acks == [{"ref_seq": 9, "status": wire.UNKNOWN_MESSAGE},
                    {"ref_seq": 10, "status": wire.BAD_PAYLOAD}]


def test_connect_gets_hello_and_snapshot_again_from_the_same_boot():
    rig = Rig()
    first = rig.start()[0][1]
    rig.request(wire.CONNECT, {"protocol": 1})
    again = rig.run(10)
    assert [n for n, _ in again][:2] == ["hello", "snapshot"]
    assert again[0][1]["boot_id"] == first["boot_id"]     # the Pi must not think we restarted


def calibrate(rig):
    seq = rig.request(wire.CALIBRATE, {"kind": wire.CALIBRATE_EMPTY})
    msgs = rig.run(10 * (rig.app.calibration_scans + 2))
    lines = [calreport.parse(f["text"]) for f in events(msgs, "log")]
    ack = events(msgs, "ack")
    assert ack[0]["ref_seq"] == seq
    return ack[0]["status"], [l for l in lines if l]


def test_calibration_reports_every_hole_and_is_saved():
    rig = Rig()
    rig.start()
    for hole in range(36):
        rig.app.calibration.set_baseline(hole, 30000)   # stale factory values
    status, lines = calibrate(rig)
    assert status == wire.OK
    assert lines[0] == ("bands", {"empty": 1500, "north": 5000, "south": -5000, "hysteresis": 500})
    holes = [fields for kind, fields in lines if kind == "hole"]
    assert [h["n"] for h in holes] == list(range(36))
    assert all(abs(h["baseline"] - rig.sim.rest[h["n"]]) < 120 for h in holes)
    again = Rig()
    assert again.app.calibration.load(rig.app.calibration_file)
    assert again.app.calibration.baseline == rig.app.calibration.baseline


def test_a_second_calibration_request_supersedes_the_first():
    rig = Rig()
    rig.start()
    first = rig.request(wire.CALIBRATE, {"kind": wire.CALIBRATE_EMPTY})
    rig.run(50)
    second = rig.request(wire.CALIBRATE, {"kind": wire.CALIBRATE_EMPTY})
    acks = events(rig.run(10 * (rig.app.calibration_scans + 2)), "ack")
    assert acks == [{"ref_seq": first, "status": wire.FAILED}, {"ref_seq": second, "status": wire.OK}]


def test_calibration_with_a_marble_left_on_fails_and_keeps_the_old_baselines():
    rig = Rig(marbles=((20, wire.NORTH),))
    rig.start()
    before = list(rig.app.calibration.baseline)
    status, lines = calibrate(rig)
    assert status == wire.FAILED
    bad = [f for kind, f in lines if kind == "hole" and f["n"] == 20][0]
    assert calreport.problems(bad["baseline"], bad["noise"], 1500).startswith("rest level")
    after = rig.app.calibration.baseline
    # Back to the old values (give or take the drift tracking of the scans since).
    assert max(abs(a - b) for a, b in zip(after, before)) < 20
    assert abs(after[20] - rig.sim.rest[20]) < 20      # not learnt with the marble on it


def test_slow_drift_of_an_empty_hole_is_followed_without_events():
    rig = Rig()
    rig.start()
    msgs = []
    for step in range(30):                     # +1800 counts over 30 s: past the empty band
        rig.sim.rest[3] += 60
        msgs += rig.run(1000)
    assert events(msgs, "hole") == []
    assert abs(rig.app.calibration.baseline[3] - rig.sim.rest[3]) < 700


def test_nine_by_nine_board_runs_the_same_loop():
    rig = Rig(size=9)
    rig.start()
    rig.sim.place(80, wire.NORTH)
    assert events(rig.run(100), "hole") == [{"hole": 80, "cls": wire.NORTH}]


def fail_first_reads(rig, error, times):
    """The first ADC input raises ``error`` on its next ``times`` reads, then reads as before."""
    reads = rig.sim.adc_readers()
    left = [times]

    def failing():
        if left[0]:
            left[0] -= 1
            raise error
        return reads[0]()

    rig.app.mux._adcs = [failing] + reads[1:]


def knock_after(rig, polls):
    """mpremote knocks after ``polls`` reads of the port, ending run()."""
    count = [0]

    def read():
        count[0] += 1
        return b"\r\x03" if count[0] == polls else b""

    rig.sim.read = read


def test_an_error_in_the_loop_becomes_a_log_line_and_scanning_goes_on():
    rig = Rig()
    rig.start()
    fail_first_reads(rig, OSError(5), 3)
    knock_after(rig, 8)
    rig.app.scan_ms = 1
    rig.app.run()
    logs = events(rig.take(), "log")
    assert logs == [{"text": "error: OSError(5,)"}] or logs == [{"text": "error: OSError(5)"}]
    assert rig.app.scanner.scans >= 5 and rig.app.link.wants_repl


def test_a_full_heap_restarts_the_board_without_a_word():
    rig = Rig()
    rig.start()
    fail_first_reads(rig, MemoryError(), 2)
    knock_after(rig, 6)
    rig.app.scan_ms = 1
    rig.app.run()
    assert rig.sim.restarts == [HEAP_FULL, HEAP_FULL]   # the sim's restart returns; a Pico's does not
    logs = [log["text"] for log in events(rig.take(), "log")]
    assert not [text for text in logs if text.startswith("error")]   # nothing fits, not even a line


def test_every_hello_after_a_restart_says_why():
    rig = Rig()
    rig.sim.restarted_because = lambda: HEAP_FULL
    rig.app = App(rig.sim.config, rig.sim, scratch_file("calibration.json"))
    names = [name for name, _ in rig.start()]
    assert names == ["hello", "snapshot", "log"]
    rig.request(wire.CONNECT, {"protocol": wire.PROTOCOL_VERSION})
    answer = rig.run(10)
    assert [name for name, _ in answer if name != "heartbeat"] == ["hello", "snapshot", "log"]
    assert events(answer, "log") == [{"text": "restarted: the heap was full"}]
