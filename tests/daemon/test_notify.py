"""sd_notify over a real unix datagram socket, by path and by abstract name."""

from __future__ import annotations

import os
import socket
import threading

import pytest

from controller.daemon.notify import Notifier


@pytest.fixture
def listener(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(2)
    yield sock, path
    sock.close()


def test_ready_and_status_arrive_as_one_datagram(listener):
    sock, path = listener
    Notifier({"NOTIFY_SOCKET": path}).ready(status="board live")
    assert sock.recv(256) == b"READY=1\nSTATUS=board live"


def test_abstract_socket_names_are_reached():
    name = f"pentago-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        Notifier({"NOTIFY_SOCKET": "@" + name}).watchdog()
        assert sock.recv(64) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent_and_nothing_fails():
    notifier = Notifier({})
    assert not notifier.enabled and notifier.watchdog_s is None
    notifier.ready()


def test_a_vanished_socket_does_not_raise(tmp_path):
    Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")}).stopping()


def test_a_manager_that_stopped_reading_never_blocks_the_sender(listener):
    # A full socket queue (about 500 unread datagrams) used to block sendto, freezing the core
    # thread that pings the watchdog; the pings beyond the queue are dropped instead.
    _, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    pinging = threading.Thread(target=lambda: [notifier.watchdog() for _ in range(3000)], daemon=True)
    pinging.start()
    pinging.join(timeout=30)
    assert not pinging.is_alive()


@pytest.mark.parametrize("env, expected", [
    ({"WATCHDOG_USEC": "10000000"}, 5.0),
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}, 5.0),
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}, None),  # meant for another process
    ({"WATCHDOG_USEC": "0"}, None),
    ({"WATCHDOG_USEC": "soon"}, None),
])
def test_watchdog_interval_is_half_of_watchdog_sec(env, expected):
    assert Notifier(env).watchdog_s == expected
