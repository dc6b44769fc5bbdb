"""Every state a game's flow publishes has words for people (the web page, MQTT, Home Assistant)."""

from controller.core.snapshot import STATE_WORDS
from controller.games import GAMES


def test_every_state_of_every_games_flow_has_words_as_it_is_published():
    states = {spec.flow.published.get(state, state) for spec in GAMES for state in spec.flow.machine_states}
    assert states and states <= STATE_WORDS.keys(), sorted(states - STATE_WORDS.keys())


def test_words_that_ask_a_seat_begin_with_to_so_the_seats_name_can_lead():
    asking = {state for state, words in STATE_WORDS.items() if words.startswith("to ")}
    assert asking == {"awaiting_placement", "awaiting_twist", "confirming_colour"}
