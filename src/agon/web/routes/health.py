"""``/healthz`` and ``/readyz`` for load balancers and uptime monitors (issue 27): cheap, without a
login, outside every limit.

* ``GET /healthz``: the process answers (no database): 200 ``{"status": "ok"}``.
* ``GET /readyz``: the database is reachable AND its migrations are the ones this agon ships: 200
  ``{"status": "ready", "database": "ok", "migration": "0016"}``; otherwise 503 with
  ``"status": "unavailable"`` and ``"problem"`` naming what is wrong (the database cannot be
  reached, or it is at another migration). The check is one read of ``alembic_version``, bounded
  by :data:`READY_TIMEOUT_SECONDS`; an outage is reported here, not by the outage middleware.

Both answer ``HEAD`` too (:mod:`agon.web.proxy`) and are never cached.

``GET /metrics``: the Prometheus metrics (:mod:`agon.web.metrics`) for a logged-in director or
``Authorization: Bearer <AGON_METRICS_TOKEN>``; 401 for anyone else.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from agon.store.db import OUTAGE, database_fault
from agon.store.migrate import current_revision, package_head
from agon.web.deps import is_director
from agon.web.metrics import exposition
from agon.web.security import tokens_match

router = APIRouter(include_in_schema=False)

#: How long /readyz waits for the database before it says it cannot be reached.
READY_TIMEOUT_SECONDS = 3.0
NO_STORE = {"cache-control": "no-store"}


@router.get("/healthz")
async def healthz() -> JSONResponse:
    """The process is up and its event loop answers."""
    return JSONResponse({"status": "ok"}, headers=NO_STORE)


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready to serve: the database answers and is at this agon's newest migration."""
    engine = request.app.state.web.engine
    head = package_head()
    body: dict[str, Any] = {"status": "unavailable", "migration_expected": head}
    try:
        current = await asyncio.wait_for(
            asyncio.to_thread(current_revision, engine), READY_TIMEOUT_SECONDS
        )
    except TimeoutError:
        body.update(database="timeout", problem="the database did not answer in time")
        return JSONResponse(body, status_code=503, headers=NO_STORE)
    except Exception as exc:  # any failure to reach it is "not ready", never a 500
        # the driver's words (hosts, ports) go to the log, not to anyone who asks
        fault = database_fault(exc)
        if fault is not None:
            OUTAGE.failed(fault)
        else:
            logging.getLogger("agon.web").warning("readyz: %s: %s", type(exc).__name__, exc)
        body.update(database="unreachable", problem="the database cannot be reached")
        return JSONResponse(body, status_code=503, headers=NO_STORE)
    if current != head:
        body.update(
            database="ok",
            migration=current,
            problem=f"the database is at migration {current or 'none'}, this agon needs {head}"
            " (run: agon db upgrade)",
        )
        return JSONResponse(body, status_code=503, headers=NO_STORE)
    return JSONResponse(
        {"status": "ready", "database": "ok", "migration": current}, headers=NO_STORE
    )


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The Prometheus exposition, for the director or the holder of the metrics token."""
    state = request.app.state.web
    token = state.settings.metrics_token
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    allowed = token is not None and scheme.lower() == "bearer"
    allowed = allowed and tokens_match(token.get_secret_value(), given.strip())
    if not allowed and not await asyncio.to_thread(is_director, request, state):
        return JSONResponse(
            {
                "detail": "log in as the director, or send Authorization: Bearer <AGON_METRICS_TOKEN>"
            },
            status_code=401,
            headers={"www-authenticate": "Bearer", **NO_STORE},
        )
    body, content_type = await asyncio.to_thread(exposition, state.sessions)
    return Response(body, media_type=content_type, headers=NO_STORE)
