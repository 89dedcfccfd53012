"""Benchmark: how late an asyncio event loop wakes while another thread runs Python code, at the
interpreter's default switch interval (5 ms) and at the one ``agon serve`` sets
(:data:`agon.web.app.GIL_SWITCH_SECONDS`).

The web app answers the phones in its event loop while a write (and the pages it renders) runs in
a worker thread; every time the loop wakes it needs the interpreter lock back. This measures that
wait alone, with a busy thread standing in for the write: each interval twice, ``--seconds`` each.

    python bench/web_gil_switch.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time

from agon.web.app import GIL_SWITCH_SECONDS


def busy(stop: threading.Event) -> None:
    while not stop.is_set():
        total = 0
        for i in range(20_000):
            total += i


async def lateness(interval: float, seconds: float) -> list[float]:
    """How late (ms) 2 ms sleeps of the loop end while a busy thread runs."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(interval)
    stop = threading.Event()
    thread = threading.Thread(target=busy, args=(stop,))
    thread.start()
    late = []
    try:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            await asyncio.sleep(0.002)
            late.append((time.perf_counter() - t0 - 0.002) * 1000)
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(before)
    return sorted(late)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    for interval in (0.005, GIL_SWITCH_SECONDS) * 2:
        late = asyncio.run(lateness(interval, args.seconds))
        print(
            f"switch interval {interval * 1000:.1f} ms: the loop wakes late by "
            f"p50 {late[len(late) // 2]:.2f} ms, p99 {late[int(len(late) * 0.99)]:.2f} ms"
        )


if __name__ == "__main__":
    main()
