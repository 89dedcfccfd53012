"""Fuzz tests: the database fixture (SQLite; the same services run on PostgreSQL in
tests/services) and the shared CLI contract check."""

from tests.db_fixtures import db_url_fixture, session

db_url = db_url_fixture("sqlite")

__all__ = ["db_url", "session"]
