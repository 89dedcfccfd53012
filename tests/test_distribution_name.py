"""Issue 27, "A package anyone can install": ``agon`` on PyPI is someone else's project (a jmespath
wrapper, no ``agon`` command), so agon is published as ``agon-tournaments`` (free on PyPI when it
was chosen: docs/packaging.md shows the check). The import package and the command stay ``agon``;
every install line the users read names the new distribution."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import agon
from agon.extras import missing_extra_message

ROOT = Path(__file__).resolve().parents[1]
#: ``pip install agon`` / ``pip install 'agon[web]'`` / ``agon[print]``: the old name as a
#: distribution (``agon-tournaments[web]`` and ``agon serve`` do not match).
OLD_NAME = re.compile(r"pip install ['\"]?agon(?![\w-])|(?<![\w-])agon\[")


def test_the_distribution_is_agon_tournaments_and_the_package_stays_agon() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == agon.DISTRIBUTION == "agon-tournaments"
    assert project["scripts"] == {"agon": "agon.launch:main"}
    assert importlib.metadata.version(agon.DISTRIBUTION) == agon.__version__
    (script,) = importlib.metadata.distribution(agon.DISTRIBUTION).entry_points
    assert (script.name, script.value) == ("agon", "agon.launch:main")


def test_no_install_line_names_the_other_projects_agon() -> None:
    texts = [ROOT / "README.md", ROOT / "pyproject.toml", *ROOT.glob("docs/*.md")]
    texts += list((ROOT / "src" / "agon").rglob("*.py"))
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in texts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OLD_NAME.search(line)
    ]
    assert not found, "\n".join(found)


def test_a_missing_extra_names_the_distribution_to_install() -> None:
    message = missing_extra_message(ModuleNotFoundError(name="psycopg"), ["tournament", "list"])
    assert message == (
        "agon tournament needs the optional postgresql dependencies: "
        "pip install 'agon-tournaments[postgresql]'"
    )
