"""A message that comes back at every retry is logged once, then counted (issue 19, item 17)."""

import logging

from controller.repeats import Repeats


def test_a_new_message_says_how_often_the_last_came_back_and_is_logged_itself(caplog):
    said = Repeats(logging.getLogger("pentago_board"), logging.ERROR)
    with caplog.at_level(logging.ERROR):
        assert said.say("broker a.example: name does not resolve") is True
        assert [said.say("broker a.example: name does not resolve") for _ in range(40)] == [False] * 40
        assert said.say("broker a.example: connection refused") is True
    assert caplog.messages == ["broker a.example: name does not resolve",
                               "broker a.example: name does not resolve (40 more times)",
                               "broker a.example: connection refused"]
    assert all(r.levelno == logging.ERROR for r in caplog.records)
