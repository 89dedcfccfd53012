"""A real ``agon serve`` in a process of its own (its own process group), for the kill -9 and the
several-workers tests, and an event-stream reader in a thread.

A single-process server is forked by a fork server (:class:`Zygote`, tests/play/zygote.py): a new
interpreter per test process, started on first use, that has imported what ``agon serve`` imports
and nothing of the tests, and forks each server from there: the server runs the command line's own
entry point (``agon.launch.main``, as ``python -m agon serve`` does) with the server's environment
and its output in a file, without importing agon and its web app again (about 1.5 s of CPU per
start, docs/dev-measurements.md), and without the test process's threads and state (a fork of the
test process itself could inherit a lock another thread held, and its cheap hashes and caches).
``--workers N`` still starts ``python -m agon``: its workers are spawned, new interpreters, by
uvicorn's supervisor.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

import agon
from tests.cheap_hashes import CHEAP_HASHER
from tests.durations import add_children_cpu

SRC = str(Path(agon.__file__).resolve().parents[1])
#: Seconds :meth:`Server.stop` waits after SIGTERM before it kills the server.
STOP_GRACE = 2.0


#: The director's password of the servers started here.
DIRECTOR_PASSWORD = "play-test-password"


@functools.cache
def _cheap_hash(password: str) -> str:
    """An Argon2id hash of ``password`` at the least cost (tests/cheap_hashes.py)."""
    return CHEAP_HASHER.hash(password)


def free_port() -> int:
    """A port of 127.0.0.1 free now, for a server in another process. Released here and bound
    there later: another process may take it meanwhile; a server in this process listens on
    :func:`bound_socket` instead."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def bound_socket() -> socket.socket:
    """A socket bound to a free port of 127.0.0.1, the test's from the start: for a uvicorn in
    this process (``uvicorn.Server.run(sockets=[it])``), or, never listened on, for an address
    that refuses connections. A port from :func:`free_port`, released and bound again by the
    test later, can be taken meanwhile by another process of the suite (a connection's own
    port, another worker's server): uvicorn then fails to start, and the test waits for it or
    talks to the other server."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


#: What a child says when the port it was given is taken (uvicorn: "[Errno 98] error while
#: attempting to bind on address ...: address already in use"; PostgreSQL: "could not bind
#: IPv4 address ...: Address already in use").
ADDRESS_IN_USE = "address already in use"


#: The kernel's socket monitoring (``sock_diag``, netlink): the question "which TCP sockets listen
#: on this port" without reading ``/proc/net/tcp``. The kernel writes that table out line by line
#: for every socket of the machine, connections waiting out ``TIME_WAIT`` too: thousands of lines,
#: about 3 µs of system CPU each, on a machine that served many requests in the last minute (the
#: suite's own, and whatever runs beside it), and a starting server is asked ten times a second.
#: Asked for listening sockets only, the kernel walks its table of listening sockets alone
#: (docs/dev-measurements.md).
NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST_DUMP = 0x0301  # NLM_F_REQUEST | NLM_F_DUMP
NLMSG_ERROR, NLMSG_DONE = 2, 3
TCP_LISTEN = 10


def _diag_listening(family: int, port: int) -> set[int]:
    """The inodes of the TCP sockets of ``family`` listening on ``port``, from ``sock_diag``
    (``inet_diag_req_v2`` asking for the ``LISTEN`` state; each answer an ``inet_diag_msg``:
    the source port at bytes 4–5, big-endian, the inode at bytes 68–71)."""
    request = struct.pack("=BBBxI48x", family, socket.IPPROTO_TCP, 0, 1 << TCP_LISTEN)
    header = struct.pack("=IHHII", 16 + len(request), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST_DUMP, 1, 0)
    found: set[int] = set()
    with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG) as nl:
        nl.sendall(header + request)
        while True:
            data = nl.recv(1 << 16)
            at = 0
            while at + 16 <= len(data):
                length, kind = struct.unpack_from("=IH", data, at)
                if kind == NLMSG_DONE:
                    return found
                if kind == NLMSG_ERROR:
                    (errno,) = struct.unpack_from("=i", data, at + 16)
                    raise OSError(-errno, os.strerror(-errno))
                msg = at + 16
                (sport,) = struct.unpack_from("!H", data, msg + 4)
                (inode,) = struct.unpack_from("=I", data, msg + 68)
                if sport == port:
                    found.add(inode)
                at += (length + 3) & ~3
            if not data:
                raise OSError("sock_diag: no answer")


def listening_inodes(port: int) -> set[int]:
    """The inodes of the TCP sockets listening on ``port`` of any address of this machine (IPv4
    and IPv6): from the kernel's ``sock_diag`` (:data:`NETLINK_SOCK_DIAG`), or from
    ``/proc/net/tcp`` and ``tcp6`` where netlink is not allowed."""
    try:
        return _diag_listening(socket.AF_INET, port) | _diag_listening(socket.AF_INET6, port)
    except OSError:
        return proc_listening_inodes(port)


def proc_listening_inodes(port: int) -> set[int]:
    """:func:`listening_inodes` read from ``/proc/net/tcp`` and ``tcp6`` (state 0A)."""
    found: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                lines = f.readlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[1].endswith(f":{port:04X}") and fields[3] == "0A":
                found.add(int(fields[9]))
    return found


def socket_inodes(pid: int) -> set[int]:
    """The inodes of the sockets the process ``pid`` holds (its ``/proc/PID/fd``); none if it
    is gone."""
    found: set[int] = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return found
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(int(target[8:-1]))
    return found


def listens_on(pid: int, port: int) -> bool:
    """Whether the process ``pid`` holds a socket listening on ``port``. An
    answer on the port alone is not enough: if the port was taken before the process bound it
    (by another worker's server), the answer comes from there while the process fails. The
    process's own sockets are read first (a handful): while it holds none, the machine's tables
    are not read at all."""
    sockets = socket_inodes(pid)
    return bool(sockets) and not sockets.isdisjoint(listening_inodes(port))


class PortTaken(RuntimeError):
    """The child could not bind a port it was given: another process took it meanwhile."""

    def __init__(self, said: str) -> None:
        super().__init__(said[-1000:])
        self.said = said

    def names(self, port: int) -> bool:
        """Whether the port taken is ``port``: the line that says the address is in use names
        it (not any line: the server's banner names its own port before it fails on another)."""
        return any(
            re.search(rf"\b{port}\b", line) is not None
            for line in self.said.splitlines()
            if ADDRESS_IN_USE in line.lower()
        )


#: The fork server's script (run by a new interpreter, it imports agon only).
ZYGOTE = Path(__file__).with_name("zygote.py")


class Zygote:
    """The test process's fork server (tests/play/zygote.py): a new interpreter, started on first
    use, that has imported ``agon serve``'s modules and forks a server per :meth:`fork`. Its
    children are its own: it reaps them and says their exit codes, read here by
    :meth:`returncode`. It leaves when this process closes the socket or dies."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        # the test process's environment without agon's: each server brings its own whole, and
        # nothing the zygote imports reads one at import time (tests/play/test_forked_server.py)
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGON_")}
        env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, str(ZYGOTE), str(theirs.fileno())],
            pass_fds=(theirs.fileno(),),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        theirs.close()
        self.link = ours
        self.lock = threading.Lock()
        self.pending = b""
        self.exits: dict[int, int] = {}
        said = self._line(60.0)
        if said is None or not said.startswith("ready "):
            raise RuntimeError("the zygote did not start")
        # its CPU, and its children's as they exit, count as this process's children's in
        # tests/durations.json (the zygote is waited for only as this process exits)
        add_children_cpu(float(said.split()[1]))
        atexit.register(self.close)

    def close(self) -> None:
        """Close this end of the socket, and wait for the zygote to leave (its servers stay)."""
        self.link.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def _line(self, timeout: float | None) -> str | None:
        """The zygote's next line, ``None`` if none came within ``timeout`` (0: only what is
        there now). ``exit`` lines are noted on the way."""
        end = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = None if end is None else max(0.0, end - time.monotonic())
            ready, _, _ = select.select([self.link], [], [], left)
            if not ready:
                return None
            data = self.link.recv(1 << 16)
            if not data:
                raise RuntimeError(f"the zygote left (exit code {self.proc.wait()})")
            self.pending += data
        line, self.pending = self.pending.split(b"\n", 1)
        said = line.decode()
        if said.startswith("exit "):
            _, pid, code, cpu = said.split()
            self.exits[int(pid)] = int(code)
            add_children_cpu(float(cpu))
        return said

    def fork(self, argv: list[str], env: dict[str, str], log: Path) -> int:
        """The pid of a new ``agon ARGV`` with ``env``, its output appended to ``log``, in this
        process's working directory."""
        request = {"argv": argv, "env": env, "log": str(log), "cwd": os.getcwd()}
        with self.lock:
            self.link.sendall(json.dumps(request).encode() + b"\n")
            while True:
                said = self._line(60.0)
                if said is None:
                    raise RuntimeError("the zygote did not fork")
                if said.startswith("pid "):
                    return int(said[4:])

    def returncode(self, pid: int) -> int | None:
        """The exit code of the zygote's child ``pid``, ``None`` while it runs."""
        with self.lock:
            while pid not in self.exits and self._line(0.0) is not None:
                pass
            return self.exits.get(pid)


_zygote: Zygote | None = None
_zygote_lock = threading.Lock()


def zygote() -> Zygote:
    """This process's fork server, started on first use (again if it has left)."""
    global _zygote
    with _zygote_lock:
        if _zygote is None or _zygote.proc.poll() is not None:
            _zygote = Zygote()
        return _zygote


class Forked:
    """A server forked by the zygote, answering as much of :class:`subprocess.Popen` as
    :class:`Server` uses (not a child of this process: the zygote waits for it)."""

    def __init__(self, pid: int, parent: Zygote) -> None:
        self.pid = pid
        self.parent = parent
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.parent.returncode(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(["agon", "serve"], timeout or 0.0)
            time.sleep(0.01)
        return code


class Server:
    """``agon serve`` on a free port; :meth:`kill9` kills its whole process group at once.

    The port comes from :func:`free_port`, released here and bound by the child about a second
    later: when another process of the suite took it meanwhile, :meth:`start` starts the child
    again on a new port (only then: its output says the address is in use), and the server counts
    as started only once the child itself holds the listening socket (:func:`listens_on`), not
    when something on the port answers."""

    #: Starts on a new port after the port was found taken, at most.
    PORT_ATTEMPTS = 5

    def __init__(
        self,
        database: str,
        *extra: str,
        log: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.database = database
        self.extra = extra
        self.env = env or {}
        self.port = free_port()
        self.log = log
        #: Forked by this process's :class:`Zygote`, unless ``--workers`` asks uvicorn's
        #: supervisor to spawn workers: then ``python -m agon`` as before.
        self.forked = "--workers" not in extra
        self.proc: subprocess.Popen[bytes] | Forked | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def environment(self) -> dict[str, str]:
        """The server's environment. The director's password comes with a cheap Argon2 hash of
        it (unless a test gives a hash): the server would otherwise hash it at full cost as it
        starts, about 0.3 s of CPU per start (Argon2 reads the cost from the hash, so the same
        password logs in)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
        env.update(
            AGON_SECRET_KEY="play-test-secret",
            AGON_DIRECTOR_PASSWORD=DIRECTOR_PASSWORD,
            AGON_PLAY_GAMES_PER_HOUR="1000000",
            AGON_STREAMS_PER_ADDRESS="1000000",  # every simulated phone comes from 127.0.0.1
            AGON_PUBLIC_URL=self.url,
        )
        env.update(self.env)
        if "AGON_DIRECTOR_PASSWORD_HASH" not in env:
            env["AGON_DIRECTOR_PASSWORD_HASH"] = _cheap_hash(env["AGON_DIRECTOR_PASSWORD"])
        return env

    def start(self, timeout: float = 60.0) -> Server:
        for attempt in range(self.PORT_ATTEMPTS):
            try:
                return self._start(timeout)
            except PortTaken as taken:
                # another port of the command line taken (``--metrics-port``): the caller's
                # (uvicorn's supervisor, ``--workers``, names no port when it fails on its own)
                if any(taken.names(p) for p in self.other_ports()):
                    raise
                if attempt == self.PORT_ATTEMPTS - 1:
                    raise
                self.port = free_port()
        raise AssertionError("unreachable")

    def other_ports(self) -> list[int]:
        """The ports of the command line other than the server's own."""
        return [
            int(v) for k, v in zip(self.extra, self.extra[1:], strict=False) if k.endswith("-port")
        ]

    def _start(self, timeout: float) -> Server:
        env = self.environment()
        # the child's output goes to a file, the test's log if it gives one: read back from
        # where this start began when the child exits
        log = self.log
        if log is None:
            fd, name = tempfile.mkstemp(prefix="agon-serve-", suffix=".log")
            os.close(fd)
            log = Path(name)
        begin = log.stat().st_size if log.exists() else 0
        try:
            argv = ["serve", "--port", str(self.port), "--database", self.database, *self.extra]
            if self.forked:
                parent = zygote()
                self.proc = Forked(parent.fork(argv, env, log), parent)
            else:
                with open(log, "ab") as out:
                    self.proc = subprocess.Popen(
                        [sys.executable, "-m", "agon", *argv],
                        env=env,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
            self._wait_ready(timeout, log, begin)
        finally:
            if self.log is None:
                log.unlink(missing_ok=True)
        return self

    def _wait_ready(self, timeout: float, log: Path, begin: int) -> None:
        assert self.proc is not None
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                with open(log, "rb") as f:
                    f.seek(begin)
                    said = f.read().decode(errors="replace")
                if ADDRESS_IN_USE in said.lower():
                    raise PortTaken(said)
                raise RuntimeError(f"agon serve exited with {self.proc.returncode}: {said[-2000:]}")
            if listens_on(self.proc.pid, self.port):
                try:
                    answer = httpx.get(self.url + "/api/play/catalog/ocw", timeout=2)
                    if answer.status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
            if time.monotonic() > end:
                self.stop()
                raise RuntimeError("agon serve did not start")
            time.sleep(0.1)

    def kill9(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after :data:`STOP_GRACE` seconds. The tests' servers hold open
        event streams, which a stopping server waits for (up to ``agon.web.cli.SHUTDOWN_GRACE``
        seconds, longer than this grace); a clean stop is not what these tests check, except
        ``test_sigterm_ends_the_server_while_an_event_stream_is_open``."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


@contextmanager
def running(
    database: str, *extra: str, log: Path | None = None, env: dict[str, str] | None = None
) -> Iterator[Server]:
    server = Server(database, *extra, log=log, env=env).start()
    try:
        yield server
    finally:
        server.stop()


class EventReader:
    """Reads ``GET .../events`` in a thread: every pushed state with the time it arrived."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.events: list[tuple[float, dict[str, Any]]] = []
        self.open = threading.Event()
        self.error: BaseException | None = None
        self._stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.open.wait(20):
            raise RuntimeError(f"event stream {url} did not open")

    def _run(self) -> None:
        try:
            with httpx.stream("GET", self.url, timeout=httpx.Timeout(5, read=None)) as r:
                assert r.headers["content-type"].startswith("text/event-stream")
                self.open.set()
                for line in r.iter_lines():
                    if self._stop:
                        return
                    if line.startswith("data: "):
                        self.events.append((time.monotonic(), json.loads(line[6:])))
        except BaseException as exc:  # the server was killed, or closed
            self.error = exc
            self.open.set()

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        """The arrival time of the first push with at least ``version``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for at, state in list(self.events):
                if state["version"] >= version:
                    return at
            time.sleep(0.002)
        raise AssertionError(f"no push of version {version} from {self.url} within {timeout} s")

    def close(self) -> None:
        self._stop = True
