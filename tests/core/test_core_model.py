"""The model of everything a user can do (:mod:`tests.core.user_model`), in CI: derandomised,
one test per board (6x6 and 9x9, colour, presence and polarity sensing), about a minute in all.
The long run is ``bench/robustness/core_model.py``."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from .user_model import SENSINGS, SIZES, model_for

CI = settings(derandomize=True, database=None, deadline=None, max_examples=12, stateful_step_count=60,
              suppress_health_check=list(HealthCheck))

for _size in SIZES:
    for _sensing in SENSINGS:
        _case = model_for(_size, _sensing).TestCase
        _case.settings = CI
        globals()[f"Test{_size}x{_size}{_sensing.title()}"] = _case
del _case  # not a test of its own
