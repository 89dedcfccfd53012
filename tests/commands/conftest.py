"""Database fixture for the command line: the embedded SQLite default, a database per test (the
services under it are tested on SQLite and PostgreSQL in tests/services)."""

from tests.db_fixtures import db_url_fixture, session

db_url = db_url_fixture("sqlite")

__all__ = ["db_url", "session"]
