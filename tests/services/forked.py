"""Writer processes for the guarantee tests, forked from the test process (no interpreter start-up,
so twenty kills cost little). A child never returns into pytest: it leaves by ``os._exit``."""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from agon.errors import Conflict
from agon.services import results
from agon.services.schemas import ResultIn
from agon.store.db import Settings, make_engine, make_session_factory


@dataclass
class Child:
    pid: int
    out: IO[str]

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def fork(fn: Callable[[IO[str]], int]) -> Child:
    """Run ``fn(out)`` in a child process; ``out`` is a line channel back to the parent."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_fd)
        code = 1
        try:
            with os.fdopen(write_fd, "w", buffering=1) as out:
                code = fn(out)
        except BaseException:
            traceback.print_exc(file=sys.stderr)
        finally:
            os._exit(code)
    os.close(write_fd)
    return Child(pid, os.fdopen(read_fd, "r"))


def table_results(seats: list[str], first_vp: int) -> list[ResultIn]:
    return [ResultIn(player=name, vp=first_vp - 3 * i, coins=i) for i, name in enumerate(seats)]


def wait_for(path: Path) -> None:
    while not path.exists():
        time.sleep(0.002)


def loop_writer(url: str, table: int) -> Callable[[IO[str]], int]:
    """Correct the table again and again (first seat's VP + 1); report ``ack VERSION VP`` after
    each acknowledged change."""

    def run(out: IO[str]) -> int:
        session = make_session_factory(make_engine(Settings(url)))()
        while True:
            t = results.get_table(session, tournament="t", round_number=1, table=table)
            vp = t.results[0].vp + 1 if t.results else 40
            done = results.enter_result(
                session,
                tournament="t",
                round_number=1,
                table=table,
                actor="writer",
                results=table_results(list(t.seats), vp),
                expected_version=t.version if t.results else None,
            )
            out.write(f"ack {done.version} {vp}\n")

    return run


def enter_writer(url: str, table: int, go: Path) -> Callable[[IO[str]], int]:
    """Wait for ``go``, then enter and confirm the table's results."""

    def run(out: IO[str]) -> int:
        session = make_session_factory(make_engine(Settings(url)))()
        t = results.get_table(session, tournament="t", round_number=1, table=table)
        seats = list(t.seats)
        session.rollback()
        wait_for(go)
        results.enter_result(
            session,
            tournament="t",
            round_number=1,
            table=table,
            actor=f"w{table}",
            results=table_results(seats, 50 + table),
        )
        results.confirm_result(
            session, tournament="t", round_number=1, table=table, actor=f"w{table}"
        )
        return 0

    return run


def correct_writer(url: str, go: Path, version: int, vp: int) -> Callable[[IO[str]], int]:
    """Wait for ``go``, then correct table 1 expecting ``version``: 0 on success, 3 on Conflict."""

    def run(out: IO[str]) -> int:
        session = make_session_factory(make_engine(Settings(url)))()
        t = results.get_table(session, tournament="t", round_number=1, table=1)
        seats = list(t.seats)
        session.rollback()
        wait_for(go)
        try:
            results.enter_result(
                session,
                tournament="t",
                round_number=1,
                table=1,
                actor=f"corrector-{vp}",
                expected_version=version,
                results=table_results(seats, vp),
            )
        except Conflict as exc:
            out.write(f"{exc}\n")
            return 3
        return 0

    return run
