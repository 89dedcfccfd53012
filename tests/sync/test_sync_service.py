"""The hosted side of ``agon sync`` (issue 29): a laptop's journal received batch by batch, resumed,
idempotent, refusing divergence and edits; the synced copy is read-only and counts like any event."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from agon.errors import Conflict, IllegalAction, InvalidInput
from agon.services import exchange, journal, people, players, results, sync
from agon.services.schemas import PlayerCreate
from agon.services.series import series_standings
from agon.services.sync_client import wire_entries
from agon.store.models import JournalEntry
from tests.services.svc_helpers import new_tournament, random_results
from tests.sync.helpers import (
    SLUG,
    chain_of,
    chain_problems,
    digest,
    laptop_session,
    organisation_token,
    push_all,
    run_event,
)


def _count(session: Session, slug: str = SLUG) -> int:
    n = int(session.scalar(select(func.count()).where(JournalEntry.tournament == slug)) or 0)
    session.rollback()
    return n


def test_a_pushed_event_is_the_laptops_event(session: Session, tmp_path: Path) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=2)
        answers = push_all(laptop, session, token, batch=7)
        assert len(answers) > 1 and sum(a["applied"] for a in answers) == _count(laptop)
        assert chain_of(session) == chain_of(laptop)
        assert digest(session) == digest(laptop)
        assert exchange.standings(session, tournament=SLUG) == exchange.standings(
            laptop, tournament=SLUG
        )
    assert chain_problems(session) == []
    assert sync.is_synced(session, SLUG)
    assert people.organisation_of(session, SLUG) == "fed"


def test_a_batch_sent_twice_changes_nothing_and_a_push_resumes(
    session: Session, tmp_path: Path
) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=2)
        first = wire_entries(laptop, SLUG, after=0, limit=10)
        done = sync.receive(session, token=token, tournament=SLUG, items=first)
        assert (done["seq"], done["applied"], done["skipped"]) == (10, 10, 0)
        again = sync.receive(session, token=token, tournament=SLUG, items=first)
        assert (again["seq"], again["applied"], again["skipped"]) == (10, 0, 10)
        assert _count(session) == 10
        # a batch overlapping what is there: the known part skipped, the rest applied
        overlap = wire_entries(laptop, SLUG, after=5, limit=10)
        done = sync.receive(session, token=token, tournament=SLUG, items=overlap)
        assert (done["seq"], done["applied"], done["skipped"]) == (15, 5, 5)
        # a batch that starts past the copy's end: where does it stand? (ask again)
        with pytest.raises(Conflict, match="stands at entry 15"):
            sync.receive(
                session, token=token, tournament=SLUG, items=wire_entries(laptop, SLUG, after=16)
            )
        push_all(laptop, session, token)
        assert chain_of(session) == chain_of(laptop)
        assert digest(session) == digest(laptop)


def test_diverged_copies_are_refused_and_nothing_is_overwritten(
    session: Session, tmp_path: Path
) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1, seed=1)
        push_all(laptop, session, token)
    before = chain_of(session)
    with laptop_session(tmp_path) as other:  # the same event, other results
        run_event(other, rounds=1, seed=2)
        items = wire_entries(other, SLUG, after=0)
        assert items[0]["hash"] == before[0][2]  # the same start...
        with pytest.raises(sync.Diverged, match="diverged at entry"):
            sync.receive(session, token=token, tournament=SLUG, items=items)
        # ...and one entry more on the other laptop, on top of a different past
        run = wire_entries(other, SLUG, after=len(before) - 1, limit=1)
        players.register_player(
            other, tournament=SLUG, data=PlayerCreate(name="Late Comer"), actor="desk"
        )
        tail = wire_entries(other, SLUG, after=len(before), limit=1)
        assert run and tail
        with pytest.raises(sync.Diverged, match="does not continue"):
            sync.receive(session, token=token, tournament=SLUG, items=tail)
    assert chain_of(session) == before


def test_an_edited_entry_or_a_bad_batch_is_refused(session: Session, tmp_path: Path) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        items = wire_entries(laptop, SLUG, after=0)
    edited = [dict(i) for i in items]
    edited[-3] = {**edited[-3], "actor": "someone else"}
    with pytest.raises(InvalidInput, match="its hash does not match its content"):
        sync.receive(session, token=token, tournament=SLUG, items=edited)
    assert _count(session) == 0  # all or nothing
    with pytest.raises(InvalidInput, match="unknown field"):
        sync.receive(session, token=token, tournament=SLUG, items=[{**items[0], "x": 1}])
    with pytest.raises(InvalidInput, match="does not follow"):
        sync.receive(session, token=token, tournament=SLUG, items=[items[0], items[2]])
    with pytest.raises(InvalidInput, match="non-empty list"):
        sync.receive(session, token=token, tournament=SLUG, items=[])
    assert not sync.is_synced(session, SLUG)


def test_tokens_organisations_and_the_hosts_own_events(session: Session, tmp_path: Path) -> None:
    token = organisation_token(session, "fed")
    other = organisation_token(session, "club")
    with pytest.raises(sync.SyncDenied, match="unknown") as denied:
        sync.status(session, token="agon-sync-nonsense", tournament=SLUG)
    assert denied.value.status == 401
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        push_all(laptop, session, token)
        with pytest.raises(sync.SyncDenied, match="another organisation") as denied:
            push_all(laptop, session, other)
        assert denied.value.status == 403
    # the host's own tournament of that slug is not a synced copy: never overwritten
    new_tournament(session, "home-event", "bonn-2018", 4)
    with pytest.raises(sync.SyncDenied, match="not a synced copy"):
        sync.status(session, token=token, tournament="home-event")
    # revoked: refused from now on
    listed = sync.list_tokens(session)
    assert [t.organisation for t in listed] == ["fed", "club"] and listed[0].used_at
    sync.revoke_token(session, token_id=listed[0].id)
    with pytest.raises(sync.SyncDenied, match="revoked") as denied:
        sync.status(session, token=token, tournament=SLUG)
    assert denied.value.status == 403
    assert sync.list_tokens(session)[0].revoked_at is not None


def test_a_synced_copy_is_read_only_but_the_hosts_own_events_are_not(
    session: Session, tmp_path: Path
) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        names = run_event(laptop, rounds=1)
        push_all(laptop, session, token)
    length = _count(session)
    with pytest.raises(IllegalAction, match="synced copy") as refused:
        players.register_player(
            session, tournament=SLUG, data=PlayerCreate(name="Intruder"), actor="admin"
        )
    assert refused.value.msgid is not None and "synced copy" in refused.value.msgid
    with pytest.raises(IllegalAction, match="synced copy"):
        results.enter_result(
            session,
            tournament=SLUG,
            round_number=1,
            table=1,
            results=random_results(names[:5], random.Random(1)),
            actor="admin",
        )
    with pytest.raises(IllegalAction, match="synced copy"):
        journal.undo(session, tournament=SLUG, actor="admin")
    assert _count(session) == length
    journal.rebuild(session, tournament=SLUG)  # a rebuild changes nothing: it stays a copy
    assert sync.is_synced(session, SLUG)
    new_tournament(session, "home-event", "bonn-2018", 4)  # the host's own: writable
    assert _count(session, "home-event") == 3


def test_an_undo_on_the_laptop_reaches_the_copy(session: Session, tmp_path: Path) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        push_all(laptop, session, token)
        journal.undo(laptop, tournament=SLUG, actor="desk")  # reopens round 1
        journal.undo(laptop, tournament=SLUG, actor="desk")  # and unconfirms its last table
        push_all(laptop, session, token)
        assert chain_of(session) == chain_of(laptop)
        assert digest(session) == digest(laptop)
    assert chain_problems(session) == []


def test_a_synced_event_counts_in_a_series(session: Session, tmp_path: Path) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=2)
        push_all(laptop, session, token)
        laptop_rows = exchange.standings(laptop, tournament=SLUG).rows
    series = tmp_path / "series.toml"
    series.write_text(
        f'name = "Fed cup"\nseed = "s"\npoints = [10, 6, 3]\n[[events]]\ntournament = "{SLUG}"\n',
        encoding="utf-8",
    )
    shown = series_standings(session, path=series)
    assert len(shown.rows) == 13
    assert [r.player.name for r in shown.rows][:3] == [r.player for r in laptop_rows][:3]


def test_an_edit_in_the_hosted_database_breaks_the_chain(session: Session, tmp_path: Path) -> None:
    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=1)
        push_all(laptop, session, token)
    assert chain_problems(session) == []
    session.execute(
        update(JournalEntry)
        .where(JournalEntry.tournament == SLUG, JournalEntry.seq == 5)
        .values(actor="forger")
    )
    session.commit()
    problems = chain_problems(session)
    assert problems and "entry 5" in problems[0]


def test_two_pushes_racing_never_double_an_entry(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    """Two watch processes push the same batches at the same moment: each entry is stored once
    (the tournament's lock, and the unique position); the slower push is told to look again."""
    import threading

    from agon.store.db import Settings, make_engine, make_session_factory

    token = organisation_token(session)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=2)
        batches = [wire_entries(laptop, SLUG, after=k, limit=3) for k in range(0, 19, 3)]
        expected = chain_of(laptop)
        laptop_digest = digest(laptop)
    engines = [make_engine(Settings(db_url)) for _ in range(2)]
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def pusher(engine: object) -> None:
        with make_session_factory(engine)() as s:  # type: ignore[arg-type]
            for batch in batches:
                barrier.wait(30)
                try:
                    done = sync.receive(s, token=token, tournament=SLUG, items=batch)
                    outcomes.append(f"applied {done['applied']}, skipped {done['skipped']}")
                except Conflict as exc:
                    outcomes.append(f"conflict: {exc}")

    threads = [threading.Thread(target=pusher, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for e in engines:
        e.dispose()
    assert len(outcomes) == 2 * len(batches)
    assert chain_of(session) == expected, outcomes  # every entry once, in order
    assert digest(session) == laptop_digest
    applied = sum(int(o.split()[1].rstrip(",")) for o in outcomes if o.startswith("applied"))
    assert applied == len(expected), outcomes


def test_a_push_cuts_a_large_batch_into_smaller_requests(
    session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch is at most BATCH_BYTES of JSON: a hosted agon refuses larger request bodies."""
    import json

    from sqlalchemy.orm import sessionmaker

    from agon.services import sync_client

    token = organisation_token(session)
    sizes: list[tuple[int, int]] = []

    def request(url: str, token: str, body: object = None, **_: object) -> dict[str, object]:
        if body is None:
            return sync.status(session, token=token, tournament=SLUG)
        assert isinstance(body, dict)
        sizes.append((len(body["entries"]), len(json.dumps(body["entries"]).encode())))
        return sync.receive(session, token=token, tournament=SLUG, items=body["entries"])

    monkeypatch.setattr(sync_client, "request", request)
    monkeypatch.setattr(sync_client, "BATCH_BYTES", 4000)
    with laptop_session(tmp_path) as laptop:
        run_event(laptop, rounds=2)
        engine = laptop.get_bind()
        result = sync_client.push(
            sessionmaker(engine), to="http://hosted.test", tournament=SLUG, token=token
        )
        assert result.seq == _count(laptop) == result.sent
        assert chain_of(session) == chain_of(laptop)
    assert len(sizes) > 3, sizes  # 19 entries, at most 100 a batch: cut by their size
    assert all(size <= 4000 for count, size in sizes if count > 1), sizes
