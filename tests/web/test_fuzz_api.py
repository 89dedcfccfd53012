"""Issue 10: every operation of the OpenAPI schema, fuzzed with schemathesis.

Cases are generated from the app's own schema (``/api/openapi.json``), positive (valid by the
schema) and negative (violating it: wrong types, missing fields, huge numbers, odd bytes), sent
logged in as the director and without a login, against a tournament with a running round.
Guarantees checked on every single request:

* no HTTP 5xx (the test client re-raises any exception the app lets escape);
* an API error is JSON with a ``detail`` (one clear message, or the list of bad fields);
* a refused request (4xx) changes nothing: the journal is the same before and after.

The run is derandomized (the same cases every time) and makes more than 700 requests (15 cases
per operation, most sent both without a login and as the director; ``AGON_FUZZ_DEPTH`` times as
many in a deeper run: tests/fuzzing.py).
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
import re
import sys
from collections import Counter
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from agon.services import profiles, registration, rounds
from agon.store.models import JournalEntry
from agon.web.security import AttemptLimiter
from tests.fuzzing import examples
from tests.web.conftest import BONN_TABLES, PASSWORD, TestClient, csrf_of, make_bonn
from tests.web.helpers import play_round

if TYPE_CHECKING:
    from schemathesis import GenerationMode


@pytest.fixture(scope="module", autouse=True)
def schemathesis_whole() -> ModuleType:
    """schemathesis, every module of it imported now, before the test's app and clients start
    their threads. It imports most of its modules lazily, during a test, and pytest rewrites a
    plugin's modules as they are imported (``ast.parse``); CPython 3.11 before 3.11.8 shares the
    ``ast`` module's recursion counter between threads (gh-106905), so another thread converting
    an AST at that moment could make the import fail with "AST constructor recursion depth
    mismatch" (seen once, in a fresh-clone run). Not at collection: every test process collects
    this module, and only the one that runs the test needs schemathesis (its pytest plugin is
    not loaded either: ``-p no:schemathesis`` in pyproject.toml; this test drives schemathesis
    itself).

    Imported past pytest's assertion rewriter: pytest marks every module of a distribution with
    a ``pytest11`` entry point for rewriting, loaded or not, and rewrote schemathesis's 385
    modules (``ast.parse`` and a new code object each) in this test's process: 4.3 s of CPU
    where ``PYTHONDONTWRITEBYTECODE`` is set (make test's workers in the agents' shells: the
    rewrite is never kept) or in a fresh clone. Rewriting only changes what a failing ``assert``
    inside schemathesis would print; this test's own asserts are rewritten as before."""
    rewriters = [hook for hook in sys.meta_path if isinstance(hook, AssertionRewritingHook)]
    for hook in rewriters:
        sys.meta_path.remove(hook)
    try:
        import schemathesis

        for module in pkgutil.walk_packages(schemathesis.__path__, "schemathesis."):
            with contextlib.suppress(ImportError):  # optional extras (allure) are not installed
                importlib.import_module(module.name)
    finally:
        sys.meta_path[:0] = rewriters
    assert not isinstance(schemathesis.__loader__, AssertionRewritingHook)
    return schemathesis


pytestmark = pytest.mark.slow

#: Values of the seeded data for the "fixed" cases (so they reach the services, not just 404).
SEEDED = {"slug": "bonn", "number": 1, "table": 1, "name": "Player A", "profile": "fuzz"}
#: (who sends each case, mode, fixed path parameters?, cases per operation in make test). A case is
#: sent without a login first, then as the director: generating it costs more than sending it.
BOTH = ("anonymous", "director")
#: The modes are schemathesis's ``GenerationMode`` values (the fixture imports it).
PLAN = [
    (BOTH, "positive", True, 5),
    (BOTH, "positive", False, 3),
    (("director",), "negative", True, 4),
    (BOTH, "negative", False, 3),
]
#: Operations that undo or end things run last, so the others meet the seeded data.
LAST = ("/undo", "/logout", "/close")


def violable(op: Any, fixed: dict[str, Any]) -> bool:
    """Whether the schema lets a negative case of ``op`` exist: a query, header, cookie or body,
    or a path parameter (not fixed) with more than a plain string's schema — a URL's path
    segment is always a string, so a plain string parameter has nothing to violate."""
    if op.query or op.headers or op.cookies or op.body:
        return True
    return any(
        set(p.definition.get("schema", {})) - {"type", "title"}
        or p.definition.get("schema", {}).get("type") != "string"
        for p in op.path_parameters
        if p.name not in fixed
    )


def journal_state(session: Session) -> tuple[int, int]:
    session.expire_all()
    try:
        count, last = session.execute(
            select(func.count(), func.max(JournalEntry.id)).select_from(JournalEntry)
        ).one()
        return int(count), int(last or 0)
    finally:
        session.rollback()


def log_in(client: TestClient) -> None:
    token = csrf_of(client)
    r = client.post("/api/login", json={"password": PASSWORD}, headers={"x-csrf-token": token})
    assert r.status_code == 200 and r.json()["director"] is True


