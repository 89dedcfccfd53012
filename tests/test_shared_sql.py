"""tests/shared_sql.py: the suite's engines share their compiled statements (each new engine
compiled every statement again: about a tenth of a database test's CPU), and each engine still
runs them on its own database; a dialect configured otherwise compiles its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.sql import elements

from agon.store.db import Settings, make_engine
from tests.db_fixtures import backend_factory
from tests.shared_sql import share_compiled_statements, signature

METADATA = MetaData()
PEOPLE = Table("people", METADATA, Column("id", Integer, primary_key=True), Column("name", String))
#: the same statement object for every engine, as a module's query is
BY_NAME = select(PEOPLE.c.id).where(PEOPLE.c.name == "b").order_by(PEOPLE.c.id)


def _fill(engine: Engine, names: list[str]) -> None:
    METADATA.create_all(engine)
    with engine.begin() as conn:
        conn.execute(insert(PEOPLE), [{"name": n} for n in names])


def _hit(engine: Engine) -> tuple[bool, list[int]]:
    """Whether the statement came from the compiled cache, and what it found."""
    with engine.connect() as conn:
        result = conn.execute(BY_NAME)
        return result.context.cache_hit == engine.dialect.CACHE_HIT, list(result.scalars())


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_new_engine_finds_the_statement_another_engine_compiled(
    backend: str, tmp_path: Path
) -> None:
    urls = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        urls.append(backend_factory(backend).new_url(tmp_path / name))
    first, second = (make_engine(Settings(database_url=url)) for url in urls)
    _fill(first, ["a", "b", "b"])
    _fill(second, ["b", "c", "d", "b", "b"])
    assert first.dialect is not second.dialect
    assert signature(first.dialect) == signature(second.dialect)
    _, found_first = _hit(first)
    hit_second, found_second = _hit(second)  # compiled by the first engine, run on its own file
    assert found_first == [2, 3] and found_second == [1, 4, 5]
    assert hit_second, "the second engine compiled the statement again"
    assert _hit(first) == (True, [2, 3])
    first.dispose()
    second.dispose()


def test_a_dialect_configured_otherwise_compiles_its_own(tmp_path: Path) -> None:
    plain = create_engine(f"sqlite:///{tmp_path / 'a.db'}")
    named = create_engine(f"sqlite:///{tmp_path / 'b.db'}", paramstyle="named")
    _fill(plain, ["b"])
    _fill(named, ["a", "b"])
    assert signature(plain.dialect) != signature(named.dialect)
    _hit(plain)
    hit, found = _hit(named)
    assert (hit, found) == (False, [2])
    with named.connect() as conn:  # its own paramstyle, not the other dialect's "?"
        assert ":name_1" in str(conn.execute(BY_NAME).context.compiled)
    plain.dispose()
    named.dispose()


def test_the_suite_installs_it_once() -> None:
    """tests/conftest.py wraps SQLAlchemy's method once; agon's own code is unchanged (the
    sharing lives in the suite, as tests/shared_routes.py does)."""
    method = elements.ClauseElement._compile_w_cache
    assert getattr(method, "shared", False)
    share_compiled_statements()
    assert elements.ClauseElement._compile_w_cache is method
    assert method.unshared.__module__ == "sqlalchemy.sql.elements"  # type: ignore[attr-defined]
