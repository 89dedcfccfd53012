"""A person's move (``POST /api/play/{id}/act``) takes the lean route; every other request to
that path goes to the declared route, and the answers are the declared route's."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from agon.web.routes import play as play_routes
from tests.web.conftest import TestClient
from tests.web.test_play_api import create


def _lean_route() -> Route:
    return next(
        r
        for r in play_routes.router.routes
        if isinstance(r, Route)
        and r.path.endswith("/act")
        and isinstance(r.app, play_routes.LeanAct)
    )


def _lean() -> Any:
    return _lean_route().app


def test_a_move_is_answered_by_the_lean_route(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create(client)
    gid, token = game["game_id"], game["seats"][0]["token"]
    state = client.get(f"/api/play/{gid}", params={"token": token}).json()

    async def declared(*_args: Any) -> None:
        raise AssertionError("the declared route answered a plain move")

    monkeypatch.setattr(_lean().declared, "handle", declared)
    r = client.post(
        f"/api/play/{gid}/act",
        json={"token": token, "action": state["legal"][0], "version": state["version"]},
    )
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.json() == client.get(f"/api/play/{gid}", params={"token": token}).json()
    assert r.headers["x-content-type-options"] == "nosniff"  # the middlewares wrap it alike


def test_a_lean_moves_headers_are_the_declared_routes_and_a_pages(client: TestClient) -> None:
    """The lean route sends its answer itself: the same headers, in the same order, as the
    declared route's answer to the same move (two games of the same seed), and the headers every
    answer gets (security, no session cookie for a request without one) as a page's."""
    answers = []
    for lean in (True, False):
        game = create(client)
        gid, token = game["game_id"], game["seats"][0]["token"]
        state = client.get(f"/api/play/{gid}", params={"token": token}).json()
        _lean().lean = lean
        try:
            r = client.post(
                f"/api/play/{gid}/act",
                json={"token": token, "action": state["legal"][0], "version": state["version"]},
            )
        finally:
            _lean().lean = True
        assert r.status_code == 200
        answers.append(r)
    lean_answer, declared_answer = answers
    assert lean_answer.headers.raw == declared_answer.headers.raw
    assert lean_answer.json().keys() == declared_answer.json().keys()
    page = client.get("/")
    assert page.status_code == 200
    added = [
        "content-security-policy",
        "x-content-type-options",
        "referrer-policy",
        "x-frame-options",
    ]
    assert [lean_answer.headers[name] for name in added] == [page.headers[name] for name in added]
    names = [name.decode() for name, _value in lean_answer.headers.raw]
    assert names[-len(added) :] == added  # the same layers add them, in the same order
    assert "set-cookie" not in lean_answer.headers and "vary" not in lean_answer.headers


def test_a_moves_body_is_read_by_orjson(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lean route reads a move's JSON with orjson, not with :func:`json.loads` (a few µs
    less per move, issue 30)."""
    game = create(client)
    gid, token = game["game_id"], game["seats"][0]["token"]
    state = client.get(f"/api/play/{gid}", params={"token": token}).json()
    body = json.dumps({"token": token, "action": state["legal"][0], "version": state["version"]})

    def loads(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("json.loads read the move")

    async def declared(*_args: Any) -> None:
        raise AssertionError("the declared route answered a plain move")

    with monkeypatch.context() as patched:
        patched.setattr(json, "loads", loads)
        patched.setattr(_lean().declared, "handle", declared)
        r = client.post(
            f"/api/play/{gid}/act", content=body, headers={"content-type": "application/json"}
        )
    assert r.status_code == 200 and r.json()["version"] > state["version"]


@pytest.mark.parametrize("encode", ["utf-16", "bom"])
def test_a_move_orjson_does_not_read_is_made_by_the_declared_route(
    client: TestClient, encode: str
) -> None:
    """UTF-16, or UTF-8 after a byte-order mark: JSON that :func:`json.loads` reads and orjson
    does not. The declared route makes the move, as it did before orjson."""
    game = create(client)
    gid, token = game["game_id"], game["seats"][0]["token"]
    state = client.get(f"/api/play/{gid}", params={"token": token}).json()
    text = json.dumps({"token": token, "action": state["legal"][0], "version": state["version"]})
    body = text.encode("utf-16") if encode == "utf-16" else b"\xef\xbb\xbf" + text.encode()
    r = client.post(
        f"/api/play/{gid}/act", content=body, headers={"content-type": "application/json"}
    )
    assert r.status_code == 200 and r.json()["version"] > state["version"]
    assert r.json() == client.get(f"/api/play/{gid}", params={"token": token}).json()


def test_a_move_skips_the_route_tables_search(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lean move's route is taken before the router matches the request against its
    tables (``MovesFirst``): no other route is tried for a move, while a read still goes
    through the router."""
    game = create(client)
    gid, token = game["game_id"], game["seats"][0]["token"]
    state = client.get(f"/api/play/{gid}", params={"token": token}).json()
    tried: list[str] = []
    plain, lean = Route.matches, _lean_route()

    def matches(self: Route, scope: Any) -> Any:
        if self is not lean:
            tried.append(self.path)
        return plain(self, scope)

    monkeypatch.setattr(Route, "matches", matches)
    monkeypatch.setattr(APIRoute, "matches", matches)
    r = client.post(
        f"/api/play/{gid}/act",
        json={"token": token, "action": state["legal"][0], "version": state["version"]},
    )
    assert r.status_code == 200 and r.json()["version"] > state["version"]
    assert tried == []
    assert client.get(f"/api/play/{gid}", params={"token": token}).status_code == 200
    assert tried  # a read: the router's search


