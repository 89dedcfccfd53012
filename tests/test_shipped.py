"""agon.shipped: a shipped data file read beside its module, or through importlib.resources where
the module's file is not where the data is (agon imported from a zip)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import pytest

import agon.tournament
from agon.shipped import shipped_text


def _resources_text(package: str, *parts: str) -> str:
    node = resources.files(package)
    for part in parts:
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("package", "parts"),
    [
        ("agon.tournament", ("rulesets", "bonn-2018.toml")),
        ("agon.tournament", ("data", "base_game.toml")),
        ("agon.games.seven_wonders", ("data", "wonders.toml")),
    ],
)
def test_the_text_is_the_packages_own(package: str, parts: tuple[str, ...]) -> None:
    __import__(package)
    assert shipped_text(package, *parts) == _resources_text(package, *parts)


def test_a_module_whose_file_is_elsewhere_is_read_through_importlib_resources(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    want = _resources_text("agon.tournament", "rulesets", "bonn-2018.toml")
    monkeypatch.setattr(agon.tournament, "__file__", str(tmp_path / "nowhere" / "__init__.py"))
    assert shipped_text("agon.tournament", "rulesets", "bonn-2018.toml") == want
    monkeypatch.delattr(agon.tournament, "__file__")
    assert shipped_text("agon.tournament", "rulesets", "bonn-2018.toml") == want
    assert sys.modules["agon.tournament"] is agon.tournament


def test_a_file_that_is_not_shipped_is_an_os_error() -> None:
    with pytest.raises(OSError):
        shipped_text("agon.tournament", "rulesets", "no-such-ruleset.toml")
