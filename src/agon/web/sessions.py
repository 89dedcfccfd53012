"""Director sessions that can be revoked (issue 10, defect 9).

The session cookie is signed, not stored: on its own, a copy of it would stay valid until it
expires, logout or not. So a director login opens a session with a random id, kept in the signed
cookie; the database keeps only a hash of the id and its expiry (table ``settings``, key
``web-session:<hash>``). Every director request checks the id is still open; logout closes it,
and ``agon secret rotate`` closes them all. A copied cookie stops working the moment its
session is closed, in every process that serves the same database.
"""

from __future__ import annotations

import time

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from agon.store.db import begin_write
from agon.store.models import Setting
from agon.web.security import SESSION_PREFIX, new_token, session_key


class DirectorSessions:
    """Open, check and close director sessions (ids in cookies, hashes in the database)."""

    def __init__(
        self, *, writer: sessionmaker[Session], reader: sessionmaker[Session], max_age: int
    ) -> None:
        self.writer = writer
        self.reader = reader
        self.max_age = max_age

    def open(self) -> str:
        """A new session id, valid for ``max_age`` seconds (expired ones are swept here)."""
        session_id = new_token()
        now = int(time.time())
        with self.writer() as session:
            begin_write(session)
            expired = [
                row.key
                for row in session.scalars(
                    select(Setting).where(Setting.key.startswith(SESSION_PREFIX))
                )
                if not row.value.isdigit() or int(row.value) < now
            ]
            if expired:
                session.execute(delete(Setting).where(Setting.key.in_(expired)))
            session.add(Setting(key=session_key(session_id), value=str(now + self.max_age)))
            session.commit()
        return session_id

    def valid(self, session_id: object) -> bool:
        """Is ``session_id`` an open, unexpired session?"""
        if not isinstance(session_id, str) or not session_id:
            return False
        with self.reader() as session:
            expiry = session.scalar(
                select(Setting.value).where(Setting.key == session_key(session_id))
            )
        return expiry is not None and expiry.isdigit() and int(expiry) >= time.time()

    def close(self, session_id: object) -> None:
        """Revoke one session (logout); unknown ids are ignored."""
        if not isinstance(session_id, str) or not session_id:
            return
        with self.writer() as session:
            begin_write(session)
            session.execute(delete(Setting).where(Setting.key == session_key(session_id)))
            session.commit()


def close_all(session: Session) -> int:
    """Revoke every director session (after the secret key changed); how many were open."""
    begin_write(session)
    result = session.execute(delete(Setting).where(Setting.key.startswith(SESSION_PREFIX)))
    session.commit()
    from agon.services.people import close_all_sessions  # the people's logins too (issue 27)

    return int(getattr(result, "rowcount", 0) or 0) + close_all_sessions(session)
