"""The sync API (issue 29): ``GET``/``POST /api/sync/{slug}`` with a bearer token; the hosted copy is
public like any tournament and refuses every edit on the web with one translated line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from agon.services import players, sync
from agon.services.schemas import PlayerCreate
from agon.services.sync_client import PROBLEM_HEADER, wire_entries
from agon.store.models import JournalEntry
from tests.sync.helpers import SLUG, laptop_session, organisation_token, run_event
from tests.web.conftest import TestClient, csrf_of, form_token

URL = f"/api/sync/{SLUG}"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _push(client: TestClient, token: str, items: list[dict[str, Any]], size: int = 30) -> None:
    seq = client.get(URL, headers=_bearer(token)).json()["seq"]
    todo = [i for i in items if i["seq"] > seq]
    for k in range(0, len(todo), size):
        r = client.post(URL, json={"entries": todo[k : k + size]}, headers=_bearer(token))
        assert r.status_code == 200, r.text


def _journal(db: Session) -> int:
    db.rollback()
    db.expire_all()
    n = int(db.scalar(select(func.count()).select_from(JournalEntry)) or 0)
    db.rollback()
    return n


def _login(client: TestClient) -> None:
    """The director logs in (a login begins a new session: ask for its CSRF token again)."""
    login = client.post(
        "/api/login",
        json={"password": "correct horse battery staple"},
        headers={"x-csrf-token": csrf_of(client)},
    )
    assert login.status_code == 200


def test_a_push_over_http_publishes_the_event(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    token = organisation_token(db)
    assert client.get(URL).status_code == 401  # no token
    r = client.get(URL, headers=_bearer("agon-sync-wrong"))
    assert r.status_code == 401 and r.json()["detail"] == "unknown sync token"
    answer = client.get(URL, headers=_bearer(token)).json()
    assert answer == {"tournament": SLUG, "seq": 0, "hash": "0" * 64}
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        items = wire_entries(laptop, SLUG, after=0, limit=1000)
        laptop.rollback()
    assert client.get(f"/api/tournaments/{SLUG}/standings").status_code == 404
    _push(client, token, items[:8])
    first = client.get(f"/api/tournaments/{SLUG}/standings").json()
    _push(client, token, items)
    answer = client.get(URL, headers=_bearer(token)).json()
    assert (answer["seq"], answer["hash"]) == (len(items), items[-1]["hash"])
    shown = client.get(f"/api/tournaments/{SLUG}/standings").json()
    assert shown != first and len(shown["rows"]) == 13  # the public pages follow the pushes
    assert client.get(f"/p/{SLUG}").status_code == 200
    # the same batch again: nothing doubled
    again = client.post(URL, json={"entries": items[-5:]}, headers=_bearer(token))
    assert again.status_code == 200 and again.json()["skipped"] == 5
    # a batch that does not continue the copy: 409, and the header says which kind
    behind = client.post(URL, json={"entries": items[-1:]}, headers=_bearer(token))
    assert behind.status_code == 200  # held already: skipped
    with laptop_session(tmp_path) as other:
        run_event(other, rounds=1, seed=5)
        players.register_player(
            other, tournament=SLUG, data=PlayerCreate(name="Late Comer"), actor="desk"
        )
        foreign = wire_entries(other, SLUG, after=0, limit=1000)
    r = client.post(URL, json={"entries": foreign[-1:]}, headers=_bearer(token))
    assert r.status_code == 409 and r.headers[PROBLEM_HEADER] == "diverged"
    r = client.post(URL, json={"entries": foreign[:20]}, headers=_bearer(token))
    assert r.status_code == 409 and r.headers[PROBLEM_HEADER] == "diverged"


def test_the_copy_refuses_edits_on_the_web(client: TestClient, db: Session, tmp_path: Path) -> None:
    token = organisation_token(db)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        _push(client, token, wire_entries(laptop, SLUG, after=0, limit=1000))
    length = _journal(db)
    _login(client)
    csrf = csrf_of(client)  # a login begins a new session
    r = client.post(
        f"/api/tournaments/{SLUG}/players",
        json={"name": "Intruder"},
        headers={"x-csrf-token": csrf},
    )
    assert r.status_code == 409 and "synced copy" in r.json()["detail"]
    page = client.get(f"/desk/{SLUG}?lang=de")
    r = client.post(
        f"/desk/{SLUG}/players?lang=de",
        data={"name": "Intruder", "csrf_token": form_token(page.text)},
    )
    assert r.status_code == 409
    assert "synchronisierte Kopie" in r.text
    assert _journal(db) == length


def test_the_desk_says_the_event_is_a_synced_copy(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    """The hosted desk names the copy's origin and the last push before anyone tries an edit;
    an event run on this server has no such banner."""
    token = organisation_token(db)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        items = wire_entries(laptop, SLUG, after=0, limit=1000)
    _login(client)
    r = client.post(
        "/api/tournaments",
        json={"name": "Run here", "slug": "run-here", "ruleset": "bonn-2018"},
        headers={"x-csrf-token": csrf_of(client)},
    )
    assert r.status_code in (200, 201), r.text
    assert 'id="synced-copy"' not in client.get("/desk/run-here").text
    _push(client, token, items)
    copy = sync.synced_copy(db, SLUG)
    assert copy is not None and copy.seq == len(items)
    for url in (f"/desk/{SLUG}?lang=en", f"/desk/{SLUG}/rounds/1?lang=en"):
        page = client.get(url)
        assert page.status_code == 200
        assert 'id="synced-copy"' in page.text and "read-only here" in page.text
        assert f"journal entry {len(items)})" in page.text
        assert copy.last_at.strftime("%H:%M") in page.text
    assert "synchronisierte Kopie" in client.get(f"/desk/{SLUG}?lang=de").text


def test_a_revoked_token_is_refused(client: TestClient, db: Session, tmp_path: Path) -> None:
    token = organisation_token(db)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        items = wire_entries(laptop, SLUG, after=0, limit=1000)
    _push(client, token, items[:5])
    sync.revoke_token(db, token_id=sync.list_tokens(db)[0].id)
    r = client.post(URL, json={"entries": items[5:9]}, headers=_bearer(token))
    assert r.status_code == 403 and r.json()["detail"] == "this sync token was revoked"
    assert client.get(URL, headers=_bearer(token)).status_code == 403


#: JSON values a fuzzed entry field may take.
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def test_fuzzed_batches_never_break_the_copy(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    """Any batch (entries with fields replaced by arbitrary JSON): a 200, 409 or 422 answer,
    never a 5xx, and a refused batch stores nothing."""
    token = organisation_token(db)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        items = wire_entries(laptop, SLUG, after=0, limit=1000)
    _push(client, token, items[:4])

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        start=st.integers(0, len(items) - 1),
        size=st.integers(1, 4),
        field=st.sampled_from([*sorted(sync.WIRE_KEYS), "extra"]),
        value=_VALUES,
    )
    def check(start: int, size: int, field: str, value: Any) -> None:
        batch = [dict(i) for i in items[start : start + size]]
        batch[0][field] = value
        before = _journal(db)
        r = client.post(URL, json={"entries": batch}, headers=_bearer(token))
        assert r.status_code in (200, 409, 422), r.text
        assert "detail" in r.json() or r.status_code == 200
        if r.status_code != 200:
            assert _journal(db) == before

    check()
