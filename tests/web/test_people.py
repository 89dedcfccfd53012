"""People and roles on the web (issue 27): e-mail login, roles per action (403 with one translated
line, HTML and JSON), the journal names the person, invitations, reset links, logout revokes."""

from __future__ import annotations

from typing import ClassVar

import pytest
from sqlalchemy.orm import Session

from agon.people.roles import Scope
from agon.services import journal, people
from agon.web.app import LOGIN_ATTEMPTS
from tests.web.conftest import BONN_TABLES, PASSWORD, TestClient, csrf_of, form_token, make_bonn

PW = "a long enough password"
#: The refusal's one line, as each catalogue says it.
REFUSED = {
    "en": "Your role does not allow this here.",
    "de": "Ihre Rolle erlaubt das hier nicht.",
    "it": "Il tuo ruolo non lo consente qui.",
}


def account(db: Session, email: str, name: str, *, admin: bool = False) -> None:
    people.create_account(db, email=email, name=name, password=PW, admin=admin)


def login(client: TestClient, email: str, password: str = PW) -> dict[str, str]:
    h = {"x-csrf-token": csrf_of(client)}
    r = client.post("/api/login", json={"email": email, "password": password}, headers=h)
    assert r.status_code == 200, r.text
    return {"x-csrf-token": r.json()["csrf_token"]}


def result_body(table: int) -> dict[str, object]:
    seats = BONN_TABLES[table - 1]
    return {"results": [{"player": p, "vp": 40 + i, "coins": i} for i, p in enumerate(seats)]}


@pytest.fixture
def staffed(db: Session) -> str:
    """Bonn with 13 players in the organisation "club"; a director, a referee and a scorekeeper."""
    make_bonn(db)
    people.create_organisation(db, slug="club", name="Spieleclub")
    people.attach_tournament(db, tournament="bonn", organisation="club")
    for email, name, role in (
        ("dora@club.test", "Dora Director", "director"),
        ("rita@club.test", "Rita Referee", "referee"),
        ("sam@club.test", "Sam Scorer", "scorekeeper"),
    ):
        account(db, email, name)
        people.grant(db, email=email, role=role, scope=Scope.TOURNAMENT, target="bonn")
    db.rollback()
    return "bonn"


def test_the_scorekeeper_enters_and_confirms_but_may_not_start_a_round(
    client: TestClient, db: Session, staffed: str
) -> None:
    dora = login(client, "dora@club.test")
    tables = [list(t) for t in BONN_TABLES]
    r = client.post("/api/tournaments/bonn/rounds", json={"tables": tables}, headers=dora)
    assert r.status_code == 201, r.text
    with TestClient(client.app) as sam_client:
        sam = login(sam_client, "sam@club.test")
        url = "/api/tournaments/bonn/rounds/1/tables/1"
        r = sam_client.post(f"{url}/result", json=result_body(1), headers=sam)
        assert r.status_code == 200, r.text
        r = sam_client.post(f"{url}/confirm", json={"version": r.json()["version"]}, headers=sam)
        assert r.status_code == 200 and r.json()["state"] == "confirmed"
        again = {**result_body(1), "version": r.json()["version"]}
        r = sam_client.post(f"{url}/result", json=again, headers=sam)
        assert r.status_code == 403  # correcting a confirmed table is a referee's
        for path, body in (
            ("/api/tournaments/bonn/rounds", {}),
            ("/api/tournaments/bonn/rounds/1/close", {}),
            ("/api/tournaments/bonn/undo", {}),
            ("/api/tournaments/bonn/players", {"name": "Zed"}),
        ):
            r = sam_client.post(path, json=body, headers={**sam, "accept-language": "de"})
            assert (r.status_code, r.json()) == (403, {"detail": REFUSED["de"]}), path
    entries = journal.list_journal(db, tournament="bonn")
    db.rollback()
    actors = [e.actor for e in entries[-3:]]
    assert actors == ["Dora Director (director)", "Sam Scorer (scorekeeper)"] * 1 + [
        "Sam Scorer (scorekeeper)"
    ]


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_a_refusal_is_one_translated_line_on_a_page(
    client: TestClient, staffed: str, lang: str
) -> None:
    login(client, "sam@club.test")
    page = client.get(f"/desk/bonn?lang={lang}")
    assert page.status_code == 200  # a scorekeeper reads the desk
    token = form_token(page.text)
    r = client.post(f"/desk/bonn/rounds?lang={lang}", data={"csrf_token": token})
    assert r.status_code == 403
    assert REFUSED[lang] in r.text and "Traceback" not in r.text


def test_a_referee_corrects_but_does_not_run_rounds(
    client: TestClient, db: Session, staffed: str
) -> None:
    dora = login(client, "dora@club.test")
    tables = [list(t) for t in BONN_TABLES]
    assert client.post("/api/tournaments/bonn/rounds", json={"tables": tables}, headers=dora)
    with TestClient(client.app) as other:
        rita = login(other, "rita@club.test")
        r = other.post("/api/tournaments/bonn/undo", json={}, headers=rita)
        assert r.status_code == 200, r.text  # the round's start is undone: a correction
        r = other.post("/api/tournaments/bonn/rounds", json={"tables": tables}, headers=rita)
        assert r.status_code == 403
    assert journal.list_journal(db, tournament="bonn")[-1].actor == "Rita Referee (referee)"
    db.rollback()


