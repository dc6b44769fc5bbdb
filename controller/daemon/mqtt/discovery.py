"""Home Assistant MQTT discovery: the retained config messages that make the board a device.

Following Home Assistant's single-component discovery: one retained JSON config per entity on
``<discovery_prefix>/<component>/<node_id>/<object_id>/config``, each with a ``unique_id``, the
same ``device`` block (so the entities group under one device named after the board), the
board's ``status`` topic for availability (``online``; ``offline``, the last will; ``stopped``
reads as unavailable too), and
templates reading the retained ``state`` topic. The entities: the state in words (what the
board asks for now), the game, whose turn it is, the last move and the winner (sensors), and
two buttons: "New game" (a ``new_game`` command with the config's game defaults) and "Hint" (a
``hint`` command: the board lights a move for the player to move, where the game allows hints).
"""

from __future__ import annotations

import json
from typing import Any

from .topics import OFFLINE, ONLINE, Topics

# Any status but online ("stopped": the referee does not answer) makes the board unavailable.
AVAILABILITY = f"{{{{ '{ONLINE}' if value == '{ONLINE}' else '{OFFLINE}' }}}}"
SENSORS = (  # object id, name, template over the published state, icon
    ("state", "State", "{{ value_json.summary.doing }}", "mdi:state-machine"),
    ("game", "Game", "{{ value_json.game or '' }}", "mdi:gamepad-variant"),
    ("turn", "Whose turn", "{{ value_json.summary.turn }}", "mdi:account-arrow-right"),
    ("last_move", "Last move", "{{ value_json.summary.last_move }}", "mdi:arrow-right-bold"),
    ("winner", "Winner", "{{ value_json.summary.winner }}", "mdi:trophy"),
)


def discovery_messages(topics: Topics, discovery_prefix: str, new_game_args: dict[str, Any],
                       version: str) -> list[tuple[str, str]]:
    """(topic, payload) of every config message, in the order to publish them."""
    node = f"pentago_{topics.board}"
    common = _common(topics, node, version)
    found = [(f"{discovery_prefix}/sensor/{node}/{object_id}/config", json.dumps({
        **common, "name": name, "unique_id": f"{node}_{object_id}", "state_topic": topics.state,
        "value_template": template, "icon": icon}))
        for object_id, name, template, icon in SENSORS]
    buttons = (("new_game", "New game", {"name": "new_game", "args": new_game_args}, "mdi:restart"),
               ("hint", "Hint", {"name": "hint"}, "mdi:lightbulb-on-outline"))
    found += [(f"{discovery_prefix}/button/{node}/{object_id}/config", json.dumps({
        **common, "name": name, "unique_id": f"{node}_{object_id}", "command_topic": topics.command,
        "payload_press": json.dumps(press), "icon": icon}))
        for object_id, name, press, icon in buttons]
    return found


def _common(topics: Topics, node: str, version: str) -> dict[str, Any]:
    return {
        "availability_topic": topics.status, "payload_available": ONLINE, "payload_not_available": OFFLINE,
        "availability_template": AVAILABILITY,
        "device": {"identifiers": [node], "name": f"Pentago board {topics.board}",
                   "manufacturer": "pentago-board", "model": "Pentago referee board", "sw_version": version},
        "origin": {"name": "pentago-board", "sw_version": version},
        "qos": 1,
    }
