"""Whatever the Pi's end of the port sends, the firmware's loop never raises and keeps reporting:
arbitrary bytes, and any type and payload behind a good CRC. (CPython only: hypothesis; the
portable tables in test_fw_*.py also run inside MicroPython.)"""

from hypothesis import given, settings
from hypothesis import strategies as st

import wire
from test_fw_app import Rig, events

requests = st.one_of(
    st.binary(max_size=300),
    st.builds(lambda t, s, p: wire.encode_frame(t, s, p), st.integers(0, 255), st.integers(0, 255),
              st.binary(max_size=40)),
    st.builds(lambda k, v: wire.encode_message(wire.SET_CONFIG, 1, {"key": k, "value": v}),
              st.sampled_from(sorted(wire.CONFIG_KEYS) + ["", "x"]), st.integers(-2**31, 2**31 - 1)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(requests, max_size=8))
def test_any_request_bytes_leave_the_loop_running(sent):
    rig = Rig()
    rig.start()
    for data in sent:
        rig.sim.inbox += data
        rig.run(20)  # App.step raises straight through here: run() would only log it
    rig.app.heartbeat_ms = 250  # a set_config may have changed it; the loop must still beat
    assert events(rig.run(600), "heartbeat")