def test_a_role_in_one_tournament_gives_nothing_in_another(
    client: TestClient, db: Session, staffed: str
) -> None:
    make_bonn(db, slug="rome")
    dora = login(client, "dora@club.test")
    r = client.post("/api/tournaments/rome/players", json={"name": "Zed"}, headers=dora)
    assert r.status_code == 403
    assert client.post("/api/tournaments/bonn/players", json={"name": "Zed"}, headers=dora)


def test_with_accounts_the_director_password_no_longer_opens_the_desk(
    client: TestClient, db: Session
) -> None:
    make_bonn(db)
    h = {"x-csrf-token": csrf_of(client)}
    r = client.post("/api/login", json={"password": PASSWORD}, headers=h)
    assert r.status_code == 200 and r.json()["director"]  # no account: as before
    h = {"x-csrf-token": r.json()["csrf_token"]}
    assert (
        client.post("/api/tournaments/bonn/players", json={"name": "A1"}, headers=h).status_code
        == 201
    )
    account(db, "ada@club.test", "Ada Admin", admin=True)
    db.rollback()
    r = client.post("/api/tournaments/bonn/players", json={"name": "A2"}, headers=h)
    assert r.status_code == 401  # the old director session counts no more
    r = client.post("/api/login", json={"password": PASSWORD}, headers=h)
    assert r.status_code == 401


def test_wrong_credentials_are_401_and_counted_by_the_login_limit(
    client: TestClient, db: Session
) -> None:
    account(db, "ada@club.test", "Ada Admin", admin=True)
    db.rollback()
    h = {"x-csrf-token": csrf_of(client)}
    codes = [
        client.post(
            "/api/login", json={"email": "ada@club.test", "password": f"wrong {i}"}, headers=h
        ).status_code
        for i in range(LOGIN_ATTEMPTS + 1)
    ]
    assert codes == [401] * LOGIN_ATTEMPTS + [429]
    r = client.post("/api/login", json={"email": "ada@club.test", "password": PW}, headers=h)
    assert r.status_code == 429  # even the right one waits


def test_logout_revokes_the_session_for_a_copied_cookie(
    client: TestClient, db: Session, staffed: str
) -> None:
    dora = login(client, "dora@club.test")
    cookie = client.cookies.get("agon_session")
    assert client.get("/api/me").json()["name"] == "Dora Director"
    client.post("/api/logout", headers=dora)
    with TestClient(client.app) as thief:
        thief.cookies.set("agon_session", cookie or "")
        assert thief.get("/api/me").status_code == 401


def test_admin_organiser_invitations_end_to_end(client: TestClient, db: Session) -> None:
    """The admin creates an organisation and invites its organiser; the organiser creates a
    tournament there and invites a scorekeeper; each link works once."""
    account(db, "ada@club.test", "Ada Admin", admin=True)
    db.rollback()
    ada = login(client, "ada@club.test")
    r = client.post("/api/organisations", json={"slug": "club", "name": "Club"}, headers=ada)
    assert r.status_code == 201
    r = client.post(
        "/api/organisations/club/organisers", json={"email": "olga@club.test"}, headers=ada
    )
    assert r.status_code == 201
    token = r.json()["url"].rsplit("/", 1)[1]
    with TestClient(client.app) as olga_client:
        h = {"x-csrf-token": csrf_of(olga_client)}
        assert olga_client.get(f"/api/people/invite/{token}").json()["role"] == "organiser"
        r = olga_client.post(
            f"/api/people/invite/{token}", json={"name": "Olga Org", "password": PW}, headers=h
        )
        assert r.status_code == 200, r.text
        h = {"x-csrf-token": csrf_of(olga_client)}  # logged in as Olga: a new session
        assert olga_client.get("/api/me").json()["name"] == "Olga Org"
        r = olga_client.post(
            f"/api/people/invite/{token}", json={"name": "Eve", "password": PW}, headers=h
        )
        assert r.status_code == 409  # used
        olga = login(olga_client, "olga@club.test")
        body = {"slug": "cup", "name": "Club cup", "ruleset": "bonn-2018"}
        r = olga_client.post("/api/organisations/club/tournaments", json=body, headers=olga)
        assert r.status_code == 201, r.text
        r = olga_client.post("/api/organisations/other/tournaments", json=body, headers=olga)
        assert r.status_code == 403
        r = olga_client.post(
            "/api/tournaments/cup/invitations",
            json={"email": "sam@club.test", "role": "scorekeeper"},
            headers=olga,
        )
        assert r.status_code == 201
        # an organiser is not the admin
        r = olga_client.post("/api/organisations", json={"slug": "x", "name": "X"}, headers=olga)
        assert r.status_code == 403
    assert journal.list_journal(db, tournament="cup")[0].actor == "Olga Org (organiser)"
    db.rollback()
    listed = {p.email: p for p in people.list_accounts(db)}
    assert [g.role.value for g in listed["olga@club.test"].grants] == ["organiser"]


