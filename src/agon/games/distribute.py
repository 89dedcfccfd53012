"""Run many seeded games on local processes or on a Ray cluster, with the single-process result.

A run of ``total`` games is cut into chunks of consecutive game indices; a chunk is played by
``play(spec, start, stop)``, a module-level function (so it can be sent to another process)
that must give game ``i`` the same result whichever chunk it is in: every game's seeds are a
function of the run's seed and ``i`` only.  Chunks' results are put back together in game
order, so ``workers=1``, ``workers=8`` and a cluster of any size return the same list.

* ``workers=1`` (the default): this process, no pool.
* ``workers=N``: a pool of ``N`` local processes; ``workers=0``: one per CPU.
* ``cluster=ADDRESS``: Ray (the ``agon-tournaments[cluster]`` extra, imported only here): ``"auto"`` joins
  the cluster this machine belongs to, ``"local"`` starts a private one with ``workers`` CPUs
  (or all CPUs for ``workers=0``), ``HOST:6379`` joins the head node started with
  ``ray start --head``.  Every node needs agon installed at the same version.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from agon.errors import InvalidInput

S = TypeVar("S")
R = TypeVar("R")

#: Chunks per worker: more than one evens out chunks of unequal length.
CHUNKS_PER_WORKER = 4

#: Chunks of a single-process run that reports progress (one report per chunk).
PROGRESS_STEPS = 100


def cpu_workers(workers: int) -> int:
    """``workers``, with 0 meaning one per CPU.

    Raises:
        InvalidInput: a negative count.
    """
    if workers < 0:
        raise InvalidInput(f"--workers {workers}: give 0 (one per CPU) or more")
    return workers or os.cpu_count() or 1


def chunks(total: int, parts: int) -> list[tuple[int, int]]:
    """``range(total)`` cut into at most ``parts`` consecutive pieces of near-equal length.

    >>> chunks(10, 3)
    [(0, 4), (4, 7), (7, 10)]
    """
    parts = max(1, min(parts, total))
    base, extra = divmod(total, parts)
    out, start = [], 0
    for k in range(parts):
        stop = start + base + (1 if k < extra else 0)
        out.append((start, stop))
        start = stop
    return [c for c in out if c[0] < c[1]]


def run_chunks(
    play: Callable[[S, int, int], Sequence[R]],
    spec: S,
    total: int,
    *,
    workers: int = 1,
    cluster: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[R]:
    """``play(spec, 0, total)``, cut into chunks run on ``workers`` processes or on Ray.

    ``on_progress(done)`` is called with the number of games done as chunks finish (in game
    order; a single process then plays :data:`PROGRESS_STEPS` chunks): the results are the same.

    Raises:
        InvalidInput: a negative worker count, or ``cluster`` without Ray installed or not
            reachable.
    """
    n = cpu_workers(workers)
    if cluster is None and (n == 1 or total <= 1):
        if on_progress is None:
            return list(play(spec, 0, total))
        out: list[R] = []
        for a, b in chunks(total, PROGRESS_STEPS):
            out.extend(play(spec, a, b))
            on_progress(b)
        return out
    pieces = chunks(total, n * CHUNKS_PER_WORKER)
    if cluster is not None:
        parts = _ray_map(play, spec, pieces, cluster, workers, on_progress)
    else:
        with ProcessPoolExecutor(max_workers=n) as pool:
            parts = []
            results = pool.map(
                play, [spec] * len(pieces), [a for a, _ in pieces], [b for _, b in pieces]
            )
            for (_, b), part in zip(pieces, results, strict=True):
                parts.append(part)
                if on_progress is not None:
                    on_progress(b)
    return [r for part in parts for r in part]


def _ray_map(
    play: Callable[[S, int, int], Sequence[R]],
    spec: S,
    pieces: list[tuple[int, int]],
    cluster: str,
    workers: int,
    on_progress: Callable[[int], None] | None = None,
) -> list[Sequence[R]]:
    checked = False
    if cluster != "local" and "ray" not in sys.modules:
        # Ray cannot be running in this process yet: refuse an address nobody answers at before
        # importing Ray (about 0.8 s of CPU), with the same messages, in the same order
        if importlib.util.find_spec("ray") is None:
            ray_module()  # raises: Ray is not installed
        try:
            _reachable(cluster)
        except InvalidInput as exc:
            raise _cannot_join(cluster, exc) from None
        checked = True
    ray = ray_module()
    if not ray.is_initialized():
        try:
            if cluster == "local":
                ray.init(
                    num_cpus=workers or None,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            else:
                if not checked:
                    _reachable(cluster)
                ray.init(address=cluster, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise _cannot_join(cluster, exc) from None
    remote = ray.remote(play)
    spec_ref = ray.put(spec)
    refs = [remote.remote(spec_ref, a, b) for a, b in pieces]
    if on_progress is None:
        return list(ray.get(refs))
    parts = []
    for (_, b), ref in zip(pieces, refs, strict=True):
        parts.append(ray.get(ref))
        on_progress(b)
    return parts


def _cannot_join(cluster: str, exc: Exception) -> InvalidInput:
    """The one line of a failure to join the Ray cluster at ``cluster``."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return InvalidInput(f"--cluster {cluster}: cannot join the Ray cluster ({first})")


def _reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a ``HOST:PORT`` nobody answers at (Ray itself retries for minutes).

    Raises:
        InvalidInput: a malformed address or no answer within ``timeout`` seconds.
    """
    if address == "auto" or address.startswith("ray://"):
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise InvalidInput(
            f"--cluster {address}: give HOST:PORT (e.g. head.example:6379), 'auto' or 'local'"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise InvalidInput(
            f"--cluster {address}: no Ray head answers there ({exc.strerror or exc}); "
            "start one with 'ray start --head --port 6379'"
        ) from None


def ray_module() -> Any:
    """The ``ray`` package, imported on demand.

    Raises:
        InvalidInput: Ray is not installed.
    """
    try:
        import ray
    except ImportError:
        raise InvalidInput(
            "--cluster needs Ray: pip install 'agon-tournaments[cluster]' (on every node)"
        ) from None
    return ray
