"""What every desk module shares: its router's settings, the form reader and the redirect back."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse

from agon.web.templating import flash


def desk_router() -> APIRouter:
    """A router of desk pages (under ``/desk``, not in the API's schema)."""
    return APIRouter(prefix="/desk", include_in_schema=False)


async def form_data(request: Request) -> dict[str, str]:
    """Every text field of the submitted form (for forms with one field per seat)."""
    form = await request.form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


FormDep = Annotated[dict[str, str], Depends(form_data)]


def back(request: Request, url: str, message: str, kind: str = "ok") -> RedirectResponse:
    flash(request, message, kind)
    return RedirectResponse(url, status_code=303)
