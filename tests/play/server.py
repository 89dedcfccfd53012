"""A real ``agon serve`` in a subprocess (its own process group), for the kill -9 and the
several-workers tests, and an event-stream reader in a thread."""

from __future__ import annotations

import functools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

import agon
from tests.cheap_hashes import CHEAP_HASHER

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


class Server:
    """``agon serve`` on a free port; :meth:`kill9` kills its whole process group at once."""

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
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

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
        env = self.environment()
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agon",
                "serve",
                "--port",
                str(self.port),
                "--database",
                self.database,
                *self.extra,
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"agon serve exited with {self.proc.returncode}")
            try:
                if httpx.get(self.url + "/api/play/catalog/ocw", timeout=2).status_code == 200:
                    return self
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
