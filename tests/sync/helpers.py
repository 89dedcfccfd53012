"""A laptop's Bonn event and a push into a hosted database, without HTTP between them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.services import chain, people, sync
from agon.services.moving import digest_of, portable_snapshot
from agon.services.sync_client import wire_entries
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.models import JournalEntry
from tests.db_fixtures import backend_factory
from tests.services.svc_helpers import new_tournament, play_round, split

SLUG = "bonn-sync"
#: 13 players at Bonn: tables of 5, 4 and 4.
SIZES = (5, 4, 4)


@contextmanager
def laptop_session(tmp_path: Path) -> Iterator[Session]:
    """A session on a new SQLite database of its own (the laptop's)."""
    url = backend_factory("sqlite").new_url(tmp_path)
    engine = make_engine(Settings(url))
    with make_session_factory(engine)() as s:
        yield s
    engine.dispose()


def run_event(session: Session, *, rounds: int, slug: str = SLUG, seed: int = 29) -> list[str]:
    """A 13-player Bonn event with ``rounds`` rounds played and closed."""
    names = new_tournament(session, slug, "bonn-2018", 13)
    rng = random.Random(seed)
    for _ in range(rounds):
        order = names[:]
        rng.shuffle(order)
        play_round(session, slug, split(order, SIZES), rng)
    return names


def organisation_token(session: Session, org: str = "fed") -> str:
    """A sync token of a new organisation ``org``."""
    people.create_organisation(session, slug=org, name=f"Federation {org}")
    _info, token = sync.create_token(session, organisation=org, label="laptop")
    return token


def push_all(
    laptop: Session, hosted: Session, token: str, *, slug: str = SLUG, batch: int = 40
) -> list[dict[str, Any]]:
    """Push everything the hosted copy misses, batch by batch; the answers."""
    answers = []
    seq = sync.status(hosted, token=token, tournament=slug)["seq"]
    while True:
        items = wire_entries(laptop, slug, after=seq, limit=batch)
        laptop.rollback()
        if not items:
            return answers
        answer = sync.receive(hosted, token=token, tournament=slug, items=items)
        answers.append(answer)
        seq = answer["seq"]


def digest(session: Session, slug: str = SLUG) -> str:
    session.expire_all()
    found = digest_of(portable_snapshot(session, tournament=slug))
    session.rollback()
    return found


def chain_of(session: Session, slug: str = SLUG) -> list[tuple[int, str, str]]:
    """The journal's (seq, prev_hash, hash), in order."""
    rows = session.execute(
        select(JournalEntry.seq, JournalEntry.prev_hash, JournalEntry.hash)
        .where(JournalEntry.tournament == slug)
        .order_by(JournalEntry.seq)
    )
    out = [(int(s), str(p), str(h)) for s, p, h in rows]
    session.rollback()
    return out


def chain_problems(session: Session, slug: str = SLUG) -> list[str]:
    _n, _last, problems = chain.verify_stored(session, slug)
    session.rollback()
    return problems
