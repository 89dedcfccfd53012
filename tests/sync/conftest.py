"""Database fixtures: the hosted side runs on SQLite and on PostgreSQL, the laptop on SQLite."""

from tests.db_fixtures import db_url_fixture, session

db_url = db_url_fixture("sqlite", "postgresql")

__all__ = ["db_url", "session"]
