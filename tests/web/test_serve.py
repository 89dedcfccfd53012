"""``agon serve``: settings from the environment, a password when none is set, the demo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from agon.services import rounds
from agon.web.demo import DEMO_SLUG, create_demo
from agon.web.security import verify_password
from agon.web.settings import web_settings
from tests.web.conftest import TestClient


def test_serve_makes_a_password_and_the_demo(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    from agon.web.cli import serve

    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(app=app, **kw))
    monkeypatch.delenv("AGON_DIRECTOR_PASSWORD", raising=False)
    monkeypatch.delenv("AGON_DIRECTOR_PASSWORD_HASH", raising=False)
    monkeypatch.delenv("AGON_PUBLIC_URL", raising=False)
    monkeypatch.setenv("AGON_DATABASE_URL", f"sqlite:///{tmp_path / 'agon.db'}")
    result = CliRunner().invoke(serve, ["--demo", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "demo tournament created: /p/demo" in result.output
    password = result.output.split("director password for this run: ")[1].split()[0]
    state = served["app"].state.web
    assert verify_password(state.settings.director_password_hash, password)
    assert state.settings.public_url == "http://127.0.0.1:8123"
    assert served["host"] == "127.0.0.1" and served["port"] == 8123
    assert served["proxy_headers"] is False  # X-Forwarded-For only from AGON_TRUSTED_PROXIES
    with TestClient(served["app"]) as client:
        page = client.get("/p/demo")
        assert page.status_code == 200 and page.text.count('<td class="name">') == 13
    again = CliRunner().invoke(serve, ["--demo"])
    assert "demo tournament present" in again.output


def test_demo_is_the_same_every_time(db: Any) -> None:
    assert create_demo(db) is True
    assert create_demo(db) is False
    second = rounds.get_round(db, tournament=DEMO_SLUG, number=2)
    db.rollback()
    assert [t.state for t in second.tables] == ["confirmed", "pending", "open"]
    assert len(second.wonders) == 5


def test_settings_from_the_environment() -> None:
    settings = web_settings(
        {
            "AGON_DATABASE_URL": "sqlite:///x.db",
            "AGON_SECRET_KEY": "s",
            "AGON_DIRECTOR_PASSWORD": "pw",
            "AGON_PUBLIC_URL": "http://10.0.0.2:8000/",
            "AGON_SECURE_COOKIES": "1",
        }
    )
    assert settings.database_url == "sqlite:///x.db" and settings.secret_key == "s"
    assert verify_password(settings.director_password_hash, "pw")
    assert not verify_password(settings.director_password_hash, "other")
    assert settings.public_url == "http://10.0.0.2:8000" and settings.secure_cookies
    assert web_settings({}).director_password_hash is None
    assert not verify_password(None, "")
