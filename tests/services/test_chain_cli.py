"""``agon verify`` checks a journal's hash chain (issue 29): of an export (``agon export
--journal``) and of the journals stored in a database (``agon verify --database``, and ``agon db
verify``); an edited entry is named in one line, exit code 1; unreadable input exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import update
from sqlalchemy.orm import Session
from test_move import bonn_with_round_1_open
from tests.cli_runner import run_agon

from agon.services import chain
from agon.store.models import JournalEntry


def exported(session: Session, db_url: str, tmp_path: Path) -> Path:
    bonn_with_round_1_open(session)
    path = tmp_path / "bonn.agon.json"
    out = run_agon(
        "export", "--journal", "-t", "bonn", "-o", path, env={"AGON_DATABASE_URL": db_url}
    )
    assert out.returncode == 0, out.stderr
    return path


def test_verify_of_an_export_prints_the_last_hash_and_names_an_edited_entry(
    session: Session, db_url: str, tmp_path: Path
) -> None:
    path = exported(session, db_url, tmp_path)
    doc = json.loads(path.read_text("utf-8"))
    items = chain.stored_items(session, "bonn")
    out = run_agon("verify", path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == (
        f"{path}: chain: {len(items)} entries, last hash {items[-1]['hash']}, intact\n"
    )
    out = run_agon("verify", path, "--json")
    assert json.loads(out.stdout)["ok"] is True
    assert json.loads(out.stdout)["last_hash"] == items[-1]["hash"]
    edited = tmp_path / "edited.json"
    k = len(doc["journal"]) - 1  # the result entered: a VP changed afterwards
    doc["journal"][k - 1]["payload"]["results"][0]["vp"] += 1
    edited.write_text(json.dumps(doc), "utf-8")
    out = run_agon("verify", edited)
    assert out.returncode == 1
    assert out.stdout.splitlines() == [
        f"{edited}: chain: MISMATCH ({len(items)} entries)",
        f"  entry {k} (result.enter): its hash does not match its content",
    ]
    # the edit is refused on import too, in one line
    out = run_agon("import", edited, "--as", "forged", env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert "hash chain does not hold" in out.stderr


def test_verify_refuses_what_it_cannot_check(session: Session, db_url: str, tmp_path: Path) -> None:
    path = exported(session, db_url, tmp_path)
    doc = json.loads(path.read_text("utf-8"))
    cases = {
        "nojournal.json": ({**doc, "journal": "x"}, 2),
        "empty.json": ({**doc, "journal": []}, 2),
        "v1.json": ({**doc, "version": 1}, 1),
        "junk-entry.json": ({**doc, "journal": [*doc["journal"], 7]}, 1),
    }
    for name, (bad, code) in cases.items():
        (tmp_path / name).write_text(json.dumps(bad), "utf-8")
        out = run_agon("verify", tmp_path / name)
        assert out.returncode == code, (name, out.stdout, out.stderr)
        if code == 2:
            assert out.stderr.startswith("agon: error: ") and out.stderr.count("\n") == 1
    out = run_agon("verify", path, "--seed", "x")
    assert out.returncode == 2 and "do not apply" in out.stderr
    out = run_agon("verify", "-t", "bonn")
    assert out.returncode == 2 and "--database" in out.stderr
    out = run_agon("verify", "--database", "-t", "nope", env={"AGON_DATABASE_URL": db_url})
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "nope" in out.stderr


def test_verify_database_and_db_verify_find_a_rewritten_entry(
    session: Session, db_url: str
) -> None:
    bonn_with_round_1_open(session)
    env = {"AGON_DATABASE_URL": db_url}
    items = chain.stored_items(session, "bonn")
    out = run_agon("verify", "--database", env=env)
    assert out.returncode == 0, out.stderr
    assert (
        out.stdout == f"bonn: chain: {len(items)} entries, last hash {items[-1]['hash']}, intact\n"
    )
    assert run_agon("db", "verify", env=env).returncode == 0
    # someone rewrites who made the third change, straight in the database
    session.execute(
        update(JournalEntry).where(JournalEntry.id == items[2]["id"]).values(actor="someone")
    )
    session.commit()
    out = run_agon("verify", "--database", "-t", "bonn", env=env)
    assert out.returncode == 1
    assert f"  entry 3 ({items[2]['action']}): its hash does not match its content" in (
        out.stdout.splitlines()
    )
    out = run_agon("db", "verify", "--json", env=env)
    assert out.returncode == 1
    (row,) = json.loads(out.stdout)["tournaments"]
    assert row["ok"] is True and row["chain_ok"] is False and "entry 3" in row["chain"][0]
