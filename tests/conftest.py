"""Settings every test shares.

Hypothesis's per-example deadline (200 ms by default) measures wall time, so on a loaded 2-core
machine a property test fails when the scheduler, not the code, is slow ("Unreliable test
timings"). Timings belong in bench/, so no property test has a deadline unless it sets its own.
"""

from hypothesis import settings

settings.register_profile("pentago-board", deadline=None)
settings.load_profile("pentago-board")
