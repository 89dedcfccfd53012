"""One TLS context for every ``httpx.get``/``httpx.post`` of the suite.

``httpx.get(url)`` makes a new client, and a new client builds a new TLS context, loading
certifi's whole bundle of authorities: about 35 ms of CPU on the loaded project machine, even for
a plain ``http://127.0.0.1`` URL that never uses it (0.2 ms for a request of a kept client). The
tests that talk to real servers poll them that way: ``tests/play/server.py`` asked a starting
``agon serve`` ten times a second, and the two-server and chaos tests read games in loops, so the
contexts cost seconds of CPU per test. The default context (``verify=True``, no client
certificate) is made once per process and shared, as one client shares it between its
connections; a context asked for with other arguments is built as before. What is checked is
unchanged: the same authorities, the same hostname check.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable
from typing import Any

import httpx._transports.default as transports


def share_default_tls_context() -> None:
    """Wrap httpx's ``create_ssl_context`` (where its transports look it up) once per process."""
    build: Callable[..., ssl.SSLContext] | None = getattr(transports, "create_ssl_context", None)
    if build is None or getattr(build, "shared", False):
        return
    made: dict[tuple[str | None, str | None], ssl.SSLContext] = {}

    def create_ssl_context(
        verify: Any = True, cert: Any = None, trust_env: bool = True
    ) -> ssl.SSLContext:
        if verify is not True or cert is not None or not trust_env:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        key = (os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
        if key not in made:
            made[key] = build(verify=verify, cert=cert, trust_env=trust_env)
        return made[key]

    create_ssl_context.shared = True  # type: ignore[attr-defined]
    transports.create_ssl_context = create_ssl_context  # type: ignore[assignment]
