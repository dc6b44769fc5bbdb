"""Whatever a hand-edited profile holds, loading it gives a Profile or a ProfileError: never
another exception that would crash the daemon at start-up."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.errors import ProfileError
from controller.profile import PROFILE_DIR, parse_profile, shipped_profiles

DOCUMENTS = {name: tomllib.loads((PROFILE_DIR / f"{name}.toml").read_text())
             for name in shipped_profiles()}

SCALARS = st.one_of(
    st.booleans(), st.integers(-(10**12), 10**12), st.floats(), st.text(max_size=6),
    st.sampled_from(["a1", "f6", "i9", "serpentine", "1R", "9L", "white", "GRB", "spi"]),
    st.integers(0, 30),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a decoded TOML document, as a tuple of keys and indices."""
    out = [prefix] if prefix else []
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
        node, list) else ()
    for key, child in children:
        out += paths(child, prefix + (key,))
    return out


def mutate(document: dict, path: tuple, action: str, value: Any) -> dict:
    document = copy.deepcopy(document)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "delete":
        del parent[last]
    elif action == "add" and isinstance(parent, dict):
        parent[f"{last}_extra"] = value
    else:
        parent[last] = value
    return document


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_any_edit_loads_or_raises_profile_error(data):
    name = data.draw(st.sampled_from(sorted(DOCUMENTS)))
    path = data.draw(st.sampled_from(paths(DOCUMENTS[name])))
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    edited = mutate(DOCUMENTS[name], path, action, data.draw(VALUES))
    try:
        profile = parse_profile(edited, "fuzz.toml", name)
    except ProfileError as error:
        assert str(error).startswith("fuzz.toml: ")
        return
    g = profile.geometry
    assert sorted(profile.leds.hole_pixel) == list(range(g.hole_count))
    if profile.gpio is not None:
        assert sorted(profile.gpio.matrix_holes) == list(range(g.hole_count))
