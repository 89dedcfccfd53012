"""``join_words`` says lists as CLDR does (babel.lists.format_list), kept only for speed (issue 31)."""

from __future__ import annotations

import pytest
from babel.lists import format_list

from agon.i18n.explain import join_words

CLDR_LOCALE = {"de": "de", "it": "it", "en": "en_GB"}  # British English: no Oxford comma


@pytest.mark.parametrize("lang", sorted(CLDR_LOCALE))
@pytest.mark.parametrize("count", [0, 1, 2, 3, 5])
def test_join_words_is_babels_list(lang: str, count: int) -> None:
    items = [f"criterion {i}" for i in range(count)]
    expected = format_list(items, locale=CLDR_LOCALE[lang]) if items else ""
    assert join_words(items, lang) == expected