def test_a_reset_link_sets_a_new_password_and_closes_the_old_logins(
    client: TestClient, db: Session
) -> None:
    account(db, "ada@club.test", "Ada Admin", admin=True)
    account(db, "bob@club.test", "Bob")
    db.rollback()
    ada = login(client, "ada@club.test")
    with TestClient(client.app) as bob_client:
        login(bob_client, "bob@club.test")
        r = client.post("/api/people/reset-links", json={"email": "bob@club.test"}, headers=ada)
        token = r.json()["url"].rsplit("/", 1)[1]
        with TestClient(client.app) as fresh:
            h = {"x-csrf-token": csrf_of(fresh)}
            r = fresh.post(
                f"/api/people/reset/{token}", json={"password": "new password!"}, headers=h
            )
            assert r.status_code == 200
            login(fresh, "bob@club.test", "new password!")
        assert bob_client.get("/api/me").status_code == 401  # the old login is closed


def test_bad_input_is_4xx_never_500(client: TestClient, db: Session) -> None:
    account(db, "ada@club.test", "Ada Admin", admin=True)
    db.rollback()
    ada = login(client, "ada@club.test")
    assert client.post("/api/organisations", json={"slug": "club", "name": "C"}, headers=ada)
    for path, body, status in (
        ("/api/organisations", {"slug": "Bad Slug", "name": "X"}, 422),
        ("/api/organisations", {"slug": "ok", "name": "A\x00"}, 422),
        ("/api/organisations", {"slug": "club", "name": "Again"}, 409),
        ("/api/organisations/none/organisers", {"email": "a@b.org"}, 404),
        ("/api/organisations/club/organisers", {"email": "not an address"}, 422),
        ("/api/people/reset-links", {"email": "nobody@club.test"}, 404),
        ("/api/people/reset-links", {"email": "x"}, 422),
        ("/api/tournaments/none/invitations", {"email": "a@b.org", "role": "director"}, 404),
        ("/api/organisations/club/tournaments", {"slug": "c", "name": "C", "ruleset": "x"}, 422),
    ):
        r = client.post(path, json=body, headers=ada)
        assert r.status_code == status, (path, body, r.text)
        assert r.json()["detail"]


class FakeSMTP:
    """Stands in for :class:`smtplib.SMTP`: keeps what would be sent."""

    sent: ClassVar[list[tuple[str, object]]] = []

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host = host

    def __enter__(self) -> FakeSMTP:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def ehlo(self) -> None:
        return None

    def has_extn(self, name: str) -> bool:
        return False

    def login(self, user: str, password: str) -> None:
        FakeSMTP.sent.append(("login", (user, password)))

    def send_message(self, message: object) -> None:
        FakeSMTP.sent.append((self.host, message))


def test_with_smtp_configured_an_invitation_is_also_mailed(
    settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    import smtplib

    from agon.web.app import create_app

    monkeypatch.setattr(smtplib, "SMTP", FakeSMTP)
    FakeSMTP.sent = []
    mailing = settings.replace(smtp_url="smtp://agon:pw@mail.club.test:2525?from=desk@club.test")  # type: ignore[attr-defined]
    app = create_app(mailing)
    with TestClient(app) as client, app.state.web.sessions() as db:
        account(db, "ada@club.test", "Ada Admin", admin=True)
        people.create_organisation(db, slug="club", name="Club")
        db.rollback()
        ada = login(client, "ada@club.test")
        r = client.post(
            "/api/organisations/club/organisers", json={"email": "olga@club.test"}, headers=ada
        )
        assert r.status_code == 201 and r.json()["mailed"] is True
        assert FakeSMTP.sent[0] == ("login", ("agon", "pw"))
        host, message = FakeSMTP.sent[1]
        assert host == "mail.club.test"
        assert message["To"] == "olga@club.test" and message["From"] == "desk@club.test"  # type: ignore[index]
        assert r.json()["url"] in message.get_content()  # type: ignore[attr-defined]
    app.state.web.engine.dispose()


def test_without_smtp_nothing_is_mailed(client: TestClient, db: Session) -> None:
    account(db, "ada@club.test", "Ada Admin", admin=True)
    people.create_organisation(db, slug="club", name="Club")
    db.rollback()
    ada = login(client, "ada@club.test")
    r = client.post(
        "/api/organisations/club/organisers", json={"email": "o@club.test"}, headers=ada
    )
    assert r.status_code == 201 and r.json()["mailed"] is False


def test_a_new_secret_closes_every_persons_login(
    client: TestClient, db: Session, staffed: str
) -> None:
    from agon.web.sessions import close_all

    login(client, "dora@club.test")
    assert client.get("/api/me").status_code == 200
    assert close_all(db) == 1  # what ``agon secret rotate`` calls
    assert client.get("/api/me").status_code == 401
