"""The functional core: events in, effects out.

One thread calls :meth:`Core.handle` with every event in order; it returns the :class:`Effects`
(a new LED frame, journal records to write durably before showing it, and notices for people).
The core never reads a clock or touches hardware: time comes from the events, so a tape replays
exactly as it was played and tests drive the core with a fake clock.

The core is a package of rooms: :mod:`.core` (the contract and the commands), :mod:`.referee`
(judging a settled board: accept, grace timer, repair), :mod:`.menu` (the board's menu),
:mod:`.computer` (the computer opponent's prompts), :mod:`.display` (scenes into frames) and
:mod:`.snapshot` (the state and the record for the web console). It knows games only through
the registry, :mod:`controller.games`.

>>> from controller.profile import load_profile
>>> from controller.events import HoleReading, Tick, Command
>>> core = Core(load_profile("virtual-6x6"))
>>> effects = core.handle(Command(0.0, "new_game", {"game": "classic"}))
>>> effects.records[0]["kind"], core.state()["state"]
('start', 'awaiting_placement')
>>> _ = core.handle(HoleReading(1.0, 8, "marble"))
>>> core.handle(Tick(1.2)).notices
('c2 placed by Seat 1',)
"""

from .core import DEFAULT_COLOURS, Core
from .effects import Effects, Think

__all__ = ["DEFAULT_COLOURS", "Core", "Effects", "Think"]
