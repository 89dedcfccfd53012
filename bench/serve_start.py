"""CPU to ready of ``agon serve`` (SQLite, one process) and of ``import agon.web.app`` in a new
interpreter (issue 30: the processes the test suite starts).

``python bench/serve_start.py [--runs 5] [--before SRC]`` starts ``agon serve`` on a fresh
SQLite file, polls ``/api/play/catalog/ocw`` as ``tests/play/server.py`` does until it answers
200, and reads the server's user + system CPU from ``/proc`` at that moment; then it stops the
server. With ``--before SRC`` (another checkout's ``src``) the two trees alternate and the ratio
of the medians is printed, the figure to read on a loaded machine. No goal of its own: a
measurement for docs/dev-measurements.md.
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
TICK = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cpu_of(group: int) -> tuple[float, int]:
    """CPU seconds of every process of the process group ``group`` (the server and what it
    started: the resource tracker, a render process), and how many there are."""
    total, count = 0, 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[2]) == group:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
            count += 1
    return total / TICK, count


def _env(src: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = src
    env.update(AGON_SECRET_KEY="bench", AGON_DIRECTOR_PASSWORD="bench-password")
    return env


def serve_cpu(src: str) -> tuple[float, int]:
    """CPU seconds of one ``agon serve`` (and the processes it started) from its start until
    it answers a request, and how many processes it is then."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/bench.db"
        proc = subprocess.Popen(
            [sys.executable, "-m", "agon", "serve", "--port", str(port), "--database", db],
            env=_env(src),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"agon serve exited with {proc.returncode}")
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("GET", "/api/play/catalog/ocw")
                    if conn.getresponse().status == 200:
                        return _cpu_of(proc.pid)
                except OSError:
                    pass
                time.sleep(0.02)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def import_cpu(src: str) -> float:
    """CPU seconds of ``python -c 'import agon.web.app'``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import agon.web.app"], env=_env(src), check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", metavar="SRC", help="another tree's src, alternated")
    args = parser.parse_args()
    trees = {"after": SRC} | ({"before": args.before} if args.before else {})
    load0 = os.getloadavg()
    cpu0 = time.process_time()
    got: dict[tuple[str, str], list[float]] = {}
    processes: dict[str, set[int]] = {}
    for _ in range(args.runs):
        for name, src in trees.items():
            cpu, count = serve_cpu(src)
            got.setdefault((name, "serve"), []).append(cpu)
            processes.setdefault(name, set()).add(count)
            got.setdefault((name, "import"), []).append(import_cpu(src))
    load1 = os.getloadavg()
    print(f"host {platform.node()}, {os.cpu_count()} CPUs, load {load0[0]:.1f} -> {load1[0]:.1f}")
    for name in trees:
        print(f"serve  {name:6} processes when ready: {sorted(processes[name])}")
    for what in ("serve", "import"):
        for name in trees:
            xs = got[(name, what)]
            print(
                f"{what:6} {name:6} CPU s: median {statistics.median(xs):.2f}, "
                f"best {min(xs):.2f} ({', '.join(f'{x:.2f}' for x in xs)})"
            )
        if args.before:
            ratio = statistics.median(got[("after", what)]) / statistics.median(
                got[("before", what)]
            )
            print(f"{what:6} after/before (medians): {ratio:.2f}")
    print(f"bench's own CPU {time.process_time() - cpu0:.2f} s")
    print("goal: none of its own (issue 30's goal is the suite's wall time): met/not met n/a")


if __name__ == "__main__":
    main()
