"""The short version of bench/robustness/noisy_games.py: noisy legal games through the core.

Every move played is accepted, and nothing else: no false moves, no missed ones, no repairs.
"""

from __future__ import annotations

from bench.robustness.noisy_games import difference, main, run


def test_fifty_noisy_games_on_presence_and_polarity_boards() -> None:
    figures = run(50, seed=9)
    assert (figures.games, figures.false_moves, figures.missed_moves, figures.repairs) == (50, 0, 0, 0), \
        figures.failures
    assert figures.moves > 50 * 9  # whole games, not openings


def test_false_and_missed_moves_count_from_the_first_difference() -> None:
    assert difference(["a1 1R", "b2", "c3 2L"], ["a1 1R", "b2", "c3 2L"]) == (0, 0)
    assert difference(["a1 1R", "b2", "c3 2L"], ["a1 1R", "b2 2L", "c3"]) == (2, 2)
    assert difference(["a1 1R", "b2", "c3 2L"], ["a1 1R"]) == (0, 2)


def test_main_prints_the_figures(capsys) -> None:
    assert main(["--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["games", "moves", "false", "missed", "repairs", "time"]
    assert out[0] == "games         2" and out[2] == "false moves   0" and out[3] == "missed moves  0"
