"""The pages' templates are compiled once per process for every language's environment
(``agon.web.templating.SharedCode``), and each language still renders its own words."""

from __future__ import annotations

from pathlib import Path

import jinja2
import jinja2.nodes
import pytest
from fastapi.testclient import TestClient

from agon.i18n import (
    LANGUAGES,
    SCORE_CATEGORIES,
    criterion_label,
    translator,
    wonder_name,
)
from agon.web.templating import SharedCode, environment, language_filters


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


def test_a_languages_filter_of_a_constant_is_not_folded_into_the_shared_code() -> None:
    """Jinja applies a filter of a constant while it compiles (``{{ "military"|category }}``):
    with the compiled code shared, the first language's word would be every language's."""
    page = {
        "fold.html": '{{ "military"|category }} {{ "babylon"|wonder }} {{ "points"|criterion }}'
    }
    envs = {lang: environment.__wrapped__(lang) for lang in ("de", "en", "it")}
    for env in envs.values():
        env.loader = jinja2.DictLoader(page)  # the same shared code, a page of constants
    texts = {lang: env.get_template("fold.html").render() for lang, env in envs.items()}
    for lang, text in texts.items():
        words = (
            translator(lang).gettext(SCORE_CATEGORIES["military"]),
            wonder_name("babylon", lang),
            criterion_label("points", lang),
        )
        assert text == " ".join(words), lang
    assert len(set(texts.values())) == 3, texts
    for name in language_filters("en"):
        node = envs["en"].parse(f'{{{{ "military"|{name} }}}}').find(jinja2.nodes.Filter)
        assert node is not None
        with pytest.raises(jinja2.nodes.Impossible):
            node.as_const(jinja2.nodes.EvalContext(envs["en"]))
