"""The HTML form routes, fuzzed with Hypothesis (schemathesis does not reach them: they are outside
the OpenAPI schema, see tests/web/test_fuzz_api.py).

Every route that reads a form (``Form(...)`` or the whole form) gets hostile field values — huge,
unicode, control characters, lone surrogates, numbers where text goes and text where numbers go,
fields missing or given twice — posted with a valid CSRF token as the logged-in director (the
lobby: as anybody), in German or Italian. Guarantees checked on every request:

* never a 5xx (the test client re-raises any exception the app lets escape);
* a refusal is a 4xx page (or the form shown again) with exactly ONE message, in the page's
  language (it differs from the English page's message for the same request), without the command
  line's options (``--expect-version``), on one line;
* a refusal changes nothing (the journal is the same before and after), and the confirmation
  step never changes anything (it is a dry run);
* nothing is silently dropped: a name the lobby or the desk accepted is stored and shown in full.

One app, one database and one logged-in client serve the whole module (the routes are fuzzed
against a Bonn tournament with round 1 running and a Ludolimpico one in its auction).
"""

from __future__ import annotations

import html
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from agon.services import players, profiles, registration, rounds
from agon.store.models import JournalEntry
from agon.web.app import create_app
from agon.web.security import table_pin
from agon.web.settings import WebSettings
from tests.fuzzing import examples
from tests.web.conftest import (
    BONN_TABLES,
    PASSWORD,
    PASSWORD_HASH,
    TestClient,
    csrf_of,
    form_token,
    make_bonn,
    migrated_db,
)

__all__ = ["migrated_db"]

#: Text that broke a layer once, and text of every kind.
HOSTILE_TEXT = [
    "",
    " ",
    "0",
    "-1",
    "1e9",
    "99999999999999999999999",
    "2**62",
    "١٢",  # Arabic-Indic digits: int() reads them, a form should not
    "Anna\x00",
    "A\nB",
    "\r\n",
    "\u202eAnna",
    "x" * 5000,
    "Jan Müller",
    "Player A",
    "Player A; Player B",
    "start",
    "close",
    "withdraw",
    "expel",
    "human",
    "bot:random",
    "bot:nobody",
    "7w",
    "ocw",
    "two-card",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "--expect-version 3",
    "true",
    "on",
    "None",
]
hostile = st.sampled_from(HOSTILE_TEXT) | st.text(max_size=60) | st.integers().map(str)

#: A CLI option as messages quote it (not CSS's ``--fg`` or HTML's ``<!--``).
OPTION = re.compile(r"(?<![\w!-])--[a-z][a-z-]+")
#: A page's error message: the page's flash, or the one at the field it names (issue 32, 1.).
ALERT = re.compile(
    r'<(p|span)(?: id="[^"]*")? class="(?:flash error|field-error)"(?: id="[^"]*")? '
    r'role="alert">(.*?)</\1>',
    re.DOTALL,
)

#: cases per route in make test; AGON_FUZZ_DEPTH times as many in a deeper run (tests/fuzzing.py)
EXAMPLES = examples(20)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass
class Web:
    app: Any
    client: TestClient
    #: The session's CSRF token and the client's cookies it was read with (see :meth:`token`).
    _token: tuple[tuple[tuple[str, str], ...], str] | None = None

    def token(self) -> str:
        """The session's CSRF token, read again (``GET /api/session``) whenever the client's
        cookies changed since it was last read. The token lives in the signed session cookie
        (``request.session["csrf"]``), so the same cookies give the same token: before, every
        post of the fuzzer made that request first."""
        cookies = tuple(sorted((c.name, c.value or "") for c in self.client.cookies.jar))
        if self._token is None or self._token[0] != cookies:
            token = csrf_of(self.client)
            after = tuple(sorted((c.name, c.value or "") for c in self.client.cookies.jar))
            self._token = (after, token)
        return self._token[1]

    def journal(self) -> tuple[int, int]:
        with self.app.state.web.sessions() as session:
            count, last = session.execute(
                select(func.count(), func.max(JournalEntry.id)).select_from(JournalEntry)
            ).one()
            return int(count), int(last or 0)

    def post(self, path: str, data: dict[str, Any], lang: str) -> Any:
        token = self.token()
        return self.client.post(
            f"{path}?lang={lang}",
            data={"csrf_token": token, **data},
            follow_redirects=False,
        )


