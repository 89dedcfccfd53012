"""``--json`` on the read commands: one option, one way to turn service objects into JSON.

Every read command prints ONE JSON document (an object) on stdout with ``--json``, the shapes
listed in docs/cli.md; nothing else goes to stdout then, and no progress to stderr.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from datetime import date, datetime
from fractions import Fraction
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def json_option(fn: F) -> F:
    """``--json``: the command's answer as one JSON document (docs/cli.md)."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document (see docs/cli.md)."
    )(fn)


def jsonable(value: object) -> Any:
    """``value`` as plain JSON data: dataclasses as objects of their fields, tuples as lists,
    times in ISO 8601, fractions as numbers.

    >>> from datetime import UTC
    >>> jsonable({"at": datetime(2026, 3, 18, 9, 30, tzinfo=UTC), "seats": ("Anna", "Ben")})
    {'at': '2026-03-18T09:30:00+00:00', 'seats': ['Anna', 'Ben']}
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def echo_json(doc: Mapping[str, Any]) -> None:
    """Print ``doc`` (made :func:`jsonable`) as indented UTF-8 JSON."""
    click.echo(json.dumps(jsonable(doc), ensure_ascii=False, indent=2))
