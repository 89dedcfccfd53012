"""A whole answer sent from ASGI middleware, before or instead of the app (413, 503)."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.types import Send


async def send_answer(
    send: Send,
    status: int,
    body: bytes,
    content_type: bytes,
    headers: Sequence[tuple[bytes, bytes]] = (),
) -> None:
    """Send ``status`` with ``body`` (its type and length set) and ``headers``."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
