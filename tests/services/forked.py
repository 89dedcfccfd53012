"""Writer processes for the guarantee tests, forked from the test process (no interpreter start-up,
so twenty kills cost little). A child never returns into pytest: it leaves by ``os._exit``."""

from __future__ import annotations

import os
import random
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from agon.errors import Conflict, IllegalAction, NotFound
from agon.services import floor, players, results, rounds
from agon.services.public import RoundPublic
from agon.services.schemas import PlayerCreate, ResultIn
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


# --- the mixed writers of the "eight writers on one tournament" guarantee -------------------------

#: The errors a writer may meet when it races the others: each one a clear, one-line message.
RACE_ERRORS = (Conflict, IllegalAction, NotFound)


def mixed_writer(url: str, role: str, index: int, go: Path) -> Callable[[IO[str]], int]:
    """One of the eight writers: wait for ``go``, then do ``role``'s changes as actor
    ``{role}{index}``; write ``ack`` after each acknowledged change and ``err CLASS: MESSAGE`` after
    each refused one (a race lost: the state moved on). Any other exception ends it with code 1."""

    def run(out: IO[str]) -> int:
        session = make_session_factory(make_engine(Settings(url)))()
        actor = f"{role}{index}"
        rng = random.Random(index)

        def attempt(change: Callable[[], object]) -> bool:
            try:
                change()
            except RACE_ERRORS as exc:
                out.write(f"err {type(exc).__name__}: {exc}\n")
                return False
            out.write("ack\n")
            return True

        def round_one() -> RoundPublic:
            deadline = time.monotonic() + 60
            while True:
                try:
                    return rounds.get_round(session, tournament="t", number=1)
                except NotFound:
                    session.rollback()
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.01)

        wait_for(go)
        if role == "round":  # the round start races the check-ins, registrations and sanctions
            time.sleep(rng.random() * 0.03)
            attempt(lambda: rounds.start_round(session, tournament="t", actor=actor))
        elif role == "checkin":  # players 29..36: on time if the round has not started, else late
            for n in range(29 + 4 * index, 33 + 4 * index):
                name = f"Player {n:02d}"
                if not attempt(
                    lambda name=name: players.check_in(
                        session, tournament="t", player=name, actor=actor
                    )
                ):
                    attempt(
                        lambda name=name: players.check_in(
                            session, tournament="t", player=name, actor=actor, late=True
                        )
                    )
                time.sleep(rng.random() * 0.01)
        elif role == "register":
            for n in range(1, 5):
                attempt(
                    lambda n=n: players.register_player(
                        session,
                        tournament="t",
                        data=PlayerCreate(name=f"Newcomer {n}", fee_paid=True),
                        actor=actor,
                    )
                )
                time.sleep(rng.random() * 0.01)
        elif role == "sanction":  # sanctions race the round start and the results
            for n in range(1, 21):  # back to back: some land while the round is being seated
                attempt(
                    lambda n=n: players.add_sanction(
                        session,
                        tournament="t",
                        player=f"Player {n:02d}",
                        kind="warning",
                        reason=f"warning {n}",
                        actor=actor,
                    )
                )
        elif role == "results":  # every other table: enter, then confirm
            for table in round_one().tables[index::2]:
                attempt(
                    lambda table=table: results.enter_result(
                        session,
                        tournament="t",
                        round_number=1,
                        table=table.number,
                        actor=actor,
                        results=table_results(list(table.seats), 40 + table.number),
                    )
                )
                time.sleep(rng.random() * 0.01)
                attempt(
                    lambda table=table: results.confirm_result(
                        session, tournament="t", round_number=1, table=table.number, actor=actor
                    )
                )
        elif role == "floor":  # the clock, and disputes of whatever result is not confirmed yet
            tables = round_one().tables
            attempt(
                lambda: floor.start_clock(
                    session, tournament="t", round_number=1, minutes=50, actor=actor
                )
            )
            for _ in range(3):
                for table in tables:
                    current = results.get_table(
                        session, tournament="t", round_number=1, table=table.number
                    )
                    session.rollback()
                    if current.results and current.state != "confirmed":
                        attempt(
                            lambda c=current: floor.dispute(
                                session,
                                tournament="t",
                                round_number=1,
                                table=c.number,
                                version=c.version,
                                player=c.seats[0],
                                reason="recount, please",
                                actor=actor,
                            )
                        )
                attempt(
                    lambda: floor.pause_clock(session, tournament="t", round_number=1, actor=actor)
                )
        return 0

    return run