@pytest.fixture(scope="module")
def web(migrated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Web]:
    db = tmp_path_factory.mktemp("form-fuzz") / "agon.db"
    shutil.copy(migrated_db, db)
    app = create_app(
        WebSettings(
            database_url=f"sqlite:///{db}",
            secret_key="form-fuzz",
            director_password_hash=PASSWORD_HASH,
            public_url="http://agon.test",
            play_games_per_hour=100_000,
            registrations_per_hour=100_000,
        )
    )
    with TestClient(app) as client:
        with app.state.web.sessions() as session:
            make_bonn(session)
            rounds.start_round(
                session, tournament="bonn", actor="test", tables=[list(t) for t in BONN_TABLES]
            )
            make_bonn(
                session,
                slug="ludo",
                names=tuple(f"Giocatore {c}" for c in "ABCDEFGHIJ"),
                ruleset="ludolimpico-2015",
            )
            rounds.start_round(session, tournament="ludo", actor="test")
            registration.open_registration(
                session, tournament="bonn", capacity=20, deadline=None, fee_note="", actor="t"
            )
            session.rollback()
            profiles.create_profile(session, name="Fuzz Profile")
        token = form_token(client.get("/desk/login").text)
        r = client.post("/desk/login", data={"password": PASSWORD, "csrf_token": token})
        assert r.status_code == 200 and r.url.path == "/desk"
        pin = table_pin("form-fuzz", "bonn", 1, 1)  # a table phone too (its entries are fuzzed)
        r = client.post("/t/bonn/r1/t1/pin", data={"pin": pin, "csrf_token": csrf_of(client)})
        assert r.status_code == 200
        yield Web(app, client)
    app.state.web.engine.dispose()


def message_of(response: Any) -> str:
    """The page's one error message (there must be exactly one)."""
    alerts = [text for _tag, text in ALERT.findall(response.text)]
    assert len(alerts) == 1, f"{response.status_code}: {len(alerts)} error messages"
    return html.unescape(alerts[0]).strip()


def check(web: Web, path: str, data: dict[str, Any], lang: str) -> Any:
    """Post ``data`` and check the guarantees of the module docstring; the response."""
    before = web.journal()
    r = web.post(path, data, lang)
    event(f"{re.sub(r'/(bonn|ludo)/', '/…/', path.split('/confirm/')[0])}: {r.status_code}")
    assert r.status_code < 500, (path, data, r.status_code)
    if r.status_code >= 400:
        assert web.journal() == before, f"{path}: a refusal ({r.status_code}) changed the journal"
        text = message_of(r)
        assert text and "\n" not in text, (path, text)
        own = text  # a message may quote a value sent ("--expect-version 3" is no number)
        for field_values in data.values():  # a value, or the values of a repeated field
            for value in field_values if isinstance(field_values, list) else [field_values]:
                if OPTION.search(str(value)):
                    own = own.replace(str(value), "").replace(str(value).strip(), "")
        assert not OPTION.search(own), f"{path}: a command-line option on the web: {text!r}"
        english = web.post(path, data, "en")
        assert english.status_code == r.status_code, (path, data)
        assert message_of(english) != text, (
            f"{path} ({lang}): the message is not translated: {text!r}"
        )
    else:
        assert r.status_code in (200, 201, 303), (path, r.status_code)
    return r


