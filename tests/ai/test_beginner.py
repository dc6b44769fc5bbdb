"""Level 0, the beginner, is beatable: over seeded games the 1-ply greedy player of
bench/ai_levels.py (a stand-in for a child who knows the rules) beats it often, and it still
never plays an illegal move. bench/ai_levels.py measures the shares over more games."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ai_levels.py"


def bench():
    spec = importlib.util.spec_from_file_location("ai_levels", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_greedy_player_beats_the_beginner_in_a_fair_share_of_seeded_games():
    results = [bench().play(0, seed)[0] for seed in range(10)]
    assert results.count(-1) >= 4, results  # measured 72.5% over 40 games
    assert results.count(1) >= 1, results  # but the beginner is no pushover either
