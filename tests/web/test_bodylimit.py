"""Issue 26, hostile clients: a request body over its limit gets 413 before more than the limit is
read — with a ``Content-Length`` or without one (chunked), on every route."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.types import Message, Receive, Scope, Send

from agon.web.bodylimit import DEFAULT_LIMIT, IMPORT_LIMIT, BodyLimit
from tests.play.server import running
from tests.web.conftest import TestClient, csrf_of

CHUNK = 64 * 1024


async def _reads_everything(scope: Scope, receive: Receive, send: Send) -> None:
    """An app that reads the whole body before it answers (as the framework does)."""
    size = 0
    while True:
        message = await receive()
        size += len(message.get("body", b""))
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(size).encode()})


def _call(
    path: str, chunks: int, headers: list[tuple[bytes, bytes]] | None = None, *, limit: int
) -> tuple[int, int]:
    """Send ``chunks`` chunks of 64 KiB (no Content-Length unless given) through the middleware;
    the status answered and how many chunks the app side pulled."""
    pulled = 0
    answered: list[Message] = []

    async def receive() -> Message:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * CHUNK, "more_body": pulled < chunks}

    async def send(message: Message) -> None:
        answered.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "headers": headers or []}
    asyncio.run(BodyLimit(_reads_everything, limit=limit)(scope, receive, send))
    return answered[0]["status"], pulled


def test_a_chunked_body_is_cut_at_the_limit_not_read_to_its_end() -> None:
    status, pulled = _call("/api/play", chunks=800, limit=DEFAULT_LIMIT)  # 50 MiB offered
    assert status == 413
    assert pulled == DEFAULT_LIMIT // CHUNK + 1  # the chunk that crossed the limit is the last


def test_a_body_within_the_limit_passes_whole() -> None:
    assert _call("/api/play", chunks=DEFAULT_LIMIT // CHUNK, limit=DEFAULT_LIMIT) == (200, 16)


def test_a_declared_length_over_the_limit_is_refused_before_any_of_it_is_read() -> None:
    big = [(b"content-length", str(50 * 2**20).encode())]
    assert _call("/desk/x/players", chunks=800, headers=big, limit=DEFAULT_LIMIT) == (413, 0)
    junk = [(b"content-length", b"12abc")]
    assert _call("/desk/x/players", chunks=1, headers=junk, limit=DEFAULT_LIMIT)[0] == 413


def test_imports_may_be_larger() -> None:
    chunks = 2 * DEFAULT_LIMIT // CHUNK  # 2 MiB: too much for a form, fine for a CSV import
    assert _call("/api/tournaments/ev/players/import", chunks, limit=DEFAULT_LIMIT)[0] == 200
    assert _call("/desk/ev/players/import", chunks, limit=DEFAULT_LIMIT)[0] == 200
    assert _call("/desk/ev/players", chunks, limit=DEFAULT_LIMIT)[0] == 413
    too_many = IMPORT_LIMIT // CHUNK + 1
    assert _call("/desk/ev/players/import", too_many, limit=DEFAULT_LIMIT)[0] == 413


def _chunks(total: int) -> Iterator[bytes]:
    sent = 0
    while sent < total:
        sent += CHUNK
        yield b" " * CHUNK


def test_the_app_answers_413_for_json_forms_and_chunked_bodies(client: TestClient) -> None:
    too_big = b'{"game": "7w", "seats": [' + b" " * (DEFAULT_LIMIT + 10) + b"]}"
    answer = client.post("/api/play", content=too_big, headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert "too large" in answer.json()["detail"]
    chunked = client.post("/api/play", content=_chunks(3 * DEFAULT_LIMIT))
    assert chunked.status_code == 413
    assert "too large" in chunked.json()["detail"]
    form = client.post("/desk/login?lang=de", data={"password": "x" * (DEFAULT_LIMIT + 10)})
    assert form.status_code == 413
    assert f"höchstens {DEFAULT_LIMIT} Bytes" in form.text  # the error page, in German
    # a CSV import of 2 MiB is not refused for its size (here: for want of a login)
    token = csrf_of(client)
    rows = "name\n" + "".join(f"Player {i:07d}\n" for i in range(2 * DEFAULT_LIMIT // 15))
    imported = client.post(
        "/api/tournaments/nope/players/import",
        json={"csv": rows},
        headers={"X-CSRF-Token": token},
    )
    assert imported.status_code == 401


def _rss_kib(pid: int) -> int:
    """The resident memory of ``pid`` and its children (uvicorn's worker is a child)."""
    total = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total += int(line.split()[1])
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else ():
        total += _rss_kib(int(child))
    return total


@pytest.mark.slow
def test_a_real_server_answers_a_50_mb_chunked_body_early_and_keeps_its_memory(
    tmp_path: Path,
) -> None:
    with running(f"sqlite:///{tmp_path / 'agon.db'}") as server:
        assert server.proc is not None
        before = _rss_kib(server.proc.pid)
        offered = 50 * 2**20
        sent = 0
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(
                b"POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            chunk = b"%x\r\n" % CHUNK + b" " * CHUNK + b"\r\n"
            conn.settimeout(0.0)
            answer = b""
            started = time.monotonic()
            while sent < offered and b"\r\n\r\n" not in answer:
                try:
                    sent += conn.send(chunk)
                except BlockingIOError:
                    time.sleep(0.001)
                except OSError:  # the server closed the connection after answering
                    break
                with contextlib.suppress(BlockingIOError):
                    answer += conn.recv(65536)
                assert time.monotonic() - started < 60
            conn.settimeout(10)
            while b"\r\n\r\n" not in answer:
                more = conn.recv(65536)
                if not more:
                    break
                answer += more
        after = _rss_kib(server.proc.pid)
    head, _, body = answer.partition(b"\r\n\r\n")
    print(f"\n50 MiB chunked: answered after {sent} bytes sent; RSS {before} -> {after} KiB")
    assert head.startswith(b"HTTP/1.1 413"), head[:100]
    assert sent < offered / 4, f"the server read {sent} bytes before it answered"
    assert after - before < 20 * 1024, f"RSS grew from {before} to {after} KiB"
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    assert length is not None
    if len(body) >= int(length.group(1)):  # (what follows the answer is not this request's)
        assert "too large" in json.loads(body[: int(length.group(1))])["detail"]
