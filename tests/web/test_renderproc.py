"""The pages a write changes, rendered by the render process (agon.web.renderproc): the same
bytes as the server renders, read-your-writes, a killed process replaced (the server renders
meanwhile), a clean stop with the server, several workers on PostgreSQL."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from agon.web import renderproc
from agon.web.app import create_app
from agon.web.pagecache import PAGE, TABLE
from agon.web.routes import public
from agon.web.settings import WebSettings, web_settings
from agon.web.state import WebState
from tests.web.conftest import PASSWORD, form_token
from tests.web.helpers import play_round
from tests.web.test_pagecache import LANGS, PAGES, enter_table_1, points, state_of

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

#: How long a test waits for a spawned render process to be ready (a loaded machine).
START_SECONDS = 120


@pytest.fixture
def settings(settings: WebSettings) -> WebSettings:
    return settings.model_copy(update={"render_process": True})


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def ready(state: WebState) -> renderproc.RenderProcess:
    """The app's render process, started and ready."""
    renderer = state.renderer
    assert isinstance(renderer, renderproc.RenderProcess)
    renderer.start().result(timeout=START_SECONDS)
    # a first render in a new process on a loaded host may take longer than the server's 10 s;
    # giving up on a slow render process is pinned by the hang test, which sets its own timeout
    renderer.timeout = START_SECONDS
    return renderer


def read_everything(phone: TestClient) -> dict[tuple[str, str], str]:
    """Every kept page in every language, read twice (noted as read: a write renders them)."""
    seen = {}
    for path in PAGES:
        for lang in LANGS:
            for _ in range(2):
                seen[path, lang] = phone.get(path, headers={"accept-language": lang}).text
    return seen


def gone(pid: int) -> bool:
    """The process ended (a zombie nobody reaps counts as ended)."""
    try:
        os.kill(pid, 0)
        status = Path(f"/proc/{pid}/status").read_text()
    except (ProcessLookupError, FileNotFoundError):
        return True
    return "\nState:\tZ" in status


