"""The people's forms (``/people``, the e-mail login, an invitation), fuzzed like the desk's
(tests/fuzz/test_form_routes.py, whose guarantees :func:`check` asserts): hostile values posted
by a logged-in admin with a valid CSRF token, in German or Italian — never a 5xx, a refusal is one
translated line and changes nothing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agon.people.roles import Scope
from agon.services import people, tournaments
from agon.services.schemas import TournamentCreate
from agon.web.app import create_app
from agon.web.settings import WebSettings
from tests.fuzz.test_form_routes import FUZZ, LANGS, Web, check, mutated
from tests.web.conftest import PASSWORD_HASH, TestClient, csrf_of, migrated_db

PW = "a long enough password"
__all__ = ["migrated_db"]

PEOPLE_ROUTES: list[tuple[str, dict[str, str]]] = [
    ("/people/organisations", {"slug": "fuzz-club", "name": "Fuzz club"}),
    ("/people/organisations/club/organisers", {"email": "olga@club.test"}),
    ("/people/organisations/club/tournaments", {"slug": "fuzz-cup", "name": "Fuzz cup",
                                                "ruleset": "bonn-2018"}),
    ("/people/invitations", {"tournament": "cup", "email": "sam@club.test", "role": "scorekeeper"}),
    ("/people/reset-links", {"email": "ada@club.test"}),
    ("/people/invite/not-a-token", {"name": "Eve", "password": PW}),
    ("/people/reset/not-a-token", {"password": PW}),
]  # fmt: skip


@pytest.fixture(scope="module")
def web(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Web]:
    db = tmp_path_factory.mktemp("people-fuzz") / "agon.db"
    shutil.copy(migrated_db, db)
    app = create_app(
        WebSettings(
            database_url=f"sqlite:///{db}",
            secret_key="people-fuzz",
            director_password_hash=PASSWORD_HASH,
            public_url="http://agon.test",
        )
    )
    with TestClient(app) as client:
        with app.state.web.sessions() as session:
            people.create_account(
                session, email="ada@club.test", name="Ada", password=PW, admin=True
            )
            tournaments.create_tournament(
                session,
                data=TournamentCreate(slug="cup", name="Cup", ruleset="bonn-2018", seed="s"),
                actor="test",
            )
            people.create_organisation(session, slug="club", name="Club")
            people.attach_tournament(session, tournament="cup", organisation="club")
            people.create_account(session, email="sam@club.test", name="Sam", password=PW)
            people.grant(
                session,
                email="sam@club.test",
                role="director",
                scope=Scope.TOURNAMENT,
                target="cup",
            )
        h = {"x-csrf-token": csrf_of(client)}
        r = client.post("/api/login", json={"email": "ada@club.test", "password": PW}, headers=h)
        assert r.status_code == 200
        yield Web(app, client)
    app.state.web.engine.dispose()


@FUZZ
@given(route=st.sampled_from(PEOPLE_ROUTES).flatmap(
    lambda r: st.tuples(st.just(r[0]), mutated(r[1]))), lang=LANGS)  # fmt: skip
def test_every_people_form(web: Web, route: tuple[str, dict[str, Any]], lang: str) -> None:
    path, form = route
    r = check(web, path, form, lang)
    if r.status_code == 303:  # an invitation or a reset was used: log in as the admin again
        h = {"x-csrf-token": csrf_of(web.client)}
        web.client.post("/api/login", json={"email": "ada@club.test", "password": PW}, headers=h)
