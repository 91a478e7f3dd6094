"""systemd's watchdog protocol (sd_notify) against a real unix datagram socket."""
from __future__ import annotations

import os
import socket

import pytest

from controller.watchdog import Watchdog


@pytest.fixture
def systemd(tmp_path):
    """A socket where systemd would listen; returns (its path, a function reading what came)."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.setblocking(False)

    def received() -> list[str]:
        out = []
        while True:
            try:
                out.append(sock.recv(256).decode())
            except BlockingIOError:
                return out

    yield path, received
    sock.close()


def test_pings_go_out_twice_an_interval_and_ready_once(systemd):
    path, received = systemd
    now = [100.0]
    dog = Watchdog({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "60000000"}, clock=lambda: now[0])
    assert dog.interval == 30.0
    dog.ready()
    dog.ping()
    dog.ping()                                   # the loop comes round 20 times a second
    now[0] += 29.0
    dog.ping()
    now[0] += 1.5
    dog.ping()
    assert received() == ["READY=1", "WATCHDOG=1", "WATCHDOG=1"]


def test_without_systemd_or_for_another_process_nothing_is_sent(systemd):
    path, received = systemd
    for env in ({}, {"NOTIFY_SOCKET": path},                                  # no watchdog asked
                {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "60000000", "WATCHDOG_PID": str(os.getpid() + 1)}):
        dog = Watchdog(env)
        dog.ping()
    assert received() == []


def test_a_socket_that_is_gone_is_said_once_and_the_table_goes_on(tmp_path, caplog):
    ticks = iter(range(0, 100, 5))                # every ping due
    dog = Watchdog({"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "2000000"}, clock=ticks.__next__)
    for _ in range(5):
        dog.ping()
    assert sum("cannot notify systemd" in r.message for r in caplog.records) == 1


def test_an_abstract_socket_address_is_understood():
    name = f"dicetable-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        Watchdog({"NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "1000000"}).ping()
        assert sock.recv(64) == b"WATCHDOG=1"
    finally:
        sock.close()
