"""The online-play API is matched first (the router tries the routes in order), and moving it
there changes no answer: no other route matches a path of it, nor it another route's path."""

from __future__ import annotations

import re
from typing import Any

from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import Match

from agon.web.routes import play as play_routes

#: The methods a route is tried with (a route without methods, a mount, takes them all).
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def _sample(path_format: str) -> str:
    """A concrete path for a route template: every parameter a plain value."""
    return re.sub(r"\{(\w+)(?::\w+)?\}", "x1", path_format)


def _scope(path: str, method: str) -> dict[str, Any]:
    return {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": [],
    }


def _contexts(app: Any) -> list[Any]:
    return [c for c in iter_route_contexts(app.routes) if c.path_format]


def _is_play_api(context: Any) -> bool:
    return context.original_route in play_routes.router.routes


def test_the_play_api_comes_before_every_other_route(app: Any) -> None:
    """A move (POST /api/play/{id}/act) is tried against the play API's few routes, not after
    the whole table (about 0.3 ms of the server's CPU per move, bench/online_play.py)."""
    # before them only the two cheap routes FastAPI and the static files add first
    contexts = [c for c in _contexts(app) if isinstance(c.original_route, APIRoute)]
    play = [i for i, c in enumerate(contexts) if _is_play_api(c)]
    declared = [r for r in play_routes.router.routes if isinstance(r, APIRoute)]
    assert len(play) == len(declared) >= 5
    assert play == list(range(len(play))), [c.path_format for c in contexts[: len(play) + 3]]


def test_no_other_route_matches_a_play_api_path(app: Any) -> None:
    """The order decides only when two routes match the same request in full: none do."""
    contexts = _contexts(app)
    play = [c for c in contexts if _is_play_api(c)]
    others = [c for c in contexts if not _is_play_api(c)]
    clashes = []

    def both(path: str, method: str, one: Any, two: Any) -> bool:
        scope = _scope(path, method)
        return one.matches(scope)[0] is Match.FULL and two.matches(scope)[0] is Match.FULL

    for method in METHODS:
        for mine in play:
            for other in others:
                for path in (_sample(mine.path_format), _sample(other.path_format)):
                    if both(path, method, mine, other):
                        clashes.append((method, path, mine.path_format, other.path_format))
    assert clashes == []
    # the check sees a clash where there is one: the play API's own GET /{game_id} and a route
    # of the same template
    state = next(c for c in play if c.path_format == "/api/play/{game_id}")
    assert state.matches(_scope(_sample("/api/play/{x}"), "GET"))[0] is Match.FULL
