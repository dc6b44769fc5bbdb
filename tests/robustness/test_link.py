"""Short runs of the serial-link robustness benches (bench/robustness/link_*.py): the full-size
runs are 1,000 unplug cycles and 10^5 damaged frames; these keep every change facing them."""

from __future__ import annotations

from bench.robustness import link_corruption, link_unplug
from controller.drivers.link.backoff import Backoff


def test_unplug_replug_cycles_always_come_back_in_step():
    # A quick backoff keeps this short; half the cycles reset the MCU, the tenth resets it while up.
    result = link_unplug.run(10, seed=9, unplugged_s=0.1, backoff=Backoff(0.02, 2.0, 0.2))
    assert result["never_in_step"] == 0
    assert result["resets_while_unplugged"] > 0 and result["resets_while_up"] == 1
    assert (result["unexpected_link_changes"], result["unexpected_requests"]) == (0, 0)
    assert result["resync"]["max_s"] is not None


def test_damaged_frames_and_corrupted_bytes_are_never_accepted():
    result = link_corruption.run(3000, seed=9)
    assert (result["accepted"], result["believed"], result["good_frames_lost"]) == (0, 0, 0)
    assert result["bytes"]["corrupted_bytes"] >= 30000 and len(result["damage_kinds"]) == 11
    assert result["bytes"]["in_step_after"] and result["frames"]["in_step_after"]
    assert result["host_stalled"] == "" and result["link_drops"] == 0
