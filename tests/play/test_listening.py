"""tests/play/server.py's :func:`~tests.play.server.listens_on`, by which the real-server tests and
the deploy kit's test know a server has started: only a process that itself holds a socket
listening on the port counts (not another process on the port, not a socket bound or connected on
it), on IPv4 and IPv6; the kernel's ``sock_diag`` answers as ``/proc/net/tcp`` and ``tcp6`` do."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from tests.play.server import listening_inodes, listens_on, proc_listening_inodes


def _inode(sock: socket.socket) -> int:
    return os.fstat(sock.fileno()).st_ino


@pytest.fixture
def sleeper() -> Iterator[int]:
    """A process holding no socket (a server still importing, or one that never bound)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize(
    ("family", "host"),
    [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")],
    ids=["ipv4", "ipv6"],
)
def test_only_the_process_holding_the_listening_socket_listens(
    family: int, host: str, sleeper: int
) -> None:
    with socket.socket(family) as listening:
        listening.bind((host, 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert listening_inodes(port) == {_inode(listening)} == proc_listening_inodes(port)
        assert listens_on(os.getpid(), port)
        # another process on a port that is taken: what Server.start must not take for its own
        assert not listens_on(sleeper, port)
        # a connection to the port, both ends: no listening socket of their own port
        with socket.create_connection((host, port)) as client:
            accepted, _ = listening.accept()
            with accepted:
                own = client.getsockname()[1]
                assert listening_inodes(own) == set() == proc_listening_inodes(own)
                assert not listens_on(os.getpid(), own)
                assert listening_inodes(port) == {_inode(listening)}
    assert not listens_on(os.getpid(), port)  # closed


def test_a_socket_bound_but_not_listening_does_not_listen() -> None:
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        assert listening_inodes(port) == set() == proc_listening_inodes(port)
        assert not listens_on(os.getpid(), port)
        bound.listen()
        assert listens_on(os.getpid(), port)


def test_a_gone_process_listens_nowhere() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        assert not listens_on(proc.pid, listening.getsockname()[1])


def test_sock_diag_answers_as_the_tables_do() -> None:
    """Listening sockets on every kind of address (IPv4 and IPv6, one host or all, the same port
    on both families): the same inodes from ``sock_diag`` as from ``/proc/net/tcp`` and ``tcp6``
    (only this test's own ports: other processes' sockets come and go between two reads)."""
    with ExitStack() as stack:
        ports = []
        for family, host in (
            (socket.AF_INET, "127.0.0.1"),
            (socket.AF_INET, "0.0.0.0"),
            (socket.AF_INET6, "::1"),
            (socket.AF_INET6, "::"),
        ):
            sock = stack.enter_context(socket.socket(family))
            sock.bind((host, 0))
            sock.listen()
            ports.append(sock.getsockname()[1])
        twin = stack.enter_context(socket.socket(socket.AF_INET6))
        twin.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        twin.bind(("::1", ports[0]))  # the port of the first, on the other family
        twin.listen()
        for port in ports:
            assert listening_inodes(port) == proc_listening_inodes(port) != set(), port
        assert len(listening_inodes(ports[0])) == 2
