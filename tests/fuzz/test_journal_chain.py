"""The journal's hash chain (issue 29), property-based: any edit to any hashed field of any entry
of an exported journal document is found by :func:`agon.services.chain.verify_chain` and by
``agon verify`` (which never accepts it); renumbering the entries' ids (and importing them into a
database where ids are taken) keeps every hash."""

from __future__ import annotations

import itertools
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from agon.services import chain, moving
from tests.cli_runner import run_agon
from tests.fuzz.strategies import PLAYERS, _paths, _replace, hostile_scalar, to_json
from tests.fuzz.test_import import folder, journal_document  # noqa: F401  (fixtures)
from tests.fuzzing import examples

#: The hashed fields of an entry besides its payload (``id``, ``before`` and ``after`` are not).
HASHED = ("seq", "at", "actor", "action", "undoes", "prev_hash", "hash")
_slugs = itertools.count(1)


def _same(a: Any, b: Any) -> bool:
    return bool(json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True))


@st.composite
def edits(draw: st.DrawFn, doc: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The document with one hashed field of one entry changed: its position (1, 2, …) too."""
    items = doc["journal"]
    i = draw(st.integers(0, len(items) - 1))
    item = json.loads(json.dumps(items[i]))
    field = draw(st.sampled_from(("payload", *HASHED)))
    if field == "payload":
        paths = [
            p
            for p in _paths(item["payload"])
            if p and not (item["action"] in chain.CREATING and p[0] == "slug")
        ]
        kind = draw(st.integers(0, 2)) if paths else 2
        if kind == 0:  # a value replaced
            path = draw(st.sampled_from(paths))
            value: Any = draw(hostile_scalar | st.sampled_from(PLAYERS))
            edited = {**item, "payload": _replace(item["payload"], path, value)}
        elif kind == 1:  # a key dropped
            key = draw(st.sampled_from(sorted(k for k in item["payload"] if k != "slug")))
            edited = {**item, "payload": {k: v for k, v in item["payload"].items() if k != key}}
        else:  # a key added
            key = draw(st.sampled_from(["extra", "vp", "note", "\u00e9"]))
            edited = {**item, "payload": {**item["payload"], key: draw(hostile_scalar)}}
    elif field == "at" and draw(st.booleans()):  # another instant, in any zone
        shift = draw(st.integers(1, 10**12).map(lambda n: n * draw(st.sampled_from([1, -1]))))
        zone = timezone(timedelta(minutes=draw(st.integers(-14 * 60, 14 * 60))))
        when = datetime.fromisoformat(item["at"]) + timedelta(microseconds=shift)
        edited = {**item, "at": when.astimezone(zone).isoformat()}
    else:
        edited = {**item, field: draw(hostile_scalar | st.sampled_from([1, 2, 3, "undo"]))}
    if _same(edited, item):
        edited = {**item, "actor": item["actor"] + "!"}
    journal = [*items[:i], edited, *items[i + 1 :]]
    return i + 1, {**doc, "journal": journal}


@pytest.mark.slow  # ~3 s for 150 examples
@settings(
    max_examples=examples(150),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_edit_of_a_hashed_field_is_found(
    folder: Path,  # noqa: F811
    journal_document: dict[str, Any],  # noqa: F811
    data: st.DataObject,
) -> None:
    assert chain.verify_chain(journal_document["journal"]) == []
    n, edited = data.draw(edits(journal_document), label="edit")
    problems = chain.verify_chain(edited["journal"])
    assert problems
    assert any(re.match(rf"entry {n}\b", p) for p in problems), problems
    assert all("\n" not in p for p in problems)
    path = folder / "edited.json"
    path.write_bytes(to_json(edited).encode("utf-8", "surrogatepass"))
    out = run_agon("verify", path)
    assert out.returncode in (1, 2), (out.stdout, out.stderr)  # never accepted
    if out.returncode == 1:
        assert f"  entry {n}" in out.stdout and not out.stderr
    else:  # a value no JSON reader takes (NaN, a lone surrogate): unreadable, in one line
        assert out.stderr.startswith("agon: error: ") and out.stderr.count("\n") == 1


def renumbered(doc: dict[str, Any], ids: list[int]) -> dict[str, Any]:
    """The document with its entries' ids replaced by ``ids`` (and the ids payloads name)."""
    new = {item["id"]: ids[k] for k, item in enumerate(doc["journal"])}
    journal = []
    for item in doc["journal"]:
        payload = dict(item["payload"])
        for key in chain.ID_KEYS.get(item["action"], ()):
            if isinstance(payload.get(key), int):
                payload[key] = new[payload[key]]
        undoes = item["undoes"]
        journal.append(
            {
                **item,
                "id": new[item["id"]],
                "payload": payload,
                "undoes": None if undoes is None else new[undoes],
            }
        )
    return {**doc, "journal": journal}


@pytest.mark.slow  # ~4 s for 30 examples (each imports and replays the event)
@settings(
    max_examples=examples(30),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(start=st.integers(1, 10**6), gaps=st.lists(st.integers(1, 1000), min_size=60))
def test_renumbered_ids_keep_every_hash(
    session: Session,
    folder: Path,  # noqa: F811
    journal_document: dict[str, Any],  # noqa: F811
    start: int,
    gaps: list[int],
) -> None:
    count = len(journal_document["journal"])
    assert count <= len(gaps)
    ids = list(itertools.accumulate(gaps[:count], initial=start))[:count]
    doc = renumbered(journal_document, ids)
    hashes = [e["hash"] for e in journal_document["journal"]]
    assert chain.verify_chain(doc["journal"]) == []
    path = folder / "renumbered.json"
    path.write_text(json.dumps(doc), "utf-8")
    slug = f"r{next(_slugs)}"
    moving.import_journal(session, path=path, slug=slug)
    stored = chain.stored_items(session, slug)
    assert [i["hash"] for i in stored] == hashes
    assert chain.verify_chain(stored) == []
