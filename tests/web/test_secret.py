"""Issue 10, defect 8: the secret key is not in the database, data files are private, and the
key can be rotated.

A copy of the database alone must neither contain the key's bytes nor let anyone make a valid
director cookie or a table's PIN.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy.orm import Session

from agon.cli import cli, main
from agon.services import rounds
from agon.store.models import Setting
from agon.web.app import create_app
from agon.web.secret import LEGACY_SETTING, secret_file
from agon.web.security import table_pin
from agon.web.settings import WebSettings
from tests.web.conftest import BONN_TABLES, PASSWORD, PASSWORD_HASH, TestClient, csrf_of, make_bonn


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def database_bytes(db: Path) -> bytes:
    """Everything a copy of the database could hold: the file and its -wal and -shm."""
    parts = [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")]
    return b"".join(p.read_bytes() for p in parts if p.exists())


def start(db: Path, **overrides: Any) -> Any:
    settings = WebSettings(
        database_url=f"sqlite:///{db}", director_password_hash=PASSWORD_HASH, **overrides
    )
    return create_app(settings)


def stop(app: Any) -> None:
    app.state.web.engine.dispose()
    app.state.web.readers.kw["bind"].dispose()


def login(app: Any) -> TestClient:
    client = TestClient(app)
    token = csrf_of(client)
    r = client.post("/api/login", json={"password": PASSWORD}, headers={"x-csrf-token": token})
    assert r.json()["director"] is True
    return client


def test_a_new_database_is_private_and_holds_no_key(tmp_path: Path) -> None:
    db = tmp_path / "var" / "agon.db"
    app = start(db)
    key_file = secret_file(f"sqlite:///{db}")
    assert key_file == tmp_path / "var" / "agon.key"
    key = app.state.web.secret_key
    assert key_file.read_text().strip() == key and len(key) >= 32
    assert mode(key_file) == 0o600 and mode(db.parent) == 0o700 and mode(db) == 0o600
    with app.state.web.sessions() as session:
        make_bonn(session)
    for extra in ("-wal", "-shm"):
        side = db.with_name(db.name + extra)
        assert not side.exists() or mode(side) == 0o600, extra
    assert key.encode() not in database_bytes(db)
    stop(app)
    again = start(db)  # the same key after a restart: printed PINs stay valid
    assert again.state.web.secret_key == key
    stop(again)


def test_an_existing_world_readable_database_is_narrowed(tmp_path: Path) -> None:
    db = tmp_path / "agon.db"
    stop(start(db))
    os.chmod(db, 0o644)
    stop(start(db))
    assert mode(db) == 0o600


def test_a_key_kept_in_the_database_is_moved_out(tmp_path: Path) -> None:
    """Versions before issue 10 kept the key in the settings table: it moves to the key file
    (the PINs printed with it stay valid) and its bytes leave the database file."""
    db = tmp_path / "agon.db"
    app = start(db, secret_key="only-to-create-the-schema")
    legacy = "legacy-key-" + "Q" * 40
    with app.state.web.sessions() as session:
        session.add(Setting(key=LEGACY_SETTING, value=legacy))
        session.commit()
        make_bonn(session)
        rounds.start_round(session, tournament="bonn", actor="t", tables=[*map(list, BONN_TABLES)])
        session.commit()
    stop(app)
    assert legacy.encode() in database_bytes(db)  # what a copy of the file gave away before
    moved = start(db)
    assert moved.state.web.secret_key == legacy
    assert (tmp_path / "agon.key").read_text().strip() == legacy
    with moved.state.web.sessions() as session:
        assert session.get(Setting, LEGACY_SETTING) is None
    stop(moved)
    assert legacy.encode() not in database_bytes(db)
    with TestClient(start(db)) as client:  # a table unlocks with the PIN printed before
        token = csrf_of(client)
        pin = table_pin(legacy, "bonn", 1, 1)
        r = client.post(
            "/api/tables/bonn/1/1/unlock", json={"pin": pin}, headers={"x-csrf-token": token}
        )
        assert r.status_code == 200


def test_a_copy_of_the_database_alone_yields_no_cookie_and_no_pin(
    tmp_path: Path, db: Session, settings: WebSettings
) -> None:
    original_db = tmp_path / "event" / "agon.db"
    original_db.parent.mkdir()
    shutil.copy(Path(settings.database_url.removeprefix("sqlite:///")), original_db)
    original = start(original_db)
    with original.state.web.sessions() as session:
        make_bonn(session)
        rounds.start_round(session, tournament="bonn", actor="t", tables=[*map(list, BONN_TABLES)])
        session.commit()
    key = original.state.web.secret_key
    assert key.encode() not in database_bytes(original_db)
    # the thief copies the database (and its -wal) and starts agon on it with a password of theirs
    stolen_db = tmp_path / "thief" / "agon.db"
    stolen_db.parent.mkdir()
    for name in ("agon.db", "agon.db-wal"):
        if (original_db.parent / name).exists():
            shutil.copy(original_db.parent / name, stolen_db.parent / name)
    thief_app = start(stolen_db)
    assert thief_app.state.web.secret_key != key
    thief_pin = table_pin(thief_app.state.web.secret_key, "bonn", 1, 1)
    real_pin = table_pin(key, "bonn", 1, 1)
    with login(thief_app) as thief, TestClient(original) as victim:
        forged = thief.cookies.get("agon_session")
        victim.cookies.set("agon_session", forged or "")
        assert victim.get("/api/tournaments/bonn/journal").status_code == 401
        token = csrf_of(victim)
        r = victim.post(
            "/api/tables/bonn/1/1/unlock", json={"pin": thief_pin}, headers={"x-csrf-token": token}
        )
        # the PIN computed from the copy does not open the table (unless it is the right one by
        # chance, one in 10,000: the key, not the PIN, is what the copy must not give away)
        assert r.status_code == (200 if thief_pin == real_pin else 403)
    stop(thief_app)
    stop(original)


def test_rotate_writes_a_new_key_and_ends_every_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "agon.db"
    monkeypatch.setenv("AGON_DATABASE_URL", f"sqlite:///{db}")
    monkeypatch.delenv("AGON_SECRET_KEY", raising=False)
    monkeypatch.delenv("AGON_SECRET_FILE", raising=False)
    app = start(db)
    old = app.state.web.secret_key
    with login(app) as director:
        assert director.get("/api/session").json()["director"] is True
        result = CliRunner().invoke(cli, ["secret", "rotate"])
        assert result.exit_code == 0, result.output
        assert "reprint" in result.output and str(tmp_path / "agon.key") in result.output
        # the running app still signs with the old key, but the session is closed already
        assert director.get("/api/session").json()["director"] is False
    stop(app)
    key_file = tmp_path / "agon.key"
    assert key_file.read_text().strip() != old and mode(key_file) == 0o600
    assert start(db).state.web.secret_key == key_file.read_text().strip()
    path = CliRunner().invoke(cli, ["secret", "path"])
    assert path.output.strip() == str(key_file)


def test_rotate_refuses_when_the_key_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGON_DATABASE_URL", f"sqlite:///{tmp_path / 'agon.db'}")
    monkeypatch.setenv("AGON_SECRET_KEY", "from-the-environment")
    with pytest.raises(SystemExit) as exited:
        main(["secret", "rotate"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "AGON_SECRET_KEY" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "agon.key").exists()


def test_secret_file_setting(tmp_path: Path) -> None:
    chosen = tmp_path / "keys" / "event.key"
    app = start(tmp_path / "agon.db", secret_file=str(chosen))
    assert chosen.read_text().strip() == app.state.web.secret_key and mode(chosen) == 0o600
    assert not (tmp_path / "agon.key").exists()
    stop(app)


def test_two_first_starts_agree_on_the_key(tmp_path: Path) -> None:
    """Processes starting at once on a new database must not each keep a key of their own."""
    from concurrent.futures import ThreadPoolExecutor

    from agon.web.secret import _write_private

    key_file = tmp_path / "var" / "agon.key"
    with ThreadPoolExecutor(8) as pool:
        list(
            pool.map(
                lambda i: _write_private(key_file, f"key-{i:02d}-" + "x" * 30, replace=False),
                range(8),
            )
        )
    first = key_file.read_text()
    _write_private(key_file, "another-" + "y" * 30, replace=False)
    assert key_file.read_text() == first and mode(key_file) == 0o600
    assert [p.name for p in key_file.parent.iterdir()] == ["agon.key"]  # no temporary files left


def test_an_empty_key_file_is_one_clear_error(tmp_path: Path) -> None:
    from agon.errors import InvalidInput

    (tmp_path / "agon.key").write_text("\n")
    with pytest.raises(InvalidInput, match=r"agon\.key.*empty or too short"):
        start(tmp_path / "agon.db")
