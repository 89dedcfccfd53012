"""The venue's Wi-Fi network of a tournament (:mod:`agon.tournament.wifi`): set, show, clear.

The network is kept in the database's local settings, NOT in the tournament's journal: a Wi-Fi
password belongs to the venue, not to the event's record, so it never leaves this database — not
in ``agon export``, not in a journal document, not in ``agon sync`` to a federation's server, and
not on a public page. It is shown to the people at the venue only: on the printed table cards and
on the desk's seat-link cards (as a QR code and in words), to the tournament's director.

The setting is keyed by the tournament's row id and remembers the slug, so a tournament deleted
and another created under the same id never inherits it.
"""

from __future__ import annotations

import json

from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.services.core import get_tournament_row
from agon.store.db import begin_write
from agon.store.models import Setting
from agon.tournament.wifi import WifiNetwork, network_from_json


def _key(tournament_id: int) -> str:
    return f"venue.wifi.{tournament_id}"


def set_wifi(session: Session, *, tournament: str, network: WifiNetwork) -> None:
    """Remember ``network`` as the venue network of ``tournament``. Raises: NotFound."""
    begin_write(session)
    try:
        row = get_tournament_row(session, tournament)
        value = json.dumps({"tournament": row.slug, **network.to_json()}, ensure_ascii=False)
        setting = session.get(Setting, _key(row.id))
        if setting is None:
            session.add(Setting(key=_key(row.id), value=value))
        else:
            setting.value = value
        session.commit()
    except BaseException:
        session.rollback()
        raise


def get_wifi(session: Session, *, tournament: str) -> WifiNetwork | None:
    """The venue network of ``tournament``, or ``None``. Raises: NotFound (no such tournament)."""
    row = get_tournament_row(session, tournament)
    setting = session.get(Setting, _key(row.id))
    if setting is None:
        return None
    try:
        data = json.loads(setting.value)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("tournament") != row.slug:
        return None  # left behind by a deleted tournament with the same row id
    try:
        return network_from_json(data)
    except InvalidInput:
        return None


def clear_wifi(session: Session, *, tournament: str) -> bool:
    """Forget the venue network of ``tournament``; ``False`` if none was set. Raises: NotFound."""
    begin_write(session)
    try:
        row = get_tournament_row(session, tournament)
        setting = session.get(Setting, _key(row.id))
        if setting is not None:
            session.delete(setting)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return setting is not None