def send(client: TestClient, token: str, case: Any) -> Any:
    """The generated case as a request of the test client (with the session's CSRF token)."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    headers = {k: v for k, v in kwargs.get("headers", {}).items() if not k.startswith("X-Schem")}
    headers["x-csrf-token"] = token
    extra: dict[str, Any] = {}
    if "json" in kwargs:
        extra["json"] = kwargs["json"]
    elif kwargs.get("data") is not None:
        data = kwargs["data"]
        extra["content"] = data if isinstance(data, bytes | str) else str(data)
    return client.request(
        kwargs["method"],
        kwargs["url"],
        headers=headers,
        params=kwargs.get("params") or None,
        **extra,
    )


class Fuzzer:
    """Sends generated cases and checks each answer; counts what it sent."""

    def __init__(self, app: Any, db: Session) -> None:
        self.db = db
        self.director = TestClient(app, follow_redirects=False)
        self.anonymous = TestClient(app, follow_redirects=False)
        self.tokens: dict[str, str] = {}
        self.sent: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.accepted_negative: Counter[str] = Counter()

    def start(self) -> None:
        self.director.__enter__()
        self.anonymous.__enter__()
        log_in(self.director)
        self.tokens = {"director": csrf_of(self.director), "anonymous": csrf_of(self.anonymous)}

    def stop(self) -> None:
        self.director.__exit__(None, None, None)
        self.anonymous.__exit__(None, None, None)

    def check(self, op: Any, who: str, mode: GenerationMode, case: Any) -> None:
        client = self.director if who == "director" else self.anonymous
        before = journal_state(self.db)
        r = send(client, self.tokens[who], case)
        where = f"{who} {mode.value} {case.method} {r.request.url}"
        self.sent[op.label] += 1
        self.statuses[r.status_code] += 1
        assert r.status_code < 500, where
        if r.status_code >= 400:
            assert journal_state(self.db) == before, f"refused but changed: {where}"
            if r.headers.get("content-type", "").startswith("application/json"):
                assert "detail" in r.json(), where
        elif mode == "negative":
            self.accepted_negative[op.label] += 1
        if who == "director" and op.path.endswith(("/logout", "/login")):
            log_in(client)
            self.tokens[who] = csrf_of(client)

    def fuzz(
        self, op: Any, whos: tuple[str, ...], mode: GenerationMode, fixed: bool, examples: int
    ) -> None:
        names = set(re.findall(r"{(\w+)}", op.path))
        path = {k: v for k, v in SEEDED.items() if k in names} if fixed else {}
        if mode == "negative" and not violable(op, path):
            return  # hypothesis would try ~0.5 s of cases before it gives up (Unsatisfiable)

        @settings(
            max_examples=examples,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=op.as_strategy(generation_mode=mode, path_parameters=path))
        def run(case: Any) -> None:
            for who in whos:
                self.check(op, who, mode, case)

        try:
            run()
        except Unsatisfiable:  # nothing to violate: an operation without parameters or body
            assert mode == "negative", op.label


def test_every_operation_survives_generated_requests(
    schemathesis_whole: ModuleType, app: Any, db: Session
) -> None:
    make_bonn(db)
    rounds.start_round(db, tournament="bonn", actor="test", tables=[list(t) for t in BONN_TABLES])
    db.rollback()
    play_round(db, "bonn", 1, confirm=False)
    profiles.create_profile(db, name="Fuzz")
    # online registration open, so its operations reach the service (issue 27)
    registration.open_registration(
        db, tournament="bonn", capacity=20, deadline=None, fee_note="10 €", actor="test"
    )
    db.rollback()
    state = app.state.web
    # the fuzzer types many wrong passwords and PINs: the limits are tested elsewhere
    state.login_limiter = AttemptLimiter(limit=10**9, window_seconds=1)
    state.pin_limiter = AttemptLimiter(limit=10**9, window_seconds=1)
    app.state.play_limiter = AttemptLimiter(limit=10**9, window_seconds=1)
    app.state.registration_limiter = AttemptLimiter(limit=10**9, window_seconds=1)
    app.state.turns_limiter = AttemptLimiter(limit=10**9, window_seconds=1)
    schema = schemathesis_whole.openapi.from_dict(app.openapi())
    operations = sorted(
        (op.ok() for op in schema.get_all_operations()),
        key=lambda op: (op.path.endswith(LAST), op.path, op.method),
    )
    assert len(operations) >= 35
    assert {"/api/tournaments/{slug}/registration/me/{token}/withdraw"} <= {
        op.path for op in operations
    }
    fuzzer = Fuzzer(app, db)
    fuzzer.start()
    try:
        for op in operations:
            for whos, mode, fixed, count in PLAN:
                fuzzer.fuzz(
                    op, whos, schemathesis_whole.GenerationMode(mode), fixed, examples(count)
                )
    finally:
        fuzzer.stop()
    total = sum(fuzzer.sent.values())
    statuses = dict(sorted(fuzzer.statuses.items()))
    print(f"\nfuzzed {len(fuzzer.sent)} operations, {total} requests; statuses {statuses}")
    print(f"negative cases accepted after coercion: {dict(fuzzer.accepted_negative)}")
    assert set(fuzzer.sent) == {op.label for op in operations}  # every operation was exercised
    assert total >= 700
    assert not [s for s in fuzzer.statuses if s >= 500]
