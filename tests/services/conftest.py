"""Database fixtures: each test runs on SQLite and on PostgreSQL, in a database of its own."""

from tests.db_fixtures import db_url_fixture, session

db_url = db_url_fixture("sqlite", "postgresql")

__all__ = ["db_url", "session"]
