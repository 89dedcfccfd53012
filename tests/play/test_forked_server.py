"""tests/play/server.py's ``Server``: a single-process ``agon serve`` is forked by the test
process's fork server (tests/play/zygote.py, a new interpreter that imported agon only: no new
interpreter importing agon again per server, and nothing of the test process's state or threads)
and behaves as ``python -m agon serve`` does: a session of its own, its output and its log lines in
the log file, the server's environment, SIGTERM stops it. The zygote leaves with the test process.
``--workers`` still starts a new interpreter (uvicorn's supervisor spawns its workers)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest
from argon2 import extract_parameters
from sqlalchemy import select

from agon.people.roles import Scope
from agon.services import people
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.people import AccountRow
from tests.cheap_hashes import CHEAP_HASHER, PRODUCTION_HASHER
from tests.play.server import DIRECTOR_PASSWORD, SRC, ZYGOTE, Server, zygote
from tests.play.zygote import PRELOAD
from tests.web.conftest import form_token, make_bonn


def _parent(pid: int) -> int:
    """The parent pid of ``pid`` (``/proc/PID/stat``'s fourth field, after the command name)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _invite(url: str) -> str:
    """A one-time invitation's token, made in ``url``'s database by this process."""
    engine = make_engine(Settings(url))
    try:
        with make_session_factory(engine)() as session:
            make_bonn(session, slug="cup")
            token = people.create_invite(
                session,
                email="dora@club.test",
                role="director",
                scope=Scope.TOURNAMENT,
                target="cup",
                invited_by="Olga",
            )
            session.commit()
        return token
    finally:
        engine.dispose()


def _stored_hash(url: str) -> str:
    engine = make_engine(Settings(url))
    try:
        with make_session_factory(engine)() as session:
            stored = session.scalar(
                select(AccountRow.password_hash).where(AccountRow.email == "dora@club.test")
            )
        assert stored is not None
        return stored
    finally:
        engine.dispose()


@pytest.mark.slow  # starts a server (about a second of CPU) and hashes a password at full cost
def test_a_single_server_is_forked_by_the_zygote_and_runs_as_a_new_process_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "server.log"
    url = f"sqlite:///{tmp_path / 'agon.db'}"
    server = Server(url, "--log-level", "info", log=log)
    assert server.forked
    zygote()  # started (if it was not) in another working directory than the server's
    monkeypatch.chdir(tmp_path)
    server.start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        # forked by the zygote, a new interpreter running tests/play/zygote.py: not by this
        # process, and not a new interpreter of its own (``python -m agon serve``)
        parent = zygote().proc.pid
        assert _parent(pid) == parent != os.getpid()
        assert _parent(parent) == os.getpid()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert cmdline == Path(f"/proc/{parent}/cmdline").read_bytes().split(b"\0")
        assert cmdline[:2] == [os.fsencode(sys.executable), os.fsencode(ZYGOTE)]
        assert os.getsid(pid) == pid == os.getpgid(pid)  # kill9 and stop reach all of it
        assert Path(f"/proc/{pid}/cwd").resolve() == tmp_path.resolve()  # this process's now
        # the server's environment (the zygote has no AGON_ variable): its director's password
        # logs in
        with httpx.Client(base_url=server.url, timeout=30) as client:
            page = client.get("/desk/login")
            answer = client.post(
                "/desk/login",
                data={"password": DIRECTOR_PASSWORD, "csrf_token": form_token(page.text)},
            )
            assert answer.status_code == 303, answer.text
            assert client.get("/desk").status_code == 200
        # none of this process's state: this process hashes people's passwords cheaply
        # (tests/conftest.py), the server with agon's own hasher, as in production
        assert people._HASHER is CHEAP_HASHER
        token = _invite(url)
        with httpx.Client(base_url=server.url, timeout=60) as client:
            page = client.get(f"/people/invite/{token}")
            assert page.status_code == 200, page.text
            answer = client.post(
                f"/people/invite/{token}",
                data={
                    "name": "Dora",
                    "password": "a long enough password",
                    "csrf_token": form_token(page.text),
                },
            )
            assert answer.status_code == 303, answer.text
    finally:
        server.stop()
    stored = extract_parameters(_stored_hash(url))
    production = PRODUCTION_HASHER
    assert (stored.time_cost, stored.memory_cost, stored.parallelism) == (
        production.time_cost,
        production.memory_cost,
        production.parallelism,
    )
    assert server.proc.returncode in (0, -signal.SIGTERM)  # SIGTERM: a clean stop
    said = log.read_text()
    # its output and its log records are in the log file (not in pytest's capture)
    assert f"agon: http://127.0.0.1:{server.port}/" in said
    assert "INFO uvicorn.error: Application startup complete." in said
    assert f"INFO uvicorn.error: Finished server process [{pid}]" in said  # stopped cleanly
    assert "Traceback" not in said


#: Imports the zygote's modules in a new interpreter with ``os.environ`` recording who reads it.
_READS = textwrap.dedent(
    """
    import collections.abc, importlib, json, os, sys

    real = os.environ
    reads = []

    def note(key):
        frame = sys._getframe(2)
        while frame.f_globals.get("__name__", "") in ("os", "collections.abc"):
            frame = frame.f_back
        reads.append([key, frame.f_globals.get("__name__", "")])

    class Recording(collections.abc.MutableMapping):
        def __getitem__(self, key):
            note(key)
            return real[key]

        def __setitem__(self, key, value):
            real[key] = value

        def __delitem__(self, key):
            del real[key]

        def __iter__(self):
            note(None)
            return iter(real)

        def __len__(self):
            return len(real)

        def copy(self):
            note(None)
            return dict(real)

    os.environ = Recording()
    for name in sys.argv[1:]:
        importlib.import_module(name)
    print(json.dumps(reads))
    """
)


@pytest.mark.slow  # a new interpreter imports agon's web app (about 1.5 s of CPU)
def test_nothing_the_zygote_imports_reads_an_agon_variable_at_import_time() -> None:
    """The zygote starts without the ``AGON_`` variables (a server brings its own): a module
    that read one as it is imported would miss the server's. A whole copy of the environment is
    allowed only where agon does not look: wsgiref's (the environment of CGI requests, and the
    base of a WSGI request's, of which prometheus-client's metrics page reads the request's own
    keys only)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGON_")}
    env["PYTHONPATH"] = SRC
    env["AGON_SECRET_KEY"] = "read-me"  # present, so that a read of it would be seen
    done = subprocess.run(
        [sys.executable, "-c", _READS, *PRELOAD],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    reads = json.loads(done.stdout)
    assert reads, "nothing recorded: the check does not see the reads"
    copies = {module for key, module in reads if key is None}
    assert copies <= {"wsgiref.handlers"}
    assert [
        [key, module]
        for key, module in reads
        if module not in copies and key is not None and key.startswith("AGON_")
    ] == []


@pytest.mark.slow  # a new interpreter starts a zygote (about 2 s of CPU)
def test_the_zygote_leaves_with_the_test_process() -> None:
    script = "from tests.play.server import zygote; print(zygote().proc.pid, flush=True); input()"
    owner = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert owner.stdout is not None
        parent = int(owner.stdout.readline())
        assert _parent(parent) == owner.pid
        owner.kill()
        owner.wait(timeout=30)
        end = time.monotonic() + 30
        while _running(parent) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _running(parent)
    finally:
        owner.kill()
        owner.wait(timeout=30)


def test_a_server_with_workers_is_a_new_interpreter() -> None:
    assert not Server("sqlite:///unused.db", "--workers", "2").forked
