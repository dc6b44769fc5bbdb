"""docs/flow.md is the diagram the machine draws of itself."""

from controller.flow.place_twist import STATES
from controller.games.diagram import DOC, document, mermaid


def test_committed_flow_doc_matches_the_machine() -> None:
    assert DOC.read_text() == document(), "run: python -m controller.games.diagram"


def test_diagram_shows_every_state_and_the_rule_guards() -> None:
    text = mermaid()
    assert text.startswith("---\ntitle: Place then twist\n---\nstateDiagram-v2")
    for state in STATES:
        assert f'state "{state}" as {state}' in text
    assert "awaiting_twist --> game_over: twisted [is_over]" in text
    assert "awaiting_placement --> between_games: placed [is_over & match_goes_on]" in text
    assert "[*] --> choosing" in text
