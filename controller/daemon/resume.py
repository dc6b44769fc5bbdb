"""From the journal to a core that answers: the one path a start and every rebuild take.

:func:`core_from_journal` reads the journal, resumes a core from the longest prefix of its
records that replays cleanly (see :meth:`controller.core.Core`), and asks the new core what the
runtime will ask of it at once (its state, its next deadline, what its LEDs show). What it could
not use is set aside (:meth:`~controller.journal.Journal.set_aside`) and said, in the log and to
the players; a journal whose game replays but cannot be run (its state raises) is set aside
whole and the board starts at the menu, so no journal stops a start, however it came about.
Only a board that cannot start even at the menu (its profile names a colour without a light)
raises.

The runtime rebuilds the core the same way after an event it could not handle and after a
journal write that failed (DESIGN.md: "The core thread never dies", "Durable before shown"),
passing what the sensors read (:func:`sensed_by`): the board is judged afresh against the game
as the journal holds it.
"""

from __future__ import annotations

import logging
from typing import Any

from ..core import Core
from ..errors import ConfigError, ProfileError
from ..flow import Resume
from ..games import Catalogue
from ..journal import Journal
from .logs import event as log

Readings = tuple[tuple[int, str], ...]


def core_from_journal(profile: Any, journal: Journal, t: float, *, sensed: Readings = (),
                      fresh: bool = False, games: Catalogue | None = None) -> Core:
    """A core resumed from ``journal`` at time ``t``, with the sensors reading ``sensed``, its
    ``games`` the board's (with its picture library: a resumed game may play a saved picture);
    ``fresh``: set the whole journal aside and start at the menu (a rebuild that failed again at
    once). Raises ConfigError when the journal cannot be read or set aside, ProfileError for
    the profile."""
    records, damage = read_journal(journal)
    if fresh:
        core = _at_menu(profile, t, sensed, records, "the board failed again at once after a rebuild", games)
    else:
        try:
            core = _answering(Core(profile, journal_records=records, start_time=t, start=sensed, catalogue=games))
        except ProfileError:
            raise
        except Exception as exc:  # a bug the journal's game runs into: the board starts at the menu
            logging.getLogger("pentago_board").exception(
                "the journal's game cannot be run; starting at the menu", extra={"fields": {"journal": journal.path}})
            core = _at_menu(profile, t, sensed, records, f"its game cannot be run ({type(exc).__name__}: {exc})",
                            games)
    _keep_usable(journal, records, damage, core)
    return core


def sensed_by(core: Any) -> Readings:
    """What ``core``'s sensors read now, for the core that replaces it (nothing when a broken
    core cannot say)."""
    try:
        return tuple((hole, str(reading)) for hole, reading in enumerate(core.physical.readings))
    except Exception:
        return ()


def read_journal(journal: Journal) -> tuple[list[dict[str, Any]], str | None]:
    """The journal's records before any damage, and the damage (None when there is none)."""
    try:
        journal.path.parent.mkdir(parents=True, exist_ok=True)
        return journal.salvage()
    except OSError as exc:
        raise ConfigError(f"storage.journal = {str(journal.path)!r}: cannot use it ({exc.strerror})") from exc


def _at_menu(profile: Any, t: float, sensed: Readings, records: list[dict[str, Any]], why: str,
             games: Catalogue | None) -> Core:
    core = _answering(Core(profile, start_time=t, start=sensed, catalogue=games))
    if records:
        core.resume = Resume(0, len(records), why)
        core.tell(f"journal: {why}; starting at the menu")
    return core


def _answering(core: Core) -> Core:
    """``core``, once it has answered what the runtime asks first (each raises if it cannot)."""
    core.state()
    core.next_deadline()
    core.view()
    return core


def _keep_usable(journal: Journal, records: list[dict[str, Any]], damage: str | None, core: Core) -> None:
    """No journal content stops the start: when the core could not use every record, or the
    file is damaged, the file is set aside as it was and the journal starts again from the
    records the core did use (the longest prefix that replays cleanly), so the next start and
    the next append build on what the board resumed."""
    problem = core.resume.problem or damage
    if problem is None:
        return
    keep = records[:core.resume.used]
    try:
        aside = journal.set_aside(keep)
    except OSError as exc:
        raise ConfigError(f"storage.journal = {str(journal.path)!r}: cannot set the unusable journal aside "
                          f"({exc.strerror})") from exc
    log("journal set aside; resumed from the records before the problem", logging.ERROR,
        problem=problem, kept=aside, resumed=len(keep))
    core.tell(f"the journal could not be resumed in full; it is kept as {aside} "
              "(pentago-board doctor says what to do with it)")
