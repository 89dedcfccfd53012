"""Content files: what ships, and validation with clear errors (file, entry, field)."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from agon.errors import InvalidInput
from agon.games.one_card_wonder.content import Cost, default_content, load_content
from agon.games.one_card_wonder.effects import REGISTRY


def data_copy(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    src = resources.files("agon.games.one_card_wonder").joinpath("data")
    for name in ("rules.toml", "wonders.toml", "boards.toml", "leaders.toml"):
        (tmp_path / name).write_text(src.joinpath(name).read_text("utf-8"), "utf-8")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


# Rulebook: SPIELMATERIAL (12 building boards, 10 leaders; enough wonders for 6 players and
# for Two Card Wonder with 4: 2n+1 = 9)
def test_shipped_content_counts_and_names() -> None:
    c = default_content()
    assert len(c.boards) == 12 and len(c.leaders) == 10 and len(c.wonders) >= 9
    ids = {w.id for w in c.wonders}
    assert {"pharos", "khazne", "apollo", "zeus"} <= ids
    triumph = next(b for b in c.boards if b.id == "triumph")
    assert [b.names.de for b in triumph.buildings] == [
        "Obelisk",
        "Schmiede",
        "Brennofen",
        "Hippodrom",
    ]
    assert {x.id for x in c.leaders if x.publisher} == {
        "cartimandua", "sappho", "alexander", "archimedes", "ramses"
    }  # fmt: skip
    for entry in (*c.wonders, *c.boards, *c.leaders):
        assert entry.names.en and entry.names.de and entry.names.it
        if not entry.publisher:
            assert entry.designed == ("all",)
    khazne = c.wonder("khazne")
    assert [b.id for b in khazne.buildings] == ["oasis_1", "oasis_2"]
    assert khazne.buildings[1].after == "oasis_1" and khazne.buildings[1].shares_token


def test_every_registered_effect_is_used_by_shipped_content() -> None:
    c = default_content()
    used = {b.effect.name for w in c.wonders for b in w.buildings}
    used |= {b.effect.name for bd in c.boards for b in bd.buildings}
    used |= {x.effect.name for x in c.leaders}
    assert used == set(REGISTRY)


def test_cost_text_round_trip() -> None:
    for text in ("", "K", "WWCJ$", "KWCSIJJ$$"):
        assert str(Cost.parse(text)) == text


def test_stage_cycle_is_reported(tmp_path: Path) -> None:
    d = data_copy(tmp_path)
    edit(
        d / "wonders.toml",
        'id = "s1a"\ncost = "SS"\nafter = []',
        'id = "s1a"\ncost = "SS"\nafter = ["s4"]',
    )
    with pytest.raises(
        InvalidInput, match=r"wonders.toml.*entry 'pharos'.*cycle: s1a -> s4 -> s3a"
    ):
        load_content(d)


def test_unknown_effect_is_reported(tmp_path: Path) -> None:
    d = data_copy(tmp_path)
    edit(d / "boards.toml", 'effect = "build_discount"', 'effect = "build_discout"')
    with pytest.raises(
        InvalidInput,
        match=r"boards.toml.*entry 'triumph/kiln'.*field 'effect'.*unknown effect 'build_discout'",
    ):
        load_content(d)


def test_unpayable_costs_are_reported(tmp_path: Path) -> None:
    d = data_copy(tmp_path)
    edit(d / "wonders.toml", 'cost = "SS"', 'cost = "SSSSSIIII"')
    with pytest.raises(InvalidInput, match=r"entry 'pharos/s1a'.*field 'cost'.*9 storage places"):
        load_content(d)
    d2 = data_copy(tmp_path / "b")
    edit(d2 / "rules.toml", "storage = 8", "storage = 20")
    edit(d2 / "leaders.toml", 'defeat = "KWJ"', 'defeat = "KKKKKKKKKKKKK"')
    with pytest.raises(
        InvalidInput, match=r"entry 'cartimandua'.*field 'defeat'.*13 knowledge; only 12"
    ):
        load_content(d2)


def test_bad_references_are_reported(tmp_path: Path) -> None:
    d = data_copy(tmp_path)
    edit(d / "wonders.toml", 'after = ["s1a", "s1b"]', 'after = ["s1a", "s9"]')
    with pytest.raises(
        InvalidInput, match=r"entry 'pharos/s2a'.*field 'after'.*unknown stage 's9'"
    ):
        load_content(d)
    d2 = data_copy(tmp_path / "b")
    edit(d2 / "wonders.toml", 'after = "oasis_1"', 'after = "oasis_0"')
    with pytest.raises(InvalidInput, match=r"entry 'khazne/oasis_2'.*unknown building 'oasis_0'"):
        load_content(d2)


def test_bad_params_names_and_symbols_are_reported(tmp_path: Path) -> None:
    d = data_copy(tmp_path)
    edit(
        d / "boards.toml",
        'params = { resource = "clay", amount = 1 }',
        'params = { resource = "mud" }',
    )
    with pytest.raises(
        InvalidInput, match=r"triumph/kiln.*params.resource.*unknown resource 'mud'"
    ):
        load_content(d)
    d2 = data_copy(tmp_path / "b")
    edit(d2 / "leaders.toml", 'it = "Saffo"', 'it = ""')
    with pytest.raises(InvalidInput, match=r"entry 'sappho'.*name.it"):
        load_content(d2)
    d3 = data_copy(tmp_path / "c")
    edit(d3 / "wonders.toml", 'cost = "SS"', 'cost = "SX"')
    with pytest.raises(InvalidInput, match=r"pharos/s1a.*unknown symbol 'X'"):
        load_content(d3)


def test_missing_directory_is_reported(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such content file"):
        load_content(tmp_path / "nope")
    shutil.rmtree(tmp_path, ignore_errors=True)