def test_a_move_is_made_on_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lean route makes the move on the loop (``PlayService.act_json_on_loop``), not in a
    thread: no thread hand-over there and back (about a tenth of the server's CPU per move)."""
    from agon.play.service import PlayService

    game = create(client)
    gid, token = game["game_id"], game["seats"][0]["token"]
    for _ in range(500):  # the bots' first choices made (their turn holds the game's lock)
        state = client.get(f"/api/play/{gid}", params={"token": token}).json()
        if state["version"] == 2:
            break
        time.sleep(0.01)

    def in_a_thread(*_args: Any) -> str:
        raise AssertionError("the move went to a thread")

    monkeypatch.setattr(PlayService, "act_json", in_a_thread)
    r = client.post(
        f"/api/play/{gid}/act",
        json={"token": token, "action": state["legal"][0], "version": state["version"]},
    )
    assert r.status_code == 200 and r.json()["version"] > state["version"]
    wrong = client.post(
        f"/api/play/{gid}/act",
        json={"token": "x" * 32, "action": state["legal"][0], "version": r.json()["version"]},
    )
    assert wrong.status_code == 403  # the service's refusals answer as the declared route's


#: Moves' texts that orjson reads otherwise than json.loads (or not at all).
_ODD = [
    '{"token": "t", "action": "a", "version": NaN}',
    '{"token": "t", "action": "a", "version": 1, "extra": Infinity}',
    '{"token": "t", "action": "\\ud800", "version": 1}',
    '{"token": "t", "action": "a", "version": 123456789012345678901234567890}',
    '{"token": "t", "action": "a", "version": 1, "version": 2}',
]

#: Bodies: a move's fields with values of any JSON kind, bad JSON, other documents.
_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=120),
    st.lists(st.integers(), max_size=3),
)
_moves = st.fixed_dictionaries(
    {},
    optional={"token": _values, "action": _values, "version": _values, "extra": _values},
)
_bodies = st.one_of(
    _moves.map(lambda m: json.dumps(m).encode()),
    st.binary(max_size=60),
    st.sampled_from([b"", b"{", b"null", b"[]", b'{"version": 1e400}', b"\xff\xfe"]),
    # what json.loads reads and orjson does not: the declared route's to answer
    st.sampled_from(_ODD).map(lambda t: t.encode()),
    st.sampled_from(_ODD).map(lambda t: t.encode("utf-16")),
    st.sampled_from(_ODD).map(lambda t: b"\xef\xbb\xbf" + t.encode()),
)


@pytest.mark.slow  # about 10 s: 150 cases, each sent twice
@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    body=_bodies,
    use_token=st.booleans(),
    content_type=st.sampled_from(
        ["application/json", "application/json; charset=utf-8", "text/plain", None]
    ),
    game_id=st.sampled_from(["GAME", "no-such-game", "bad id!", "x" * 41]),
)
def test_the_lean_answers_are_the_declared_routes(
    client: TestClient,
    body: bytes,
    use_token: bool,
    content_type: str | None,
    game_id: str,
) -> None:
    game = getattr(client, "_lean_game", None)
    if game is None:
        game = create(client)
        client._lean_game = game  # type: ignore[attr-defined]
    gid = game["game_id"] if game_id == "GAME" else game_id
    if use_token and body.startswith(b"{") and b'"token"' not in body:
        token = json.dumps(game["seats"][0]["token"])
        body = b'{"token": ' + token.encode() + (b", " if body != b"{}" else b"") + body[1:]
    headers = {} if content_type is None else {"content-type": content_type}
    answers = []
    for lean in (True, False):
        lean_act = _lean()
        lean_act.lean = lean
        try:
            r = client.post(f"/api/play/{gid}/act", content=body, headers=headers)
        finally:
            lean_act.lean = True
        answers.append((r.status_code, r.content))
        if r.status_code == 200:
            return  # a move made: the game moved on, the declared route would answer 409
    assert answers[0] == answers[1]
    assert 400 <= answers[0][0] < 500


def test_the_lean_route_skips_only_what_the_declared_route_would_not_ask(app: Any) -> None:
    """The lean route runs no dependency: it may do so only while the declared route's one
    dependency is the app's CSRF guard, which lets every ``/api/play`` path through. A
    dependency added to the app, the play router or the route (a limit, a login) fails here
    until the lean route does what it asks too."""
    from agon.web.deps import csrf_guard

    assert [d.dependency for d in app.router.dependencies] == [csrf_guard]
    assert play_routes.router.dependencies == []
    declared = _lean().declared
    assert declared.dependencies == [] and declared.dependant.dependencies == []
    assert declared.dependant.call is play_routes.act
