"""The build hook's cache of compiled cores (hatch_build.py, ``AGON_CORE_CACHE``): a module built
once is copied for the same inputs, and any changed input compiles anew."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import hatch_build
import pytest

PYX = "def answer():\n    return {value}\n"


def _load(so: Path) -> object:
    spec = importlib.util.spec_from_file_location("_core", so)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.answer()  # type: ignore[attr-defined]


def test_the_same_inputs_are_copied_and_a_changed_source_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("AGON_CORE_CACHE", str(cache))
    source = tmp_path / "tiny" / "_core.pyx"
    source.parent.mkdir()
    source.write_text(PYX.format(value=41), encoding="utf-8")
    runs: list[str] = []
    real_run = hatch_build._run

    def counting_run(cmd: list[str], what: str) -> None:
        runs.append(what)
        real_run(cmd, what)

    monkeypatch.setattr(hatch_build, "_run", counting_run)
    first = hatch_build.build_core(source, tmp_path / "a", reuse=False)
    assert runs == ["cython", "the C compiler"] and len(list(cache.iterdir())) == 1
    assert _load(first) == 41

    second = hatch_build.build_core(source, tmp_path / "b", reuse=False)
    assert runs == ["cython", "the C compiler"]  # copied from the cache: nothing compiled
    assert second.read_bytes() == first.read_bytes()

    source.write_text(PYX.format(value=42), encoding="utf-8")
    third = hatch_build.build_core(source, tmp_path / "c", reuse=False)
    assert runs.count("cython") == 2 and len(list(cache.iterdir())) == 2
    assert third.read_bytes() != first.read_bytes()


def test_without_the_variable_there_is_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGON_CORE_CACHE", raising=False)
    assert hatch_build._cached_module(Path(hatch_build.__file__), ["cc"], ["-O2"], "3.3") is None
