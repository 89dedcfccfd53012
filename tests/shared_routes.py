"""The per-route work FastAPI repeats for every app, done once per test process.

FastAPI builds each included route's state (its dependency tree and the pydantic fields of its
parameters, body and response) for each app, on the app's first request: about 0.3 s of CPU for
agon's 166 routes, a third of a typical web test's CPU, because nearly every web test makes an
app of its own (its own database, its own settings). In production an app is made once per
process, so this costs one first request; in the suite it cost minutes.

What is built is a pure function of the endpoint's signature, the route's path and its
dependencies, none of which differ between two apps of the same code: the suite builds it once
per process and each app shares it. Everything that is per app is still made per app: the
route's handler, the app's ``dependency_overrides`` (they are looked up on the app at request
time), the middleware, the settings. Endpoints defined inside a function (a test's own small app),
lambdas, bound methods and partials are built per app as before, so nothing made for one app
stays alive for the next.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import fastapi.routing as routing
from pydantic_core import PydanticUndefined


def _module_level(call: object) -> bool:
    """A plain function or a class defined at a module's top level: not a closure, a lambda, a
    bound method or a partial (each of which may hold something of one app)."""
    if not (inspect.isfunction(call) or inspect.isclass(call)):
        return False
    qualname = call.__qualname__
    return "<locals>" not in qualname and "<lambda>" not in qualname


def _dependency_key(depends: Any) -> object:
    """A ``Depends`` of a module-level function, without a concurrency limit of its own, by its
    value (an app makes its own ``Depends(csrf_guard)``, equal to every other app's); any other
    by identity."""
    if getattr(depends, "_concurrency", None) is None and _module_level(
        getattr(depends, "dependency", None)
    ):
        try:
            hash(depends)
        except TypeError:
            pass
        else:
            return depends
    return id(depends)


def share_route_state() -> None:
    """Wrap FastAPI's builders of a route's dependency tree, body and response fields (where
    ``fastapi.routing`` looks them up) with a memo, once per process."""
    build: Callable[..., Any] | None = getattr(
        routing, "_build_dependant_with_parameterless_dependencies", None
    )
    create: Callable[..., Any] | None = getattr(routing, "create_model_field", None)
    body: Callable[..., Any] | None = getattr(routing, "_get_body_field", None)
    if build is None or create is None or body is None or getattr(build, "shared", False):
        return
    dependants: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
    fields: dict[tuple[Any, ...], Any] = {}
    bodies: dict[tuple[Any, ...], tuple[list[Any], Any]] = {}
    shared_params: set[int] = set()  # the ids of the body parameter lists built by the memo

    def build_dependant(*, path: str, call: Callable[..., Any], dependencies: Sequence[Any]) -> Any:
        if not _module_level(call):
            return build(path=path, call=call, dependencies=dependencies)
        key = (path, call, tuple(_dependency_key(d) for d in dependencies))
        if key not in dependants:
            # the Depends objects are kept with the entry, so that an id stays theirs
            made = build(path=path, call=call, dependencies=dependencies)
            dependants[key] = (tuple(dependencies), made)
            shared_params.add(id(made[1]))
        return dependants[key][1]

    def get_body_field(*, body_params: list[Any], name: str, embed_body_fields: bool) -> Any:
        """The request body's field (a model made of the body parameters, for a form), once per
        shared list of body parameters (kept alive by the dependency memo)."""
        if id(body_params) not in shared_params:
            return body(body_params=body_params, name=name, embed_body_fields=embed_body_fields)
        key = (id(body_params), name, embed_body_fields)
        if key not in bodies:
            made = body(body_params=body_params, name=name, embed_body_fields=embed_body_fields)
            bodies[key] = (body_params, made)
        return bodies[key][1]

    def create_model_field(
        name: str,
        type_: Any,
        default: Any = PydanticUndefined,
        field_info: Any = None,
        alias: str | None = None,
        mode: str = "validation",
    ) -> Any:
        key = (name, type_, mode)
        try:
            plain = default is PydanticUndefined and field_info is None and alias is None
            known = plain and key in fields
        except TypeError:  # an unhashable type
            plain = known = False
        if known:
            return fields[key]
        made = create(name, type_, default, field_info, alias, mode)
        if plain:
            fields[key] = made
        return made

    build_dependant.shared = True  # type: ignore[attr-defined]
    routing._build_dependant_with_parameterless_dependencies = build_dependant
    routing.create_model_field = create_model_field  # type: ignore[attr-defined]
    routing._get_body_field = get_body_field  # type: ignore[attr-defined]
