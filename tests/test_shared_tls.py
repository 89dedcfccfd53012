"""tests/shared_tls.py: the suite's ``httpx.get`` calls share one default TLS context (each had
built its own, loading certifi's bundle: ~35 ms of CPU per request to a real server), and that
context still checks what a new one would."""

from __future__ import annotations

import ssl
import time
from contextlib import suppress

import httpx


def _context(client: httpx.Client) -> ssl.SSLContext:
    context: ssl.SSLContext = client._transport._pool._ssl_context  # type: ignore[attr-defined]
    return context


def test_new_clients_share_the_default_tls_context_and_it_still_verifies() -> None:
    with httpx.Client() as first, httpx.Client(timeout=3) as second:
        shared = _context(first)
        assert _context(second) is shared
    assert shared.verify_mode == ssl.CERT_REQUIRED and shared.check_hostname
    assert shared.get_ca_certs()  # certifi's authorities, as httpx loads them
    with httpx.Client(verify=False) as unchecked:  # other arguments: a context of their own
        assert _context(unchecked) is not shared
        assert _context(unchecked).verify_mode == ssl.CERT_NONE
    own = ssl.create_default_context()
    with httpx.Client(verify=own) as given:
        assert _context(given) is own


def test_a_request_to_a_closed_port_costs_no_new_tls_context() -> None:
    """What the servers' start-up polls do ten times a second (tests/play/server.py)."""
    start = time.process_time()
    for _ in range(20):
        with suppress(httpx.HTTPError):
            httpx.get("http://127.0.0.1:9/", timeout=2)  # port 9 (discard): nothing listens
    per_request = (time.process_time() - start) / 20
    # a fresh context costs 15-35 ms; a shared one leaves the connect attempt, well under 5 ms
    assert per_request < 0.01, per_request
