"""Fuzzing ``agon import`` into a database (issue 10): every generated event file is either
imported whole or refused with one InvalidInput/Conflict — and a refused import leaves the
database exactly as it was (no journal entry, no tournament, no player). The same for the journal
document of ``agon export --journal`` (issue 26): imported whole, to the exported state, or
refused in one line with nothing left behind."""

from __future__ import annotations

import itertools
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from agon.errors import AgonError
from agon.services import exchange, journal
from agon.store.models import JournalEntry, PlayerRow, ResultRow, TournamentRow
from tests.fuzz.strategies import (
    PLAYERS,
    _paths,
    _replace,
    event_files,
    hostile_scalar,
    to_json,
)
from tests.fuzzing import examples

#: 300 cases in make test; AGON_FUZZ_DEPTH times as many in a deeper run (tests/fuzzing.py)
EXAMPLES = examples(300)
_slugs = itertools.count(1)


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


#: The rows counted before and after each case: journal entries, tournaments, players, results.
_COUNTS = select(
    *(
        select(func.count()).select_from(model).scalar_subquery()
        for model in (JournalEntry, TournamentRow, PlayerRow, ResultRow)
    )
)


def counts(session: Session) -> tuple[int, ...]:
    """The four tables' row counts, read in one statement (four, one per table, cost about 1 s
    of CPU per run of this file: two counts per case, 450 cases)."""
    session.expire_all()
    row = session.execute(_COUNTS).one()
    return tuple(int(n) for n in row)


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


# --- the journal document (agon export --journal; issue 26) --------------------------------------


@pytest.fixture(scope="module")
def journal_document(folder: Path) -> dict[str, Any]:
    """A small event's journal document: round 1 open, a result entered and corrected, a clock, a
    dispute and an undo."""
    from agon.services import floor, moving, players, results, rounds, tournaments
    from agon.services.schemas import PlayerCreate, ResultIn, TournamentCreate
    from agon.store.db import Settings, make_engine, make_session_factory
    from tests.store_testing import shared_factory

    factory = shared_factory("sqlite")
    assert factory is not None
    (folder / "base").mkdir()
    engine = make_engine(Settings(factory.new_url(folder / "base")))
    try:
        with make_session_factory(engine)() as s:
            tournaments.create_tournament(
                s,
                data=TournamentCreate(slug="base", name="Base", ruleset="bonn-2018", min_players=3),
                actor="d",
            )
            names = ["Anna", "Ben", "Cleo", "Dario", "Emil"]
            players.import_players(
                s, tournament="base", actor="d", players=[PlayerCreate(n) for n in names]
            )
            players.check_in_players(s, tournament="base", players=names, actor="d")
            rnd = rounds.start_round(s, tournament="base", actor="d")
            floor.start_clock(s, tournament="base", round_number=1, minutes=40, actor="d")
            seats = rnd.tables[0].seats
            sheet = [ResultIn(player=n, vp=40 + i, coins=i) for i, n in enumerate(seats)]
            first = results.enter_result(
                s, tournament="base", round_number=1, table=1, results=sheet, actor="d"
            )
            again = results.enter_result(
                s,
                tournament="base",
                round_number=1,
                table=1,
                results=sheet[::-1],
                actor="d",
                expected_version=first.version,
            )
            floor.dispute(
                s,
                tournament="base",
                round_number=1,
                table=1,
                version=again.version,
                player=seats[0],
                reason="coins",
                actor=seats[0],
            )
            journal.undo(s, tournament="base", actor="d")
            return moving.export_journal(s, tournament="base")
    finally:
        engine.dispose()


@st.composite
def journal_files(draw: st.DrawFn, base: dict[str, Any]) -> bytes:
    """The base journal document, mutated: a field replaced by a hostile value, an entry dropped,
    doubled or moved, the text cut short, or junk."""
    kind = draw(st.integers(0, 5))
    doc: Any = json.loads(json.dumps(base))
    if kind == 0:
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(_paths(doc)))
            doc = _replace(doc, path, draw(hostile_scalar | st.sampled_from(PLAYERS)))
    elif kind == 1:
        items = doc["journal"]
        i = draw(st.integers(0, len(items) - 1))
        j = draw(st.integers(0, len(items) - 1))
        how = draw(st.sampled_from(["drop", "double", "move"]))
        if how == "drop":
            del items[i]
        elif how == "double":
            items.insert(j, items[i])
        else:
            items.insert(j, items.pop(i))
    elif kind == 2:
        text = to_json(doc)
        return text[: draw(st.integers(0, len(text) - 1))].encode("utf-8", "surrogatepass")
    elif kind == 3:
        return draw(st.binary(max_size=300))
    elif kind == 4:
        doc = draw(
            st.sampled_from(
                [
                    {**doc, "version": 1},  # a version-1 document has no chain fields
                    {**doc, "version": 3},
                    {**doc, "format": "agon-journal"},
                ]
            )
        )
    return to_json(doc).encode("utf-8", "surrogatepass")


