"""``agon sync`` on the command line (issue 29): the hosted side's tokens, and ``agon sync push`` from
a laptop's database to a real hosted server (uvicorn in a thread), resumed and idempotent."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from argon2 import PasswordHasher
from tests.db_fixtures import backend_factory
from tests.play.server import bound_socket
from tests.sync.helpers import SLUG, chain_of, digest, run_event

from agon.cli import main
from agon.store.db import Settings, make_engine, make_session_factory
from agon.web.app import create_app
from agon.web.settings import WebSettings


class Agon:
    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
        self.capsys = capsys
        self.monkeypatch = monkeypatch

    def __call__(self, url: str, *args: str, code: int = 0) -> tuple[str, str]:
        """``agon ARGS`` on the database ``url``: (stdout, stderr); it must exit with ``code``."""
        self.monkeypatch.setenv("AGON_DATABASE_URL", url)
        self.capsys.readouterr()
        try:
            main(list(args))
            exit_code = 0
        except SystemExit as exc:
            exit_code = int(exc.code or 0)
        out, err = self.capsys.readouterr()
        assert exit_code == code, (out, err)
        if code and err:  # a refusal is one line ('agon verify' says its mismatch on stdout)
            assert err.startswith("agon: error: ") and err.count("\n") == 1, err
        return out, err


@pytest.fixture
def agon(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Agon:
    monkeypatch.setenv("AGON_ACTOR", "desk")
    return Agon(capsys, monkeypatch)


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A hosted agon (its database URL, its address) served by uvicorn in a thread."""
    url = backend_factory("sqlite").new_url(tmp_path)
    app = create_app(
        WebSettings(
            database_url=url,
            secret_key="sync-test-secret",
            director_password_hash=PasswordHasher(time_cost=1, memory_cost=1024).hash("pw-pw-pw"),
            public_url="http://hosted.test",
        )
    )
    sock = bound_socket()  # the port is ours from the start (tests/play/server.py)
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield url, f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        app.state.web.engine.dispose()


def _laptop(tmp_path: Path, *, rounds: int, seed: int = 29) -> str:
    url = backend_factory("sqlite").new_url(tmp_path)
    engine = make_engine(Settings(url))
    with make_session_factory(engine)() as session:
        run_event(session, rounds=rounds, seed=seed)
    engine.dispose()
    return url


def _session_of(url: str):  # type: ignore[no-untyped-def]
    return make_session_factory(make_engine(Settings(url)))()


def test_tokens_on_the_hosted_side(agon: Agon, tmp_path: Path) -> None:
    url = backend_factory("sqlite").new_url(tmp_path)
    agon(url, "sync", "token", "create", "--organisation", "fed", code=2)  # no such organisation
    agon(url, "org", "create", "fed", "--name", "Federation")
    token, note = agon(url, "sync", "token", "create", "--organisation", "fed", "--label", "Bonn")
    assert token.startswith("agon-sync-") and token.count("\n") == 1 and "shown only now" in note
    listed = json.loads(agon(url, "sync", "token", "list", "--json")[0])["tokens"]
    assert [(t["id"], t["organisation"], t["label"], t["revoked"]) for t in listed] == [
        (1, "fed", "Bonn", False)
    ]
    assert token.strip() not in json.dumps(listed)  # only its hash is kept
    assert "revoked" in agon(url, "sync", "token", "revoke", "1")[0]
    assert "\trevoked\t" in agon(url, "sync", "token", "list")[0]
    agon(url, "sync", "token", "revoke", "7", code=2)
    agon(url, "sync", "token", "revoke", "x", code=2)


def test_push_sends_what_is_missing_and_refuses_a_diverged_copy(
    agon: Agon, tmp_path: Path, hosted: tuple[str, str]
) -> None:
    hosted_url, address = hosted
    agon(hosted_url, "org", "create", "fed", "--name", "Federation")
    token_file = tmp_path / "token.txt"
    token_file.write_text(agon(hosted_url, "sync", "token", "create", "--organisation", "fed")[0])
    (tmp_path / "a").mkdir()
    laptop = _laptop(tmp_path / "a", rounds=1)
    push = ("sync", "push", "--to", address, "--tournament", SLUG, "--token-file", str(token_file))
    out, _ = agon(laptop, *push)
    assert "sent 11 entries; the hosted copy holds 11" in out
    out, _ = agon(laptop, *push)  # nothing missing: nothing sent
    assert "sent 0 entries; the hosted copy holds 11" in out
    with _session_of(laptop) as mine, _session_of(hosted_url) as theirs:
        assert chain_of(theirs) == chain_of(mine)
        assert digest(theirs) == digest(mine)
    # the hosted copy: read-only on the command line, counted by the ratings, its chain verified
    _, err = agon(hosted_url, "player", "add", "Intruder", "-t", SLUG, code=2)
    assert "synced copy" in err
    _, err = agon(hosted_url, "tournament", "undo", "-t", SLUG, code=2)
    assert "synced copy" in err
    rated = json.loads(agon(hosted_url, "rating", SLUG, "--json")[0])
    assert len(rated["ratings"]) == 13
    exported = tmp_path / "hosted.agon.json"
    agon(hosted_url, "export", "--journal", "-t", SLUG, "-o", str(exported))
    assert "intact" in agon(hosted_url, "verify", str(exported))[0]
    doc = json.loads(exported.read_text(encoding="utf-8"))
    doc["journal"][4]["actor"] = "someone else"
    exported.write_text(json.dumps(doc), encoding="utf-8")
    assert "does not match its content" in agon(hosted_url, "verify", str(exported), code=1)[0]
    # a copy of another run of the event: the copies diverged, nothing is overwritten
    (tmp_path / "b").mkdir()
    other = _laptop(tmp_path / "b", rounds=2, seed=3)
    _, err = agon(other, *push, code=1)
    assert "diverged" in err
    # bad input, an unreachable host, a revoked token
    agon(laptop, "sync", "push", "--to", "ftp://x", "--tournament", SLUG,
         "--token-file", str(token_file), code=2)  # fmt: skip
    agon(laptop, "sync", "push", "--to", address, "--tournament", "Bad Slug",
         "--token-file", str(token_file), code=2)  # fmt: skip
    agon(laptop, "sync", "push", "--to", address, "--tournament", SLUG,
         "--token-file", str(tmp_path / "none.txt"), code=2)  # fmt: skip
    with bound_socket() as nobody:  # bound, never listened on: it refuses, whoever runs
        _, err = agon(laptop, "sync", "push", "--to", f"http://127.0.0.1:{nobody.getsockname()[1]}",
                      "--tournament", SLUG, "--token-file", str(token_file), code=4)  # fmt: skip
    assert "the link is lost" in err
    agon(hosted_url, "sync", "token", "revoke", "1")
    _, err = agon(laptop, *push, code=2)
    assert "revoked" in err
