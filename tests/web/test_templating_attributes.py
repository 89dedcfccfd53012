"""The pages' Jinja environment reads ``x.key`` on a plain dict as the item at once, without
trying (and failing) an attribute first; every answer is Jinja's own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jinja2
import pytest

from agon.web.templating import environment


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names Jinja's own attribute lookup was asked for."""
    names: list[str] = []
    original = jinja2.Environment.getattr

    def counted(self: jinja2.Environment, obj: Any, attribute: str) -> Any:
        names.append(attribute)
        return original(self, obj, attribute)

    monkeypatch.setattr(jinja2.Environment, "getattr", counted)
    return names


def render(source: str, **context: Any) -> str:
    return environment("en").from_string(source).render(**context)


def test_a_dicts_key_is_read_without_trying_an_attribute(asked: list[str]) -> None:
    view = {"name": "Ann", "seat": {"number": 3}, "hidden": False}
    page = render("{{ v.name }} {{ v.seat.number }} {{ v.hidden }}", v=view)
    assert page == "Ann 3 False"
    assert asked == []


def test_a_dicts_methods_and_missing_keys_are_as_jinja_answers(asked: list[str]) -> None:
    view = {"items": "shadowed", "keys": 1}
    assert render("{{ v.items() | list | length }} {{ v['items'] }}", v=view) == "2 shadowed"
    assert render("{{ v.get('keys') }}", v=view) == "1"
    assert asked == ["items", "get"]  # dict's own attributes: Jinja's lookup, the method
    with pytest.raises(jinja2.UndefinedError, match="no attribute 'missing'"):
        render("{{ v.missing }}", v=view)
    assert render("{{ v.missing is defined }}", v=view) == "False"


def test_other_objects_are_looked_up_as_jinja_does(asked: list[str]) -> None:
    @dataclass
    class Seat:
        name: str

    class Mapping(dict[str, str]):
        name = "the attribute"

    assert render("{{ s.name }} {{ m.name }}", s=Seat("Ben"), m=Mapping(name="the item")) == (
        "Ben the attribute"
    )
    assert asked == ["name", "name"]
