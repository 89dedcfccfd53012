"""``agon verify`` of a journal's hash chain: a journal document (``agon export --journal``) or the
journals stored in a database (``agon verify --database``; :mod:`agon.services.chain`).

Each problem is one line ("entry 17 (result.enter): its hash does not match its content"); the
chain's last hash is printed, so that it can be compared with one published on the day.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from agon.commands._json import echo_json
from agon.errors import EXIT_MISMATCH, InvalidInput

#: The ``format`` of a journal document (:data:`agon.services.moving.FORMAT`).
JOURNAL_FORMAT = "agon-journal"


def summary_line(count: int, last: str | None) -> str:
    return f"chain: {count} entries, last hash {last}, intact"


def _echo(prefix: str, count: int, last: str | None, problems: Sequence[str]) -> None:
    if problems:
        click.echo(f"{prefix}chain: MISMATCH ({count} entries)")
        for problem in problems:
            click.echo(f"  {problem}")
    else:
        click.echo(prefix + summary_line(count, last))


def verify_journal_document(path: Path, doc: dict[str, Any], as_json: bool) -> None:
    """Check the hash chain of a journal document; exit 1 on a problem.

    Raises:
        InvalidInput: the document has no journal to check.
    """
    from agon.services.chain import verify_chain

    items = doc.get("journal")
    if not isinstance(items, list) or not items:
        raise InvalidInput(f"{path}: field 'journal': must be a non-empty list of entries")
    version = doc.get("version")
    if version == 1:
        problems = [
            "a version-1 journal document (exported before the hash chain): it has no chain to "
            "check; import it and export it again"
        ]
    else:
        problems = verify_chain(items)
    last = items[-1].get("hash") if isinstance(items[-1], dict) else None
    last = last if isinstance(last, str) else None
    if as_json:
        echo_json(
            {
                "ok": not problems,
                "file": str(path),
                "kind": "journal",
                "tournament": doc.get("tournament"),
                "entries": len(items),
                "last_hash": None if problems else last,
                "problems": problems,
            }
        )
    else:
        _echo(f"{path}: ", len(items), last, problems)
    if problems:
        sys.exit(EXIT_MISMATCH)


def verify_database(tournament: str | None, as_json: bool) -> None:
    """Check the hash chain of every tournament's journal in the database (or of one); exit 1 on
    a problem.

    Raises:
        NotFound: ``tournament`` has no journal in the database.
    """
    from agon.commands._common import open_session
    from agon.errors import NotFound
    from agon.services import chain, journal

    with open_session() as session:
        slugs = journal.tournament_slugs(session)
        if tournament is not None:
            if tournament not in slugs:
                raise NotFound(
                    f"no tournament {tournament!r} in this database (known: "
                    f"{', '.join(slugs) or 'none yet'})"
                )
            slugs = [tournament]
        checked = {slug: chain.verify_stored(session, slug) for slug in slugs}
    bad = [slug for slug, (_, _, problems) in checked.items() if problems]
    if as_json:
        echo_json(
            {
                "ok": not bad,
                "kind": "database",
                "tournaments": [
                    {
                        "slug": slug,
                        "ok": not problems,
                        "entries": count,
                        "last_hash": None if problems else last,
                        "problems": problems,
                    }
                    for slug, (count, last, problems) in checked.items()
                ],
            }
        )
    else:
        if not checked:
            click.echo("no tournaments in this database")
        for slug, (count, last, problems) in checked.items():
            _echo(f"{slug}: ", count, last, problems)
    if bad:
        sys.exit(EXIT_MISMATCH)
