"""The journal is a hash chain (issue 29): every entry carries its position and the hash of the one
before; an undo appends; a move to another database keeps every hash; an edit is found."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

from sqlalchemy.orm import Session
from svc_helpers import T0, new_tournament, random_results
from test_move import bonn_with_round_1_open, other_url

from agon.services import chain, journal, moving, results, rounds
from agon.store.db import Settings, make_engine, make_session_factory


def test_every_change_is_chained_in_order_and_an_undo_appends(session: Session) -> None:
    new_tournament(session, "a", "bonn-2018", 12)
    new_tournament(session, "b", "bonn-2018", 8)  # another journal: its own positions
    rnd = rounds.start_round(session, tournament="a", actor="d", now=T0)
    entered = results.enter_result(
        session,
        tournament="a",
        round_number=1,
        table=1,
        results=random_results(rnd.tables[0].seats, random.Random(3)),
        actor="d",
        now=T0,
    )
    results.enter_result(
        session,
        tournament="a",
        round_number=1,
        table=1,
        results=random_results(rnd.tables[0].seats, random.Random(4)),
        actor="d",
        expected_version=entered.version,
        now=T0,
    )
    journal.undo(session, tournament="a", actor="d")
    for slug in ("a", "b"):
        items = chain.stored_items(session, slug)
        assert [i["seq"] for i in items] == list(range(1, len(items) + 1))
        assert items[0]["prev_hash"] == chain.GENESIS
        assert all(i["prev_hash"] == p["hash"] for p, i in itertools.pairwise(items))
        assert chain.verify_chain(items) == []
    a = chain.stored_items(session, "a")
    assert a[-1]["action"] == "undo" and len(a) == 7
    # the hashed content names entries by position, not by database id
    correction = chain.portable_entry(a[-2], {i["id"]: i["seq"] for i in a})
    assert correction["payload"]["expected_version"] == 5
    assert chain.portable_entry(a[-1], {i["id"]: i["seq"] for i in a})["undoes"] == 6


def test_the_hash_is_sha256_of_the_previous_hash_and_the_canonical_entry() -> None:
    portable = {
        "seq": 1,
        "at": "2026-03-18T09:00:00.000000+00:00",
        "actor": "Zoë",
        "action": "tournament.create",
        "payload": {"name": "Bonn", "b": [1, 2]},
        "undoes": None,
    }
    import hashlib

    text = (
        chain.GENESIS
        + "\n"
        + '{"action":"tournament.create","actor":"Zoë","at":"2026-03-18T09:00:00.000000+00:00",'
        '"payload":{"b":[1,2],"name":"Bonn"},"seq":1,"undoes":null}'
    )
    assert chain.entry_hash(chain.GENESIS, portable) == hashlib.sha256(text.encode()).hexdigest()


def test_an_edited_entry_is_named(session: Session) -> None:
    bonn_with_round_1_open(session)
    items = chain.stored_items(session, "bonn")
    assert chain.verify_chain(items) == []
    n = len(items) - 2
    edited = [dict(i) for i in items]
    edited[n - 1] = {**edited[n - 1], "actor": "someone else"}
    assert chain.verify_chain(edited) == [
        f"entry {n} ({items[n - 1]['action']}): its hash does not match its content"
    ]
    # re-hashed to hide the edit: the next entry's link breaks
    edited[n - 1]["hash"] = chain.entry_hash(
        edited[n - 1]["prev_hash"],
        chain.portable_entry(edited[n - 1], {i["id"]: i["seq"] for i in items}),
    )
    assert chain.verify_chain(edited) == [
        f"entry {n + 1} ({items[n]['action']}): the chain is broken: its prev_hash is not the "
        f"hash of entry {n}"
    ]
    # a dropped entry: a gap
    dropped = [i for k, i in enumerate(items) if k != 3]
    problems = chain.verify_chain(dropped)
    assert problems and "expected 4" in problems[0]


def test_a_move_with_new_ids_and_slug_keeps_every_hash(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    bonn_with_round_1_open(session)
    doc = moving.export_journal(session, tournament="bonn")
    assert doc["version"] == 2
    assert [e["hash"] for e in doc["journal"]] == [
        i["hash"] for i in chain.stored_items(session, "bonn")
    ]
    assert chain.verify_chain(doc["journal"]) == []
    moved = tmp_path / "bonn.json"
    moved.write_text(json.dumps(doc), "utf-8")
    # the same database: the ids are taken, so they are renumbered; and another slug
    done = moving.import_journal(session, path=moved, slug="bonn-copy")
    assert not done["ids_kept"]
    copy = chain.stored_items(session, "bonn-copy")
    assert [i["id"] for i in copy] != [e["id"] for e in doc["journal"]]
    assert [i["hash"] for i in copy] == [e["hash"] for e in doc["journal"]]
    assert chain.verify_chain(copy) == []
    # and the other back-end
    engine = make_engine(Settings(other_url(session, tmp_path)))
    try:
        with make_session_factory(engine)() as there:
            moving.import_journal(there, path=moved)
            assert [i["hash"] for i in chain.stored_items(there, "bonn")] == [
                e["hash"] for e in doc["journal"]
            ]
            journal.undo(there, tournament="bonn", actor="d")
            assert chain.verify_chain(chain.stored_items(there, "bonn")) == []
    finally:
        engine.dispose()


def test_a_version_1_document_gets_its_chain_on_import(session: Session, tmp_path: Path) -> None:
    bonn_with_round_1_open(session)
    doc = moving.export_journal(session, tournament="bonn")
    old = {
        **doc,
        "version": 1,
        "journal": [
            {k: v for k, v in e.items() if k not in ("seq", "prev_hash", "hash")}
            for e in doc["journal"]
        ],
    }
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), "utf-8")
    moving.import_journal(session, path=path, slug="from-v1")
    assert [i["hash"] for i in chain.stored_items(session, "from-v1")] == [
        e["hash"] for e in doc["journal"]
    ]


def test_an_edited_document_is_refused_on_import(session: Session, tmp_path: Path) -> None:
    import pytest

    from agon.errors import InvalidInput

    bonn_with_round_1_open(session)
    doc = moving.export_journal(session, tournament="bonn")
    doc["journal"][2]["actor"] = "forger"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc), "utf-8")
    with pytest.raises(InvalidInput, match=r"hash chain does not hold: entry 3 .*does not match"):
        moving.import_journal(session, path=path, slug="edited")


def test_writers_racing_on_one_tournament_keep_the_positions_gapless(
    session: Session, db_url: str
) -> None:
    """Two writers (threads with their own connections) sanctioning players of one tournament at
    once: every entry gets its own position, none is skipped, and the chain holds."""
    import threading

    from agon.services import players
    from agon.store.db import Settings, make_engine, make_session_factory

    names = new_tournament(session, "race", "bonn-2018", 12)
    session.rollback()
    go = threading.Barrier(2)
    errors: list[BaseException] = []

    def writer(who: str) -> None:
        engine = make_engine(Settings(db_url))
        try:
            with make_session_factory(engine)() as own:
                go.wait()
                for n in range(15):
                    players.add_sanction(
                        own,
                        tournament="race",
                        player=names[n % 12],
                        kind="warning",
                        reason=f"{who} {n}",
                        actor=who,
                    )
        except BaseException as exc:  # reported by the test thread
            errors.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=writer, args=(who,)) for who in ("left", "right")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    session.rollback()
    count, last, problems = chain.verify_stored(session, "race")
    assert problems == [] and count == 3 + 30
    assert last == chain.stored_items(session, "race")[-1]["hash"]


def test_a_wrong_genesis_and_malformed_links_are_named(session: Session) -> None:
    new_tournament(session, "g", "bonn-2018", 12)
    items = chain.stored_items(session, "g")
    # a chain that starts from elsewhere (a journal cut at its start, re-hashed from there on)
    tail = chain.chain_items(items[1:])
    start = {**tail[0], "prev_hash": "1" * 64}
    start["hash"] = chain.entry_hash(start["prev_hash"], chain.portable_entry(start, {}))
    assert chain.verify_chain([start]) == [
        f"entry 1 ({items[1]['action']}): the first entry's prev_hash is not the genesis "
        f"({chain.GENESIS})"
    ]
    assert chain.verify_chain([*items[:1], "junk", {**items[2], "hash": "xyz"}]) == [
        "entry 2: not an object",
        f"entry 3 ({items[2]['action']}): its prev_hash or hash is not a SHA-256 in hex",
    ]
    assert chain.verify_chain([{**items[0], "at": "yesterday"}]) == [
        f"entry 1 ({items[0]['action']}): its content cannot be hashed: not a date-time with its "
        "zone: 'yesterday'"
    ]
    # every problem is one line, whatever the document holds
    odd = [{**items[0], "action": "A\nB", "seq": "x\n" * 100}]
    problems = chain.verify_chain(odd)
    assert len(problems) == 2 and all("\n" not in p and len(p) < 200 for p in problems)
