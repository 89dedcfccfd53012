"""The event stream's response class: agon's ``CountedStream`` against sse-starlette (issue 31).

Both serve the same Server-Sent Events — ``event: state``, ``id``, ``data`` of a seat's state
JSON — through the ASGI interface with a client that never leaves, so the figure is the cost of
the response machinery alone (no game, no database): CPU microseconds per pushed event with
``--streams`` concurrent streams of ``--events`` events each, and per opened stream (an
``EventSourceResponse`` runs a task group with a ping task and a disconnect listener per stream).
sse-starlette is not one of agon's dependencies: install it beside the venv to run this,
``uv pip install --target DIR --no-deps sse-starlette`` and ``PYTHONPATH=DIR``.

    .venv/bin/python bench/sse_response.py [--streams 200] [--events 50] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from agon.web.streams import CountedStream

STATE = json.dumps(
    {"version": 7, "seat": 1, "hand": [f"card {i}" for i in range(7)], "log": ["x" * 60] * 40}
)  # about 3 KB, the size of a 7 Wonders seat's state


async def _never_leaves() -> dict[str, Any]:
    await asyncio.Event().wait()
    return {"type": "http.disconnect"}  # pragma: no cover


async def _serve(make: Callable[[int], Any], events: int) -> int:
    sent = 0
    done = asyncio.Event()

    async def send(message: dict[str, Any]) -> None:
        nonlocal sent
        if message["type"] == "http.response.body":
            sent += 1
            if not message.get("more_body", False):
                done.set()

    scope = {"type": "http", "asgi": {"spec_version": "2.4"}, "method": "GET", "headers": []}
    await make(events)(scope, _never_leaves, send)
    return sent


def ours(events: int) -> Any:
    async def stream() -> AsyncIterator[str]:
        for i in range(events):
            yield f"event: state\nid: {i}\ndata: {STATE}\n\n"

    return CountedStream(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        on_close=lambda: None,
    )


def theirs(events: int) -> Any:
    from sse_starlette import EventSourceResponse, ServerSentEvent

    async def stream() -> AsyncIterator[ServerSentEvent]:
        for i in range(events):
            yield ServerSentEvent(data=STATE, event="state", id=str(i))

    return EventSourceResponse(
        stream(), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}, ping=15
    )


async def _round(make: Callable[[int], Any], streams: int, events: int) -> float:
    start = time.process_time()
    await asyncio.gather(*(_serve(make, events) for _ in range(streams)))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    contenders: list[tuple[str, Callable[[int], Any]]] = [("CountedStream", ours)]
    try:
        import sse_starlette  # noqa: F401
    except ImportError:
        print("sse-starlette is not installed: CountedStream alone (see the docstring)")
    else:
        contenders.append(("sse-starlette", theirs))
    for name, make in contenders:
        per_event = []
        per_stream = []
        for _ in range(args.rounds):
            cpu = asyncio.run(_round(make, args.streams, args.events))
            per_event.append(cpu / (args.streams * args.events) * 1e6)
            opened = asyncio.run(_round(make, args.streams, 0))
            per_stream.append(opened / args.streams * 1e6)
        print(
            f"{name:14} {statistics.median(per_event):7.1f} µs CPU per event, "
            f"{statistics.median(per_stream):7.1f} µs per stream opened and closed "
            f"({args.streams} streams x {args.events} events, median of {args.rounds})"
        )


if __name__ == "__main__":
    main()
