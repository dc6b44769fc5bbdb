"""Short run of bench/robustness/web_floods.py against a real daemon (issue 19, items 12 and 14):
malformed HTTP is answered 4xx and costs the log one short line, never the token; a flood of
new games is taken or refused busy, and the daemon still stops cleanly behind it."""

from __future__ import annotations

from bench.robustness import web_floods


def test_a_malformed_http_flood_and_a_command_flood():
    figures = web_floods.run(malformed_count=120, command_count=200)
    flood = figures["malformed"]
    assert all(answer.split()[1] in ("400", "401", "404") for answer in flood["answers"]), flood
    assert sum(flood["answers"].values()) == 120
    assert (flood["token_in_log"], flood["tracebacks"]) == (0, 0)
    assert flood["log_lines"] == 1  # one short line per client a minute
    commands = figures["commands"]
    assert set(commands["statuses"]) <= {202, 503} and commands["exit"] == 0, commands
