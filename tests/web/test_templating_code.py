"""The pages' templates are compiled once per process for every language's environment
(``agon.web.templating.SharedCode``), and each language still renders its own words."""

from __future__ import annotations

from pathlib import Path

import jinja2
from fastapi.testclient import TestClient

from agon.i18n import LANGUAGES
from agon.web.templating import SharedCode, environment


def test_every_language_renders_each_page_from_the_same_compiled_code() -> None:
    fresh = {lang: environment.__wrapped__(lang) for lang in LANGUAGES}  # not the cached ones
    names = fresh["en"].list_templates()
    assert len(names) > 40
    for name in names:
        codes = {
            lang: (
                env.get_template(name).root_render_func.__code__,
                {block: f.__code__ for block, f in env.get_template(name).blocks.items()},
            )
            for lang, env in fresh.items()
        }
        first = codes["en"]
        for lang, (root, blocks) in codes.items():
            assert root is first[0], (name, lang)
            assert blocks.keys() == first[1].keys()
            assert all(code is first[1][block] for block, code in blocks.items()), (name, lang)


def test_a_shared_page_speaks_each_language(client: TestClient) -> None:
    words = {"en": ("Log in",), "de": ("Anmelden", "Passwort"), "it": ("Accedi",)}
    for lang in ("en", "de", "it", "en", "de"):
        page = client.get(f"/desk/login?lang={lang}")
        assert page.status_code == 200
        assert page.headers["content-language"] == lang
        assert all(f">{word}<" in page.text for word in words[lang]), lang
        others = {w for other, ws in words.items() if other != lang for w in ws}
        assert not any(f">{word}<" in page.text for word in others), lang


def test_a_template_whose_source_changed_is_compiled_again(tmp_path: Path) -> None:
    shared = SharedCode()

    def env() -> jinja2.Environment:
        return jinja2.Environment(
            loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=shared, autoescape=True
        )

    (tmp_path / "page.html").write_text("one {{ x }}")
    first = env()
    assert first.get_template("page.html").render(x=1) == "one 1"
    assert env().get_template("page.html").render(x=2) == "one 2"
    (tmp_path / "page.html").write_text("two {{ x }}")
    assert env().get_template("page.html").render(x=3) == "two 3"
    (tmp_path / "other.html").write_text("other {{ x }}")
    pages = env()
    assert pages.get_template("other.html").render(x=4) == "other 4"
    assert pages.get_template("page.html").render(x=5) == "two 5"