@pytest.mark.slow  # ~13 s for 150 examples
@settings(
    max_examples=examples(150),
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(data=st.data())
def test_journal_import_is_all_or_nothing(
    session: Session, folder: Path, journal_document: dict[str, Any], data: st.DataObject
) -> None:
    from agon.services import moving

    content = data.draw(journal_files(journal_document), label="file")
    path = folder / "journal.json"
    path.write_bytes(content)
    before = counts(session)
    slug = f"j{next(_slugs)}"
    try:
        done = moving.import_journal(session, path=path, slug=slug)
    except AgonError as exc:
        message = str(exc)
        assert message and "\n" not in message, message
        assert counts(session) == before
        event("refused")
    else:
        event("imported")
        assert done["slug"] == slug and counts(session)[1] == before[1] + 1
        assert journal.verify(session, tournament=slug)
        session.rollback()
        assert (
            moving.digest_of(moving.portable_snapshot(session, tournament=slug))
            == journal_document["projection_digest"]
        )


# --- the database backup (agon db backup / restore; issue 26) ------------------------------------


@pytest.fixture(scope="module")
def backup_file(folder: Path, journal_document: dict[str, Any]) -> bytes:
    """A good SQLite backup (of the journal document's database, imported into a new one)."""
    from agon.services import moving
    from agon.store.backup import backup
    from agon.store.db import Settings, make_engine, make_session_factory
    from tests.store_testing import shared_factory

    factory = shared_factory("sqlite")
    assert factory is not None
    (folder / "for-backup").mkdir()
    url = factory.new_url(folder / "for-backup")
    (folder / "base.json").write_text(json.dumps(journal_document), encoding="utf-8")
    engine = make_engine(Settings(url))
    try:
        with make_session_factory(engine)() as s:
            moving.import_journal(s, path=folder / "base.json")
    finally:
        engine.dispose()
    backup(url, folder / "good.backup")
    return (folder / "good.backup").read_bytes()


@st.composite
def damaged_backups(draw: st.DrawFn, good: bytes) -> bytes:
    """A good backup cut short, with bytes overwritten, or with junk before or after it."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return good[: draw(st.integers(0, len(good) - 1))]
    if kind == 1:
        data = bytearray(good)
        for _ in range(draw(st.integers(1, 8))):
            at = draw(st.integers(0, len(data) - 1))
            data[at] = draw(st.integers(0, 255))
        return bytes(data)
    junk = draw(st.binary(min_size=1, max_size=64))
    return junk + good if kind == 2 else good + junk


@pytest.mark.slow  # ~3 s for 100 examples
@settings(
    max_examples=examples(100),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_restore_of_a_damaged_backup_is_refused_or_whole(
    folder: Path, backup_file: bytes, data: st.DataObject
) -> None:
    from agon.store.backup import restore
    from tests.store_testing import shared_factory

    content = data.draw(damaged_backups(backup_file), label="file")
    path = folder / "damaged.backup"
    path.write_bytes(content)
    factory = shared_factory("sqlite")
    assert factory is not None
    target = folder / f"restore-{next(_slugs)}"
    target.mkdir()
    url = factory.new_url(target)
    database = Path(url.removeprefix("sqlite:///"))
    before = database.read_bytes()
    try:
        restore(url, path, force=True)
    except AgonError as exc:
        message = str(exc)
        assert message and "\n" not in message, message
        assert database.read_bytes() == before  # refused: the database is as it was
        event("refused")
    else:
        event("restored")


def test_restore_of_a_backup_with_a_schema_name_not_utf8_is_refused_in_one_line(
    folder: Path, backup_file: bytes
) -> None:
    """The fuzzer above found it (a byte of the schema's names overwritten with 0x80): SQLite
    hands such a text back as it is and Python's UTF-8 decoding raised out of the check."""
    from agon.store.backup import restore
    from tests.store_testing import shared_factory

    entry = b"indexix_web_disputes_tournament"  # sqlite_master's type and name of one index
    start = backup_file.index(entry)
    factory = shared_factory("sqlite")
    assert factory is not None
    messages = []
    for at in range(start, start + len(entry)):
        damaged = bytearray(backup_file)
        damaged[at] = 0x80
        path = folder / "not-utf8.backup"
        path.write_bytes(bytes(damaged))
        target = folder / f"restore-{next(_slugs)}"
        target.mkdir()
        url = factory.new_url(target)
        database = Path(url.removeprefix("sqlite:///"))
        before = database.read_bytes()
        with pytest.raises(AgonError) as refused:
            restore(url, path, force=True)
        assert str(refused.value) and "\n" not in str(refused.value)
        assert database.read_bytes() == before
        messages.append(str(refused.value))
    assert any(m.endswith("a damaged backup (a text that is not UTF-8)") for m in messages)
