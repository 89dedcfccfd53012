"""tests/play/server.py's ``Server``: a single-process ``agon serve`` is forked from the test
process (no new interpreter importing agon again) and behaves as ``python -m agon serve``
does: a session of its own, its output and its log lines in the log file, the server's
environment, signals handled as in a new process. ``--workers`` still starts a new interpreter
(uvicorn's supervisor spawns its workers)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest

from tests.play.server import DIRECTOR_PASSWORD, Server
from tests.web.conftest import form_token


@pytest.mark.slow  # starts a server (about a second of CPU)
def test_a_single_server_is_forked_and_runs_as_a_new_process_would(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Server(f"sqlite:///{tmp_path / 'agon.db'}", "--log-level", "info", log=log)
    assert server.forked
    server.start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        # forked from here: this process's command line, not ``python -m agon serve``
        assert Path(f"/proc/{pid}/cmdline").read_bytes() == Path("/proc/self/cmdline").read_bytes()
        assert os.getsid(pid) == pid == os.getpgid(pid)  # kill9 and stop reach all of it
        # the server's environment: its director's password logs in
        with httpx.Client(base_url=server.url, timeout=30) as client:
            page = client.get("/desk/login")
            answer = client.post(
                "/desk/login",
                data={"password": DIRECTOR_PASSWORD, "csrf_token": form_token(page.text)},
            )
            assert answer.status_code == 303, answer.text
            assert client.get("/desk").status_code == 200
    finally:
        server.stop()
    assert server.proc.returncode in (0, -signal.SIGTERM)  # SIGTERM: a clean stop
    said = log.read_text()
    # its output and its log records are in the log file (not in pytest's capture)
    assert f"agon: http://127.0.0.1:{server.port}/" in said
    assert "INFO uvicorn.error: Application startup complete." in said
    assert f"INFO uvicorn.error: Finished server process [{pid}]" in said  # stopped cleanly
    assert "Traceback" not in said


def test_a_server_with_workers_is_a_new_interpreter() -> None:
    assert not Server("sqlite:///unused.db", "--workers", "2").forked
