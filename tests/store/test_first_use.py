"""Issue 10, defect 3: many commands started at once on a fresh database migrate it one at a time
(a lock); the others wait and go on, and a process killed while migrating leaves nothing broken."""

from __future__ import annotations

import os
import random
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest
from sqlalchemy import select
from tests.db_fixtures import backend_factory
from tests.services.forked import Child, fork

from agon import launch
from agon.services import journal, tournaments
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.migrate import MigrationBusy, current_revision, ensure_current, head_revision
from agon.store.models import TournamentRow

BACKENDS = ["sqlite", "postgresql"]
#: Processes started at once on the fresh database.
PROCESSES = 12
#: Kills during first use, per backend (the kill -9 guarantee's migration part).
MIGRATION_KILLS = 10


def agon(url: str, output: Path, *args: str) -> Child:
    """``agon ARGS`` in a process of its own, forked from this one: the command line's own entry
    point (:func:`agon.launch.main`) with ``AGON_DATABASE_URL`` set, its standard output and
    error in ``output``.out and ``output``.err, its exit code the process's. Forked, not a new
    interpreter: the processes race for the fresh database as twelve commands do, without twelve
    interpreter start-ups and imports of agon (about 0.7 s of CPU each, most of this test's)."""

    def run(_: IO[str]) -> int:
        os.environ.update(AGON_DATABASE_URL=url, AGON_ACTOR="desk")
        out = open(output.with_suffix(".out"), "w", encoding="utf-8")  # noqa: SIM115
        err = open(output.with_suffix(".err"), "w", encoding="utf-8")  # noqa: SIM115
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.stdin, sys.stdout, sys.stderr = open(os.devnull), out, err  # noqa: SIM115
        code = 1
        try:
            launch.main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # as the interpreter would: the traceback on standard error
            traceback.print_exc(file=err)
        finally:
            out.flush()
            err.flush()
        return code

    return fork(run)


def _outcome(child: Child, output: Path) -> tuple[int, str, str]:
    code = child.wait()
    child.out.close()
    out, err = (output.with_suffix(s).read_text(encoding="utf-8") for s in (".out", ".err"))
    return code, out, err


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_twelve_commands_at_once_on_a_fresh_database(backend: str, tmp_path: Path) -> None:
    url = backend_factory(backend).empty_url(tmp_path)
    started = time.monotonic()
    procs = [
        agon(
            url,
            tmp_path / f"agon{i}",
            "tournament",
            "create",
            f"t{i}",
            "--name",
            f"T{i}",
            "--ruleset",
            "bonn-2018",
            "--no-use",
        )
        for i in range(PROCESSES)
    ]
    outcomes = [_outcome(p, tmp_path / f"agon{i}") for i, p in enumerate(procs)]
    elapsed = time.monotonic() - started
    for code, _, err in outcomes:
        assert "Traceback" not in err, err
        # success, or one clear line and exit code 2 (waited too long for another's migration)
        assert code == 0 or (code == 2 and len(err.strip().splitlines()) == 1), (code, err)
    created = [f"t{i}" for i, (code, _, _) in enumerate(outcomes) if code == 0]
    assert created, outcomes
    engine = make_engine(Settings(url))
    assert current_revision(engine) == head_revision(engine)
    with make_session_factory(engine)() as session:
        assert sorted(session.scalars(select(TournamentRow.slug))) == sorted(created)
    engine.dispose()
    print(f"{backend}: {PROCESSES} processes, {len(created)} created, {elapsed:.1f} s")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_process_waits_for_another_ones_migration_then_gives_up_with_one_line(
    backend: str, tmp_path: Path
) -> None:
    from agon.store.migrate import migration_lock

    url = backend_factory(backend).empty_url(tmp_path)
    engine = make_engine(Settings(url))
    other = make_engine(Settings(url))
    try:
        with migration_lock(other), pytest.raises(MigrationBusy, match="another agon process"):
            ensure_current(engine, wait=0.3)
        ensure_current(engine, wait=0.3)  # the lock is free again: it migrates
        assert current_revision(engine) == head_revision(engine)
    finally:
        engine.dispose()
        other.dispose()


def _first_user(url: str, slug: str) -> Callable[[IO[str]], int]:
    """A forked child: migrate on first use, create ``slug``, say so, then keep writing."""

    def run(out: IO[str]) -> int:
        print("start", file=out, flush=True)
        engine = make_engine(Settings(url))
        ensure_current(engine)
        with make_session_factory(engine)() as session:
            from agon.services.schemas import TournamentCreate

            tournaments.create_tournament(
                session,
                data=TournamentCreate(slug=slug, name=slug, ruleset="bonn-2018", seed="s"),
                actor="desk",
            )
            print(f"ack {slug}", file=out, flush=True)
            for n in range(1000):
                tournaments.create_tournament(
                    session,
                    data=TournamentCreate(
                        slug=f"{slug}-{n}", name=slug, ruleset="bonn-2018", seed="s"
                    ),
                    actor="desk",
                )
                print(f"ack {slug}-{n}", file=out, flush=True)
        return 0

    return run


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_kill_9_during_first_use_loses_nothing_acknowledged(backend: str, tmp_path: Path) -> None:
    """Each round: a fresh database, three processes using it for the first time, one of them
    killed at a random moment (mostly while migrating); then the database migrates cleanly, every
    acknowledged tournament is there, and the journal verifies."""
    factory = backend_factory(backend)
    rng = random.Random(10)
    kills = during_migration = 0
    # how long migrating a fresh database takes here, timed the second time (the first imports
    # Alembic, which the forked children then have already)
    for _ in range(2):
        probe = make_engine(Settings(factory.empty_url(tmp_path)))
        started = time.monotonic()
        ensure_current(probe)
        migration = time.monotonic() - started
        probe.dispose()
    started = time.monotonic()
    for round_ in range(MIGRATION_KILLS):
        url = factory.empty_url(tmp_path)
        # forked from this process: no interpreter start-up (it cost most of this test's CPU)
        children = [fork(_first_user(url, f"r{round_}p{i}")) for i in range(3)]
        victim = children[rng.randrange(3)]
        assert victim.out.readline() == "start\n"
        time.sleep(rng.random() * migration)  # somewhere in migrating, mostly
        os.kill(victim.pid, signal.SIGKILL)
        kills += 1
        time.sleep(rng.random() * 0.5)
        for child in children:
            if child is not victim:
                os.kill(child.pid, signal.SIGKILL)
        acked: list[str] = []
        for child in children:
            out = child.out.read()
            child.out.close()
            # killed, not ended by an error of its own (a child that raises exits with 1)
            assert child.wait() == -signal.SIGKILL
            if child is victim and "ack" not in out:
                during_migration += 1
            acked += [
                line.split()[1]
                for line in out.splitlines(keepends=True)
                if line.startswith("ack ") and line.endswith("\n")
            ]
        engine = make_engine(Settings(url))
        ensure_current(engine, wait=30)
        assert current_revision(engine) == head_revision(engine)
        with make_session_factory(engine)() as session:
            stored = set(session.scalars(select(TournamentRow.slug)))
            assert set(acked) <= stored
            for slug in acked:
                assert journal.verify(session, tournament=slug)
        engine.dispose()
    assert kills >= MIGRATION_KILLS
    assert during_migration >= 1  # the kills hit first use, not only later writes
    print(
        f"{backend}: {kills} first-use kills ({during_migration} before the first change was "
        f"acknowledged), {time.monotonic() - started:.1f} s"
    )
