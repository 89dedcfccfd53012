"""Issue 27: ``agon serve --log-level/--log-format/--access-log`` — the level and JSON lines, and an
access log (opt-in) that never holds a seat token, a login link or a ``?token=``."""

from __future__ import annotations

import json
import logging
import logging.config
import string
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agon.web.app import create_app
from agon.web.loginlinks import LINK_PATH, create_link
from agon.web.logs import ACCESS_LOGGER, REDACTED, JsonFormatter, logging_config, redact
from agon.web.settings import WebSettings
from tests.cli_runner import run_agon
from tests.fuzzing import examples
from tests.web.conftest import TestClient
from tests.web.test_play_api import create


@pytest.fixture
def logged(settings: WebSettings) -> Any:
    application = create_app(settings.replace(access_log=True))
    yield application
    application.state.web.engine.dispose()


def access_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == ACCESS_LOGGER]


def test_the_access_log_redacts_a_real_seat_url_and_a_login_link(
    logged: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    with TestClient(logged) as client:
        game = create(client)
        seat_url = game["seats"][0]["url"]  # /play/<id>?token=<the seat's secret>
        token = game["seats"][0]["token"]
        assert client.get(seat_url).status_code == 200
        assert client.get(f"/api/play/{game['game_id']}", params={"token": token}).is_success
        link = create_link(logged.state.web.engine)
        client.get(LINK_PATH + link, follow_redirects=False)
        client.head("/healthz")
    lines = access_lines(caplog)
    text = "\n".join(r.getMessage() for r in lines)
    assert token not in text and link not in text
    assert f"/play/{game['game_id']}?token={REDACTED}" in text  # the game id stays readable
    assert f"{LINK_PATH}{REDACTED}" in text
    assert '"HEAD /healthz" 200' in text
    seat_line = next(r for r in lines if r.__dict__["path"].startswith("/play/"))
    assert seat_line.__dict__["status"] == 200 and seat_line.__dict__["method"] == "GET"
    assert token not in seat_line.__dict__["path"]


def test_no_access_log_unless_asked(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    client.get("/healthz")
    assert access_lines(caplog) == []


@pytest.mark.parametrize(
    ("path", "query", "shown"),
    [
        ("/play/AbCdEfGhIjKlMnOp", "token=Zq3u_0Jx9fK2LmN8pQr4sT6vW8yA0cE2gI4kM6oQ8sU", None),
        ("/desk/link/Zq3u_0Jx9fK2LmN8pQr4sT6vW8y", "", "/desk/link/REDACTED"),
        ("/register/abc/confirm", "lang=de", "/register/REDACTED/confirm?lang=de"),
        ("/seat/x7", "", "/seat/REDACTED"),
        ("/p/bonn-spielt-qualifier-2026", "", "/p/bonn-spielt-qualifier-2026"),
        ("/i/Zq3u_0Jx9fK2LmN8pQr4sT6vW8y", "", "/i/REDACTED"),
        ("/p/x/seat", "code=123456&password=a+b&api_key=k&next=%2Fdesk", None),
    ],
)
def test_redact(path: str, query: str, shown: str | None) -> None:
    out = redact(path, query)
    if shown is not None:
        assert out == shown
    for secret in ("Zq3u_0Jx9fK2", "123456", "a+b", "a%20b", "=k"):
        assert secret not in out
    if "next" in query:
        assert "next=%2Fdesk" in out


def test_json_lines() -> None:
    record = logging.LogRecord("agon.access", logging.INFO, __file__, 1, "GET %s", ("/x",), None)
    record.__dict__.update(status=200, path="/x", ms=1.5)
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "info" and line["logger"] == "agon.access"
    assert line["message"] == "GET /x" and line["status"] == 200 and line["ms"] == 1.5
    assert line["time"].endswith("+00:00")


def test_logging_config_sets_the_level_and_the_format(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # dictConfig closes every handler there is (pytest's own log capture too, which broke every
    # later test of the same worker): here it leaves them alone, and the loggers are restored
    monkeypatch.setattr(logging.config, "_clearExistingHandlers", lambda: None)
    agon, uvicorn = logging.getLogger("agon"), logging.getLogger("uvicorn")
    touched = (
        agon,
        uvicorn,
        logging.getLogger("uvicorn.error"),
        logging.getLogger("uvicorn.access"),
    )
    saved = [(lg, lg.level, lg.handlers[:], lg.propagate) for lg in touched]
    try:
        logging.config.dictConfig(logging_config("debug", "json"))
        assert agon.level == logging.DEBUG and uvicorn.level == logging.DEBUG
        logging.getLogger("agon.web").debug("hello %s", "there")
        line = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
        assert line["message"] == "hello there" and line["level"] == "debug"
        logging.config.dictConfig(logging_config("error", "text"))
        logging.getLogger("agon.web").warning("not shown")
        assert "not shown" not in capsys.readouterr().err
    finally:
        for lg, level, handlers, propagate in saved:
            lg.setLevel(level)
            lg.handlers[:] = handlers
            lg.propagate = propagate


def test_serve_takes_the_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    from agon.web import metrics

    served: dict[str, Any] = {}
    ports: list[int] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(app=app, **kw))
    hosts: list[str] = []

    def metrics_port(port: int, host: str, _sessions: object) -> None:
        ports.append(port)
        hosts.append(host)

    monkeypatch.setattr(metrics, "serve_metrics_port", metrics_port)
    env = {
        "AGON_DATABASE_URL": f"sqlite:///{tmp_path / 'agon.db'}",
        "AGON_DIRECTOR_PASSWORD": "pw",
    }
    args = ["serve", "--log-level", "DEBUG", "--log-format", "json", "--access-log"]
    args += ["--root-path", "/agon/", "--metrics-port", "9109"]
    result = run_agon(*args, env=env)
    assert result.returncode == 0, result.stderr
    settings = served["app"].state.web.settings
    assert (settings.log_level, settings.log_format, settings.access_log) == ("debug", "json", True)
    assert settings.root_path == "/agon" and ports == [9109] and hosts == ["127.0.0.1"]
    assert served["log_level"] == "debug" and served["access_log"] is False  # agon's own log
    formatter = served["log_config"]["formatters"]["agon"]
    assert formatter["()"].endswith("JsonFormatter")
    assert "http://127.0.0.1:8000/agon/" in result.stdout
    # the metrics port listens on loopback unless told, even when the app listens everywhere
    assert run_agon("serve", "--host", "0.0.0.0", "--metrics-port", "9110", env=env).returncode == 0
    assert hosts[-1] == "127.0.0.1"
    assert (
        run_agon("serve", "--metrics-port", "9111", "--metrics-host", "::", env=env).returncode == 0
    )
    assert (ports[-1], hosts[-1]) == (9111, "::")


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--log-level", "loud"], {}, "--log-level"),
        ([], {"AGON_LOG_LEVEL": "loud"}, "AGON_LOG_LEVEL='loud'"),
        ([], {"AGON_LOG_FORMAT": "xml"}, "AGON_LOG_FORMAT='xml'"),
        (["--root-path", "agon"], {}, "AGON_ROOT_PATH='agon'"),
        ([], {"AGON_ROOT_PATH": "/a b"}, "AGON_ROOT_PATH"),
        ([], {"AGON_ACCESS_LOG": "maybe"}, "AGON_ACCESS_LOG='maybe'"),
        (["--metrics-port", "8000"], {}, "--metrics-port 8000"),
        ([], {"AGON_METRICS_PORT": "0"}, "AGON_METRICS_PORT"),
        (["--metrics-host", "everywhere"], {}, "AGON_METRICS_HOST='everywhere'"),
    ],
)
def test_serve_refuses_bad_options(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str], env: dict[str, str], said: str
) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: pytest.fail("served"))
    base = {"AGON_DATABASE_URL": f"sqlite:///{tmp_path / 'agon.db'}", "AGON_DIRECTOR_PASSWORD": "x"}
    result = run_agon("serve", *args, env={**base, **env})
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert said in result.stderr and "Traceback" not in result.stderr
    assert len([line for line in result.stderr.splitlines() if said in line]) == 1


secret_value = st.text(
    alphabet=string.ascii_letters + string.digits + "_-", min_size=8, max_size=50
)


@settings(max_examples=examples(200), deadline=None)
@given(
    segments=st.lists(st.text(max_size=30).filter(lambda t: "/" not in t), max_size=6),
    name=st.sampled_from(["token", "Token", "seat_token", "code", "api_key", "password"]),
    secret=secret_value,
    other=st.text(max_size=20),
)
def test_redact_any_url(segments: list[str], name: str, secret: str, other: str) -> None:
    """Any path and query: no exception, and a secret parameter's value never shows."""
    path = "/" + "/".join(segments)
    assume(secret not in other and secret not in path)
    query = urlencode([("lang", other), (name, secret)])
    out = redact(path, query)
    assert f"{quote(name, safe='')}={REDACTED}" in out
    assert secret not in out.partition("?")[2]
    link = redact(f"/desk/link/{secret}")
    assert link == f"/desk/link/{REDACTED}"
