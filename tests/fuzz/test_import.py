"""Fuzzing ``agon import`` into a database (issue 10): every generated event file is either
imported whole or refused with one InvalidInput/Conflict — and a refused import leaves the
database exactly as it was (no journal entry, no tournament, no player)."""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from agon.errors import AgonError
from agon.services import exchange
from agon.store.models import JournalEntry, PlayerRow, ResultRow, TournamentRow
from tests.fuzz.strategies import event_files
from tests.fuzzing import examples

#: 300 cases in make test; AGON_FUZZ_DEPTH times as many in a deeper run (tests/fuzzing.py)
EXAMPLES = examples(300)
_slugs = itertools.count(1)


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def counts(session: Session) -> tuple[int, ...]:
    session.expire_all()
    return tuple(
        int(session.scalar(select(func.count()).select_from(model)) or 0)
        for model in (JournalEntry, TournamentRow, PlayerRow, ResultRow)
    )


@pytest.mark.slow  # ~5–7 s CPU for 300 examples
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(file=event_files)
def test_import_is_all_or_nothing(
    session: Session, folder: Path, file: tuple[str, str | bytes]
) -> None:
    suffix, content = file
    path = folder / f"event{suffix}"
    data = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    before = counts(session)
    slug = f"f{next(_slugs)}"
    try:
        exchange.import_event(session, slug=slug, path=path, actor="fuzz")
    except AgonError as exc:
        message = str(exc)
        assert message and "\n" not in message, message
        assert counts(session) == before
        event("refused")
    else:
        event("imported")
        after = counts(session)
        assert after[0] == before[0] + 1 and after[1] == before[1] + 1
        exported = exchange.export_event(session, tournament=slug)
        assert exported["name"] and len(exported["players"]) == after[2] - before[2]
