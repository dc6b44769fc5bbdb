"""No byte the Pi sends during the Pico's boot may stop the firmware (issue 20 item 4).

MicroPython turns a 0x03 from the host into KeyboardInterrupt while main.py runs, unless the
program turns that off; Pi frames hold 0x03 bytes (a connect with host seq 3 does). Here the Pi
sends every connect, request_snapshot and ping frame it can send (all 256 sequence numbers of
each), one every 1.3 ms of emulated time from power-on until after the hello: whatever the
moment, the firmware must come up and answer."""

import wire
from conftest import need_pico
from pico import Pico

REQUESTS = (
    (wire.CONNECT, {"protocol": wire.PROTOCOL_VERSION}),
    (wire.REQUEST_SNAPSHOT, None),
    (wire.PING, None),
)
BOOT_MS = 1300
DRAIN_MS = 10000   # emulated: the firmware answers about 150 requests a second


def every_boot_frame():
    return [wire.encode_message(mtype, seq, fields) for mtype, fields in REQUESTS for seq in range(256)]


def test_every_frame_the_pi_sends_during_boot_leaves_the_firmware_running():
    need_pico()
    frames = every_boot_frame()
    assert sum(b"\x03" in frame for frame in frames) >= 19   # the frames that hold a Ctrl-C
    step_ms = BOOT_MS / len(frames)
    with Pico(6) as pico:
        pico.send_at([(i * step_ms, frame) for i, frame in enumerate(frames)])
        pico.run(BOOT_MS + 100)
        text = pico.received()
        assert b"KeyboardInterrupt" not in text and b">>>" not in text, text[-400:]
        pico.wait_for("hello", limit_ms=500)
        # It answers every queued frame: the last one is the ping with seq 255.
        for _ in range(DRAIN_MS // 250):
            acks = [m.fields["ref_seq"] for m in pico.messages() if m.name == "ack"]
            if 255 in acks:
                break
            pico.run(250)
        assert acks == list(range(256))
