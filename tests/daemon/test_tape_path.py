"""storage.tape never names anything but the daemon's own tapes (issue 19, item 8): a tape path
that is the journal's directory, the journal or no regular file stops the start with a message
and moves nothing; doctor says the same before a start does."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from controller.daemon import service
from controller.daemon.config import Config
from controller.daemon.doctor import report, run_checks
from controller.daemon.notify import Notifier
from controller.errors import ConfigError
from controller.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
START = {"t": 1.0, "kind": "start", "game": "classic", "players": 2, "computer": False, "match": False, "starter": 1}


def config(tmp_path: Path, tape: Path) -> Config:
    return Config(profile="virtual-6x6", journal=tmp_path / "state" / "journal.jsonl", tape=tape)


def tree(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every name under ``root`` with its type and (for a file) its bytes."""
    out = {}
    for path in sorted(root.rglob("*")):
        mode = os.lstat(path).st_mode
        out[str(path.relative_to(root))] = (stat.S_IFMT(mode), path.read_bytes() if stat.S_ISREG(mode) else b"")
    return out


@pytest.mark.parametrize("tape, problem", [
    ("state", "is a directory; name a file in it"),
    ("state/journal.jsonl", "is the journal"),
    ("state/journal.jsonl.new", "is the journal's temporary file"),
    ("fifo", "is not a regular file (a device, a FIFO or a socket)"),
])
def test_a_tape_path_that_is_not_the_daemons_own_tape_stops_the_start_and_moves_nothing(tmp_path, tape, problem):
    c = config(tmp_path, tmp_path / tape)
    c.journal.parent.mkdir()
    Journal(c.journal).clear([START])
    os.mkfifo(tmp_path / "fifo")
    before = tree(tmp_path)
    with pytest.raises(ConfigError) as refused:
        service.build(c, Notifier({}))
    assert str(refused.value) == (f"storage.tape = {str(tmp_path / tape)!r}: {problem}; a new tape moves only "
                                  "an earlier tape aside: name a path for the tapes alone")
    assert tree(tmp_path) == before
    checks = run_checks(c)
    tape_check = next(check for check in checks if check.name == "tape")
    assert not tape_check.ok and problem in tape_check.detail
    assert report(checks)[1] == 1


def test_doctor_passes_a_path_for_tapes_alone_and_a_start_keeps_the_tape_before(tmp_path):
    c = config(tmp_path, tmp_path / "tape.jsonl")
    [tape_check] = [check for check in run_checks(c) if check.name == "tape"]
    assert tape_check.ok and tape_check.detail.endswith("the one before kept as " + str(tmp_path / "tape.jsonl.1"))
    for _ in range(2):
        service.build(c, Notifier({})).runtime.tape.close()
    assert (tmp_path / "tape.jsonl.1").exists() and Journal(c.journal).read() == []


def test_a_tape_its_disk_cannot_take_at_the_start_leaves_the_board_playing_unrecorded(tmp_path):
    """A full disk (here a real file-size limit of 8 bytes: EFBIG at the header) is no setting
    to refuse: the daemon starts without the tape, and says so once in the log and to the players."""
    script = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (8, resource.RLIM_INFINITY))
        from pathlib import Path
        from controller.daemon import service
        from controller.daemon.config import Config
        from controller.daemon.notify import Notifier
        from controller.events import Tick
        config = Config(profile="virtual-6x6", journal=Path({str(tmp_path / "journal.jsonl")!r}),
                        tape=Path({str(tmp_path / "tape.jsonl")!r}))
        daemon = service.build(config, Notifier({{}}))
        print("tape", daemon.runtime.tape)
        print("told", daemon.runtime.core.handle(Tick(1e9)).notices)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "tape None" in done.stdout
    assert "the tape is not recording (File too large); the game is not affected" in done.stdout
    assert done.stderr.count("tape not recording") == 1
