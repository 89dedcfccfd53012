"""The sync API (issue 29): a laptop's ``agon sync push``/``watch`` sends its event's journal here.

``GET /api/sync/{slug}`` says where the hosted copy stands (``{"seq", "hash"}``); ``POST
/api/sync/{slug}`` takes a batch of entries (:mod:`agon.services.sync`). Both need a sync token
(``Authorization: Bearer TOKEN``, ``agon sync token create``): 401 without one or with an unknown
one, 403 for a revoked one or another organisation's event. A refused batch is a 409 whose
``X-Agon-Sync-Problem`` header says why: ``diverged`` (the copies differ: nothing was
overwritten) or ``behind`` (the copy stands elsewhere: ask again, push again). No CSRF token:
the credential is the bearer token, not a cookie.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from agon.errors import Conflict
from agon.services import sync
from agon.services.sync_client import PROBLEM_HEADER
from agon.web.deps import SessionDep

router = APIRouter(prefix="/api/sync", tags=["sync"])
#: A tournament's slug in the path (the service checks its form).
Slug = Annotated[str, Path(max_length=64)]


class SyncStatus(BaseModel):
    """Where the hosted copy stands: its last entry's position and hash (0 and the genesis hash
    before the first push)."""

    tournament: str
    seq: int
    hash: str


class SyncReceived(SyncStatus):
    """Where the copy stands after a batch, and what the batch did."""

    applied: int
    skipped: int


class SyncBatch(BaseModel):
    """Consecutive entries of the laptop's journal in the wire form (docs/web.md, "Sync")."""

    entries: list[dict[str, Any]] = Field(min_length=1, max_length=sync.MAX_BATCH)


Authorization = Annotated[str | None, Header(max_length=400)]


def _token(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(
            status_code=401,
            detail="a sync token is needed: Authorization: Bearer TOKEN",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return token.strip()


def _refused(exc: Exception) -> HTTPException | JSONResponse:
    if isinstance(exc, sync.SyncDenied):
        return HTTPException(status_code=exc.status, detail=str(exc))
    problem = "diverged" if isinstance(exc, sync.Diverged) else "behind"
    return JSONResponse({"detail": str(exc)}, status_code=409, headers={PROBLEM_HEADER: problem})


@router.get(
    "/{slug}",
    response_model=SyncStatus,
    responses={401: {"description": "no or unknown token"}, 403: {"description": "refused"}},
)
def sync_status(slug: Slug, session: SessionDep, authorization: Authorization = None) -> Any:
    """Where the hosted copy of the tournament stands."""
    try:
        return sync.status(session, token=_token(authorization), tournament=slug)
    except sync.SyncDenied as exc:
        raise HTTPException(status_code=exc.status, detail=str(exc)) from None


@router.post(
    "/{slug}",
    response_model=SyncReceived,
    responses={
        401: {"description": "no or unknown token"},
        403: {"description": "revoked token, or not this organisation's event"},
        409: {"description": "diverged, or behind (X-Agon-Sync-Problem)"},
        422: {"description": "a malformed batch, a broken chain, an entry that does not apply"},
    },
)
def sync_receive(
    slug: Slug, batch: SyncBatch, session: SessionDep, authorization: Authorization = None
) -> Any:
    """Store and apply a batch of the laptop's journal, in one transaction."""
    token = _token(authorization)
    try:
        return sync.receive(session, token=token, tournament=slug, items=batch.entries)
    except (sync.SyncDenied, Conflict) as exc:
        refusal = _refused(exc)
        if isinstance(refusal, HTTPException):
            raise refusal from None
        return refusal