#: A server process in miniature: starts a render process, prints its pid, is killed with -9.
KILLED_SERVER = """
import os, signal, sys
from agon.web import renderproc
renderer = renderproc.RenderProcess(sys.argv[1], 1000, restart_seconds=0)
with open(sys.argv[2], "w") as out:
    out.write(str(renderer.start().result(timeout=120)))
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_the_render_process_renders_the_same_bytes_as_the_server(
    app: Any, client: TestClient, db: Session, bonn: str
) -> None:
    play_round(db, bonn, 1, confirm=False)
    state = state_of(app)
    renderer = ready(state)
    keys = [(kind, bonn, lang) for kind in (PAGE, TABLE) for lang in LANGS]
    done = renderer.call(public.render_apart, keys)
    assert done is not None
    version, bodies = done
    with state.readers() as session:
        assert version == public.journal_version(session, bonn)
        here = [public._page_bytes(state, session, kind, bonn, lang) for kind, _s, lang in keys]
    assert bodies == here
    assert b"Player A" in bodies[0]
    pid = renderer.pid()
    with pytest.raises(RuntimeError, match="rendering nowhere in the render process failed"):
        renderer.call(public.render_apart, [(PAGE, "nowhere", "en")])
    assert renderer.call(public.render_apart, keys[:1]) == (version, bodies[:1])
    assert renderer.pid() == pid  # a failed render leaves the process running


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_a_write_is_rendered_by_the_process_and_the_next_read_shows_it(
    app: Any, client: TestClient, director: TestClient, bonn: str, monkeypatch: Any
) -> None:
    """With the server's own rendering broken, a write's pages still come out right, at once
    and in every language: the render process rendered them."""
    state = state_of(app)
    renderer = ready(state)
    phone = TestClient(app)
    seen = read_everything(phone)

    def not_here(*args: Any) -> bytes:
        raise AssertionError("rendered in the server's process")

    monkeypatch.setattr(public, "_page_bytes", not_here)
    fast = state.fast_reads
    enter_table_1(director, bonn, 80)
    for path in PAGES:
        for lang in LANGS:
            now = phone.get(path, headers={"accept-language": lang})
            assert now.status_code == 200
            assert now.text != seen[path, lang]
            assert ("Player A", "6") in points(now.text), (path, lang)
    assert state.fast_reads == fast + len(PAGES) * len(LANGS)  # all kept before the answer
    assert renderer.rendered == 1
    assert renderer.fell_back == 0


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_a_killed_render_process_is_replaced_and_the_server_renders_meanwhile(
    app: Any, client: TestClient, director: TestClient, bonn: str
) -> None:
    state = state_of(app)
    renderer = ready(state)
    renderer.restart_seconds = 0
    first = renderer.pid()
    assert first is not None
    phone = TestClient(app)
    read_everything(phone)
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while not gone(first) and time.monotonic() < deadline:
        time.sleep(0.05)
    enter_table_1(director, bonn, 80)  # the process is dead: rendered here
    assert renderer.fell_back == 1
    for lang in LANGS:
        page = phone.get("/p/bonn", headers={"accept-language": lang}).text
        assert ("Player A", "6") in points(page)
    enter_table_1(director, bonn, 50)  # starts a new one (rendered here while it starts)
    assert renderer.fell_back == 2
    second = ready(state).pid()
    assert second is not None and second != first
    rendered = renderer.rendered
    phone.get("/p/bonn")  # read since the last change: the next write renders it
    enter_table_1(director, bonn, 90)
    assert renderer.rendered == rendered + 1
    assert ("Player A", "6") in points(phone.get("/p/bonn").text)


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_the_render_process_stops_with_the_server(app: Any, bonn: str) -> None:
    with TestClient(app):
        state = state_of(app)
        pid = ready(state).pid()
        assert pid is not None and not gone(pid)
    assert gone(pid)  # joined at shutdown, not left to the interpreter's exit
    assert state.renderer is not None
    assert state.renderer.call(public.render_apart, [(PAGE, bonn, "en")]) is None


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_the_shutdown_kills_a_render_process_that_does_not_stop(app: Any, bonn: str) -> None:
    import threading

    state = state_of(app)
    renderer = ready(state)
    pid = renderer.pid()
    assert pid is not None
    answers: list[object] = []
    stuck = threading.Thread(target=lambda: answers.append(renderer.call(time.sleep, 60)))
    stuck.start()
    time.sleep(0.5)  # the call is in the process now
    started = time.monotonic()
    renderer.close(wait=0.5)
    assert time.monotonic() - started < 30
    stuck.join(30)
    assert answers == [None]  # the write renders its pages itself
    assert gone(pid)


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_a_render_process_that_hangs_is_given_up_and_killed(
    app: Any, client: TestClient, bonn: str
) -> None:
    state = state_of(app)
    renderer = ready(state)
    renderer.timeout = 0.5
    pid = renderer.pid()
    assert pid is not None
    assert renderer.call(time.sleep, 30) is None  # waited 0.5 s, then rendered here
    assert renderer.pid() is None
    deadline = time.monotonic() + 30
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid)


def test_which_servers_have_a_render_process(settings: WebSettings) -> None:
    assert web_settings({}).render_process is True
    assert web_settings({"AGON_RENDER_PROCESS": "no"}).render_process is False
    assert renderproc.usable(settings.database_url)
    assert not renderproc.usable("sqlite:///:memory:")
    off = create_app(settings.model_copy(update={"render_process": False}))
    try:
        assert off.state.web.renderer is None
    finally:
        off.state.web.engine.dispose()
    with pytest.raises(RuntimeError):
        renderproc.child_state()  # only in the render process


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_a_render_process_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    """kill -9 of a server process leaves no render process behind (a process pool's worker
    would wait for work forever, holding its memory and database connections)."""
    said = tmp_path / "render.pid"
    with (tmp_path / "stderr").open("w+") as err:  # not a pipe: the render process keeps it
        done = subprocess.run(
            [sys.executable, "-c", KILLED_SERVER, f"sqlite:///{tmp_path / 'agon.db'}", str(said)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            timeout=START_SECONDS,
            start_new_session=True,
        )
    assert done.returncode == -signal.SIGKILL, (tmp_path / "stderr").read_text()
    pid = int(said.read_text())
    deadline = time.monotonic() + 10 * renderproc.ORPHAN_CHECK_SECONDS
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        assert gone(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow  # spawns a render process (seconds of CPU)
def test_two_workers_on_postgresql_with_render_processes(tmp_path: Any) -> None:
    """Two workers (two apps on one PostgreSQL database), each with its render process: the
    writer's next read shows its write at once, rendered by its process; the other worker's
    once its memo of the version expires."""
    from tests.web.conftest import bonn_on_postgresql

    settings = bonn_on_postgresql(tmp_path)
    one, two = create_app(settings), create_app(settings)
    with TestClient(one) as writer, TestClient(two) as reader:
        first, second = state_of(one), state_of(two)
        ready(first)
        ready(second)
        for c in (writer, reader):
            c.get("/p/bonn")
        before = reader.get("/p/bonn").text
        token = form_token(writer.get("/desk/login").text)
        r = writer.post("/desk/login", data={"password": PASSWORD, "csrf_token": token})
        assert r.status_code == 200
        enter_table_1(writer, "bonn", 70)
        assert isinstance(first.renderer, renderproc.RenderProcess)
        assert first.renderer.rendered == 1
        own = writer.get("/p/bonn").text
        assert own != before and ("Player A", "6") in points(own)
        second.versions.ttl = 0.2
        time.sleep(0.25)
        assert points(reader.get("/p/bonn").text) == points(own)


def away(*_args: Any, **_kwargs: Any) -> Any:
    raise OperationalError("SELECT 1", {}, Exception("the database system is shutting down"))


def test_a_database_outage_while_rendering_ahead_is_one_line(
    app: Any, client: TestClient, bonn: str, caplog: pytest.LogCaptureFixture
) -> None:
    """During an outage the pages wait for their next read (the outage itself is answered with
    503 and logged elsewhere): one warning line, no traceback — in the server and from the
    render process alike."""
    state = state_of(app)
    state.renderer = None
    read_everything(client)
    state.readers = away  # type: ignore[assignment]
    with caplog.at_level(logging.WARNING, logger="agon.web"):
        public.prerender(state, {bonn: 10**6})
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "agon.web"]
    assert lines == [
        (
            "WARNING",
            f"rendering {bonn} ahead: cannot use the database: the database system is shutting down",
        )
    ]
    assert all(r.exc_info is None for r in caplog.records)


def test_the_render_process_names_a_database_outage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(public, "child_state", lambda: SimpleNamespace(readers=away))
    with pytest.raises(public.DatabaseAway, match=r"^cannot use the database: the database"):
        public.render_apart([(PAGE, "bonn", "en")])
    broken = SimpleNamespace(readers=lambda: (_ for _ in ()).throw(KeyError("x")))
    monkeypatch.setattr(public, "child_state", lambda: broken)
    with pytest.raises(RuntimeError, match="failed: KeyError") as caught:
        public.render_apart([(PAGE, "bonn", "en")])
    assert not isinstance(caught.value, public.DatabaseAway)
