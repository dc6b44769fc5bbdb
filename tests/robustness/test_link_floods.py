"""Short run of bench/robustness/link_floods.py (issue 19, items 10, 11 and 12): a real daemon
behind the fake MCU takes a hole flood and still stops cleanly, believes no count a hand cannot
make, and says a bad hello's problem while it keeps reopening the port."""

from __future__ import annotations

from bench.robustness import link_floods


def test_floods_impossible_counts_and_bad_hellos():
    figures = link_floods.run(toggles=3000, watch_s=1.0, hellos=("protocol 2", "firmware not UTF-8"),
                              lies=("event +3006", "snapshot jump 2^31-1", "replayed frame, snapshot 0.6 s late"))
    assert figures["floods"]["drained"]  # the page showed the board as the flood left it
    assert figures["impossible"]["cases"] == 3 and figures["impossible"]["twists_accepted"] == 0, figures["impossible"]
    for hello in figures["bad_hellos"]:
        assert hello["said_s"] is not None and "reflash it" in hello["problem"], hello
        assert hello["connects"] >= 2 and hello["log_lines"] == 1, hello  # retried, said once
