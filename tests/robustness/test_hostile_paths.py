"""Every file setting pointed at what is not a regular file (issue 19, items 13 and 15): a NUL in
the name, a device that never ends, a FIFO, a symlink loop, a directory, a socket, a 3 GiB file.
Each loader refuses it with a message naming the file and what it is, at once (a FIFO is never
waited on, /dev/zero never read into memory). The long version runs every command in a child
process: bench/robustness/hostile_paths.py."""

from __future__ import annotations

import json
import threading
from contextlib import ExitStack
from pathlib import Path

import pytest

from bench.robustness import hostile_paths
from controller.daemon import doctor, service
from controller.daemon.config import Config, MqttConfig, load_config, parse_config
from controller.daemon.mqtt.bridge import tls_context
from controller.daemon.resume import read_journal
from controller.errors import ConfigError, ProfileError, TapeError
from controller.files import UnusableFile, read_bounded
from controller.journal import Journal
from controller.profile import load_profile
from controller.tape import read_tape

FILE_KINDS = [kind for kind in hostile_paths.KINDS if kind != "nul"]
WHAT = {"zero": "a character device", "urandom": "a character device", "fifo": "a FIFO",
        "loop": "Too many levels of symbolic links", "directory": "a directory",
        "socket": "No such device or address", "huge": "more than the"}


@pytest.fixture
def made(tmp_path):
    with ExitStack() as stack:
        yield lambda kind: hostile_paths.hostile(kind, tmp_path, stack)


def within(seconds: float, call):
    """``call()``'s outcome; fails if it is still waiting after ``seconds`` (a FIFO once hung)."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = call()
        except Exception as exc:  # the refusal under test
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "still waiting on the file"
    return outcome


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_every_loader_refuses_what_is_not_a_regular_file_of_bounded_size(kind, made, tmp_path):
    path = made(kind)
    loaders = {
        "config": (lambda: load_config(path), ConfigError),
        "profile": (lambda: load_profile(path), ProfileError),
        "journal": (lambda: read_journal(Journal(Path(path))), ConfigError),
        "tape": (lambda: read_tape(path), TapeError),
        "ca_file": (lambda: tls_context(MqttConfig(enabled=True, tls=True, ca_file=path)), ConfigError),
    }
    for name, (load, refusal) in loaders.items():
        outcome = within(10, load)
        error = outcome.get("error")
        assert isinstance(error, refusal), f"{name}: {outcome}"
        assert WHAT[kind] in str(error) and "Traceback" not in str(error), f"{name}: {error}"


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_doctor_names_a_journal_that_is_no_regular_file(kind, made):
    checks = within(10, lambda: doctor.run_checks(Config(profile="virtual-6x6", journal=Path(made(kind)))))["value"]
    journal = [c for c in checks if c.name == "journal"]
    assert len(journal) == 1 and not journal[0].ok and WHAT[kind] in journal[0].detail
    assert "storage.journal" in journal[0].hint


@pytest.mark.parametrize("key", ["profile", "storage.journal", "storage.tape", "mqtt.ca_file"])
def test_a_nul_in_a_path_setting_is_refused_when_the_config_is_read(key):
    section, _, name = key.rpartition(".")
    data: dict = {"mqtt": {"tls": True}} if section == "mqtt" else {}
    (data.setdefault(section, {}) if section else data)[name] = "/var/lib/x\0y"
    with pytest.raises(ConfigError, match=rf"{key} = '/var/lib/x\\x00y' is not allowed; expected a path "
                                          r"\(a path cannot hold a NUL character\)"):
        parse_config(data, "board.toml")


def test_a_file_that_grows_past_the_bound_while_read_is_refused(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_bounded(path, 100) == b"x" * 100
    with pytest.raises(UnusableFile, match=r"101 bytes, more than the 100 bytes this file may hold"):
        path.write_bytes(b"x" * 101)
        read_bounded(path, 100)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_sighup_after_the_config_was_replaced_is_refused_and_leaves_the_loop_free(kind, made, tmp_path, caplog):
    config_path = tmp_path / "board.toml"
    config_path.write_text(f'profile = "virtual-6x6"\n[storage]\njournal = {json.dumps(str(tmp_path / "j.jsonl"))}\n')
    daemon = service.build(load_config(config_path), service.Notifier({}), config_path=config_path)
    config_path.unlink()
    config_path.symlink_to(made(kind))
    within(10, lambda: service.reload(daemon))  # on the event loop: it must not wait on the file
    assert any("reload refused" in r.getMessage() and WHAT[kind] in str(r.__dict__.get("fields", {}).get("error"))
               for r in caplog.records)


def test_the_commands_refuse_a_hostile_file_with_a_message_and_exit_2(tmp_path):
    # Short version of the bench: every command and file setting, a FIFO and a device, in a child.
    with ExitStack() as stack:
        chosen = hostile_paths.cases(tmp_path, stack, ("fifo", "zero"))
        results = [hostile_paths.attack(case, timeout_s=30) for case in chosen[::3]]
    assert [r for r in results if r["verdict"] != "refused"] == []


def test_a_picture_file_that_is_a_fifo_or_a_device_is_refused(tmp_path):
    with ExitStack() as stack:
        chosen = [c for c in hostile_paths.cases(tmp_path, stack, ("fifo", "zero")) if c.target.startswith("game")]
        results = [hostile_paths.attack(case, timeout_s=30) for case in chosen]
    assert [(r["kind"], r["verdict"]) for r in results] == [("fifo", "refused"), ("zero", "refused")]
    assert all("not a regular file" in str(r["said"]) for r in results)


def test_a_stop_after_a_refused_reload_still_stops_the_daemon(tmp_path):
    with ExitStack() as stack:
        result = hostile_paths.reload_attack("fifo", tmp_path, stack, timeout_s=30)
    assert result["verdict"] == "refused", result  # refused in the log, then stopped by SIGTERM, exit 0
