"""tests/shared_routes.py: the suite's apps share the state FastAPI builds for a route of a
module-level router (each app had built its own: ~0.3 s of CPU for agon's routes, a third of a
typical web test), and every app still answers by its own overrides and dependencies."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel

from agon.web.app import create_app
from agon.web.settings import WebSettings

with warnings.catch_warnings():  # Starlette's TestClient warns that it will move to httpx2
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


class Greeting(BaseModel):
    text: str
    polite: bool


def polite() -> bool:
    return True


def stamp(request: Request) -> None:
    """An app-wide dependency: each app makes its own ``Depends(stamp)``."""
    request.state.stamped = True


ROUTER = APIRouter(prefix="/hello")


@ROUTER.get("/{name}")
def greet(
    name: str, times: int, request: Request, is_polite: Annotated[bool, Depends(polite)]
) -> Greeting:
    assert request.state.stamped
    return Greeting(text=" ".join([f"hello {name}"] * times), polite=is_polite)


def _app() -> FastAPI:
    app = FastAPI(dependencies=[Depends(stamp)])
    app.include_router(ROUTER)
    return app


def _contexts(app: FastAPI, path: str) -> list[Any]:
    return [c for c in iter_route_contexts(app.routes) if c.path_format == path]


def test_two_apps_share_a_routes_state_and_keep_their_own_overrides() -> None:
    first, second = _app(), _app()
    second.dependency_overrides[polite] = lambda: False
    (one,), (two,) = _contexts(first, "/hello/{name}"), _contexts(second, "/hello/{name}")
    assert one.dependant is two.dependant  # built once
    assert one.response_field is two.response_field
    assert one.app is not two.app  # the handler is each app's own
    with TestClient(first) as a, TestClient(second) as b:
        assert a.get("/hello/ann", params={"times": 2}).json() == {
            "text": "hello ann hello ann",
            "polite": True,
        }
        assert b.get("/hello/bob", params={"times": 1}).json() == {
            "text": "hello bob",
            "polite": False,  # the second app's override, not the first's
        }
        assert a.get("/hello/ann", params={"times": "x"}).status_code == 422  # still validated
    assert first.dependency_overrides == {}


def test_an_endpoint_made_inside_a_function_is_built_per_app() -> None:
    def app_of_its_own(word: str) -> FastAPI:
        router = APIRouter()

        @router.get("/word")
        def say() -> dict[str, str]:
            return {"word": word}

        app = FastAPI()
        app.include_router(router)
        return app

    first, second = app_of_its_own("one"), app_of_its_own("two")
    (one,), (two,) = _contexts(first, "/word"), _contexts(second, "/word")
    assert one.dependant is not two.dependant  # nothing of one app kept for another
    with TestClient(second) as client:
        assert client.get("/word").json() == {"word": "two"}


def test_two_agon_apps_share_their_routes_state(tmp_path: Path) -> None:
    def app(name: str) -> FastAPI:
        return create_app(
            WebSettings(database_url=f"sqlite:///{tmp_path / name}", secret_key="s" * 32)
        )

    first, second = app("a.db"), app("b.db")
    built = {c.path_format: c for c in iter_route_contexts(first.routes) if c.path_format}
    shared = [
        c.path_format
        for c in iter_route_contexts(second.routes)
        if c.path_format in built and getattr(c, "dependant", None) is not None
        and c.dependant is built[c.path_format].dependant
    ]  # fmt: skip
    for made in (first, second):
        made.state.web.engine.dispose()
    assert len(shared) > 100, len(shared)