def fields(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A form with any of ``names`` (each missing, one hostile value, or given twice)."""
    value = hostile | st.lists(hostile, min_size=2, max_size=2)
    return st.dictionaries(st.sampled_from(names), value, max_size=len(names))


@st.composite
def mutated(draw: st.DrawFn, valid: dict[str, str]) -> dict[str, Any]:
    """``valid`` with up to three fields dropped, made hostile or given twice (so that many
    examples get past the first check and reach the services)."""
    form: dict[str, Any] = dict(valid)
    names = sorted(valid)
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(names))
        how = draw(st.sampled_from(["drop", "hostile", "twice"]))
        if how == "drop":
            form.pop(key, None)
        elif how == "hostile":
            form[key] = draw(hostile)
        else:
            form[key] = [valid[key], draw(hostile)]
    return form


LANGS = st.sampled_from(["de", "it"])


# --- the play lobby ---------------------------------------------------------------------------

SEATS = 7


LOBBY = {
    "game": "7w",
    "variant": "base",
    "seed": "",  # a game with two or more people takes no seed of its creator
    "kind-0": "human",
    "name-0": "Anna",
    "kind-1": "bot:random",
    "name-1": "",
    "kind-2": "human",
    "name-2": "Ben",
    "clock": "fast",  # a turn clock and bots at a natural pace (issue 28)
    "delay": "1",
} | {f"{k}-{i}": v for i in range(3, SEATS) for k, v in (("kind", "empty"), ("name", ""))}


def lobby_forms() -> st.SearchStrategy[dict[str, Any]]:
    """Valid lobby forms with hostile values mixed in (so that games are created too)."""
    return mutated(LOBBY) | mutated(LOBBY | {"game": "ocw", "variant": "two-card"})


@FUZZ
@given(form=lobby_forms(), lang=LANGS)
def test_the_play_lobby_form(web: Web, form: dict[str, Any], lang: str) -> None:
    r = check(web, "/play", form, lang)
    if r.status_code == 422:
        assert 'name="game"' in r.text  # the form is shown again, as typed
    if r.status_code == 201:
        page = html.unescape(r.text)
        for i in range(SEATS):
            name = form.get(f"name-{i}")
            if form.get(f"kind-{i}") == "human" and isinstance(name, str) and name.strip():
                assert name.strip() in page, f"seat {i + 1}: the name {name!r} was cut"


# --- the desk's confirmation step -------------------------------------------------------------

STEPS = ["start", "final", "close", "undo", "drop"]
CONFIRM_FIELDS = ["tables", "round", "player", "kind", "reason", "online", "absent:Player A"]


@FUZZ
@given(
    slug=st.sampled_from(["bonn", "ludo"]),
    step=st.sampled_from(STEPS) | hostile.filter(lambda s: s.strip() not in ("", ".", "..")),
    form=fields(CONFIRM_FIELDS),
    lang=LANGS,
)
def test_the_desks_confirmation_step(
    web: Web, slug: str, step: str, form: dict[str, Any], lang: str
) -> None:
    before = web.journal()
    r = check(web, f"/desk/{slug}/confirm/{quote(step, safe='')}", form, lang)
    assert web.journal() == before, "the confirmation step changed something"
    assert r.status_code != 303


# --- the desk's round start, online fields ------------------------------------------------------


@FUZZ
@given(form=fields(["online", "bots", "all_bots", "grace", "tables"]), lang=LANGS)
def test_the_desks_online_round_fields(web: Web, form: dict[str, Any], lang: str) -> None:
    """Round 1 of Bonn runs: a valid form is refused as a round already open, a hostile one as
    bad input — never anything else."""
    r = check(web, "/desk/bonn/rounds", form, lang)
    assert r.status_code in (409, 422), r.status_code


# --- every other form route ---------------------------------------------------------------------

#: Each form route with a valid form (mutated by :func:`mutated`).
FORM_ROUTES: list[tuple[str, dict[str, str]]] = [
    ("/desk/tournaments", {"slug": "fuzz", "name": "Fuzz", "ruleset": "bonn-2018", "seed": "s",
                           "date": "2026-03-18", "location": "Bonn",
                           "starts_at": "2026-03-18T15:00+01:00", "min_players": "12",
                           "max_players": "40"}),
    ("/desk/bonn/players", {"name": "Zora", "tag": "Köln", "fee_paid": "1", "check_in": "1"}),
    ("/desk/bonn/players/import", {"csv_text": "name,tag,club\nYann,,Spielwiese\n"}),
    ("/desk/bonn/players/checkin", {"player": "Player A", "late": "1"}),
    ("/desk/bonn/players/fee", {"player": "Player B", "paid": "1"}),
    ("/desk/bonn/players/drop", {"player": "Player C", "kind": "withdraw", "reason": "ill"}),
    ("/desk/bonn/players/sanction", {"player": "Player D", "kind": "warning", "reason": "2.3"}),
    ("/desk/ludo/final", {"absent:Giocatore A": "1"}),
    ("/desk/bonn/rounds/1/tables/2/result", {
        "vp-1": "50", "coins-1": "3", "vp-2": "45", "coins-2": "2", "vp-3": "40", "coins-3": "1",
        "vp-4": "38", "coins-4": "0", "confirm": "1", "wonder-1": "gizah", "left-2": ""}),
    ("/desk/ludo/rounds/1/tables/1/auction", {"actions": "Giocatore A passes"}),
    ("/desk/ludo/rounds/1/tables/1/auction/act", {"player": "Giocatore A", "verb": "opens",
                                                  "wonder": "gizah", "bid": "1", "seen": "0"}),
    ("/desk/bonn/rounds/1/tables/3/confirm", {"version": "0"}),
    ("/desk/bonn/rounds/1/clock", {"action": "start", "minutes": "50"}),
    ("/t/bonn/r1/t1/pin", {"pin": "123456"}),
    # a table phone's entries with their idempotency key (issue 29; the fixture unlocked table 1)
    ("/t/bonn/r1/t1/result", {
        "vp-1": "50", "coins-1": "3", "vp-2": "45", "coins-2": "2", "vp-3": "40", "coins-3": "1",
        "vp-4": "38", "coins-4": "0", "vp-5": "30", "coins-5": "0",
        "key": "6f1c2a4e-8d7b-4c3a-9e2f-1a2b3c4d5e6f", "queued": "1", "version": ""}),
    ("/t/bonn/r1/t1/confirm", {"player": "Player A", "version": "0",
                               "key": "0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f7a"}),
    ("/desk/bonn/profiles/new", {"player": "Player E"}),
    ("/desk/bonn/profiles/link", {"player": "Player F", "profile": "fuzz-profile"}),
    ("/desk/bonn/profiles/unlink", {"player": "Player F"}),
    ("/desk/bonn/profiles/hide", {"profile": "fuzz-profile", "hidden": "1"}),
    # online registration (issue 27): the public form, a private link, the desk's forms
    ("/register/bonn", {"name": "Zeno", "email": "zeno@example.org", "tag": "Köln"}),
    ("/register/bonn/me/not-a-token/withdraw", {"confirm": "1"}),
    ("/desk/bonn/registration/open", {"capacity": "20", "deadline": "2099-01-01T10:00",
                                      "fee_note": "10 €", "public_names": "initials"}),
    ("/desk/bonn/registration/close", {"confirm": "1"}),
    ("/desk/bonn/registration/checkin", {"number": "1", "fee_paid": "1"}),
    # the venue's Wi-Fi (issue 29)
    ("/desk/bonn/venue", {"ssid": "Bonn spielt", "password": "Tische-2018", "security": "WPA",
                          "hidden": "true"}),
    ("/desk/bonn/venue/clear", {"confirm": "1"}),
]  # fmt: skip


@settings(FUZZ, max_examples=8 * EXAMPLES)
@given(route=st.sampled_from(FORM_ROUTES).flatmap(
    lambda r: st.tuples(st.just(r[0]), mutated(r[1]))), lang=LANGS)  # fmt: skip
def test_every_other_form_route(web: Web, route: tuple[str, dict[str, Any]], lang: str) -> None:
    path, form = route
    r = check(web, path, form, lang)
    if r.status_code == 303 and path.endswith("/players"):
        with web.app.state.web.sessions() as session:
            names = {p.name for p in players.list_players(session, tournament="bonn")}

        def sent(field: str) -> list[str]:  # a field given twice: the form takes one value
            value = form.get(field)
            return value if isinstance(value, list) else [value] if isinstance(value, str) else []

        kept = {n.strip() for n in sent("name")}
        kept |= {f"{n} ({t.strip()})" for n in set(kept) for t in sent("tag") if t.strip()}
        assert kept & names, f"the name {form.get('name')!r} was not kept"
