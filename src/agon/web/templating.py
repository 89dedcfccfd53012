"""Server-rendered pages: one Jinja2 environment per language, autoescaped, with gettext.

Every page gets ``lang``, the language switcher's links, the session's CSRF token and whether a
director is logged in. Names players type are data, never markup: autoescaping shows
``<script>`` as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from fractions import Fraction
from functools import cache
from types import CodeType
from typing import Any
from urllib.parse import quote

import jinja2
from jinja2.bccache import Bucket
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse

from agon.errors import AgonError
from agon.i18n import (
    LANGUAGES,
    SCORE_CATEGORIES,
    check_language,
    criterion_label,
    format_number,
    guild_name,
    translator,
    wonder_name,
)
from agon.tournament.wifi import WifiNetwork
from agon.web.security import CSRF_FIELD, new_token
from agon.web.views import auction_sentence

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "it": "Italiano"}


def csrf_token(request: Request) -> str:
    """The session's CSRF token, created on first use."""
    token = request.session.get("csrf")
    if not isinstance(token, str) or not token:
        token = new_token()
        request.session["csrf"] = token
    return token


def _number(value: Fraction | int, criterion: str, lang: str) -> str:
    return format_number(value, criterion, lang)


def _clock_text(seconds: int | None) -> str:
    if seconds is None:
        return ""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes:02d}:{secs:02d}"


#: a plain dict's attributes: its class's (and ``object``'s); an instance has no others
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment, with ``x.key`` on a plain ``dict`` read as ``x["key"]`` at once.

    Jinja tries ``getattr(x, "key")`` first and the item second, so on a dict each ``x.key``
    raised and caught an AttributeError: the play board's pages read their views' dicts that
    way thousands of times. A plain dict's only attributes are its class's, so for any other
    name the answer is the same (``x.items`` is still the method); other objects as Jinja does.
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class SharedCode(jinja2.BytecodeCache):
    """Each template compiled once per process for every language's environment.

    Jinja compiles a template per environment, and there is one environment per language:
    without this a process compiled each page once per language it served (about 1.2 s of CPU
    for all the pages, per language). The compiled code depends only on the template's source
    and on the options Jinja compiles with (delimiters, ``trim_blocks``, ``lstrip_blocks``,
    autoescaping, the extensions, new-style gettext), which every environment of
    :func:`environment` sets alike; what differs between languages (the translations, the
    filters, ``lang`` and the other globals) is looked up on the environment when a page is
    rendered. A template whose source changed (its checksum) is compiled again."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        kept = self._code.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)


_SHARED_CODE = SharedCode()


def language_filters(lang: str) -> dict[str, Callable[..., Any]]:
    """The filters whose text depends on the language: each environment's own, registered
    through :func:`_in_language`."""
    return {
        "wonder": lambda w, full=False: wonder_name(w, lang, full=full),
        "guild": lambda g: guild_name(g, lang),
        "criterion": lambda c, short=False: criterion_label(c, lang, short=short),
        "category": lambda c: translator(lang).gettext(SCORE_CATEGORIES[c]),
        "number": lambda v, c="points": _number(v, c, lang),
        "auction_line": lambda text, sides=None: auction_sentence(str(text), lang, sides),
    }


def _in_language(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a filter Jinja never applies while it compiles a template. Jinja folds a filter
    of a constant (``{{ "military"|category }}``) into the compiled code with the compiling
    environment's filter, and :class:`SharedCode` shares that code with every language: the
    first language's word would be every language's. A filter that takes the context is never
    folded."""

    @jinja2.pass_context
    def in_language(_context: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return in_language


@cache
def environment(lang: str) -> jinja2.Environment:
    env = _Environment(
        loader=jinja2.PackageLoader("agon.web", "templates"),
        bytecode_cache=_SHARED_CODE,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translator(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        lang=lang,
        languages=LANGUAGES,
        language_names=LANGUAGE_NAMES,
        csrf_field=CSRF_FIELD,
    )
    env.filters.update({name: _in_language(f) for name, f in language_filters(lang).items()})
    env.filters["clock"] = _clock_text
    env.filters["urlq"] = lambda s: quote(str(s), safe="")
    env.filters["iso"] = lambda d: d.isoformat() if isinstance(d, datetime) else ""
    env.filters["wanted"] = wanted_text
    env.filters["hm"] = lambda d: d.strftime("%H:%M") if isinstance(d, datetime) else ""
    return env


def render(
    request: Request, template: str, lang: str, *, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """Render ``template`` in ``lang`` for ``request``."""
    env = environment(check_language(lang))
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    html = env.get_template(template).render(
        request=request,
        path=request.url.path,
        here=here,
        csrf=lambda: csrf_token(request),
        director="director" in request.session
        and request.app.state.web.director_sessions.valid(request.session["director"]),
        flashes=request.session.pop("flash", []) if "flash" in request.session else [],
        qr=lambda path, title="": _qr(request, str(path), str(title)),
        wifi_qr=_wifi_qr,
        **context,
    )
    return HTMLResponse(html, status_code=status_code, headers={"Content-Language": lang})


def _not_on_kept_pages(*_args: object) -> str:
    raise RuntimeError("a page kept for every reader has no form and no QR code")


def render_kept(template: str, lang: str, *, path: str, **context: Any) -> str:
    """Render ``template`` in ``lang`` as a page kept for every reader (the public standings):
    nothing from any one request — no session, no messages, no director, no form; the language
    switcher returns to ``path``. The pages' cache (:mod:`agon.web.pagecache`) keeps it."""
    env = environment(check_language(lang))
    return env.get_template(template).render(
        request=None,
        path=path,
        here=path,
        csrf=_not_on_kept_pages,
        director=False,
        flashes=[],
        qr=_not_on_kept_pages,
        wifi_qr=_not_on_kept_pages,
        **context,
    )


def _wifi_qr(network: WifiNetwork, title: str = "") -> Markup:
    """The venue network's QR code (inline SVG, :func:`agon.web.qr.wifi_svg`)."""
    from agon.web.qr import wifi_svg

    return wifi_svg(network, str(title))


def _qr(request: Request, path: str, title: str) -> Markup:
    """A seat link's QR code (inline SVG) under the server's public URL (:mod:`agon.web.qr`)."""
    from agon.web.qr import absolute, qr_svg

    return qr_svg(absolute(request.app.state.web.settings.public_url, path), title)


def flash(request: Request, message: str, kind: str = "ok") -> None:
    """A message shown once on the next page (after a redirect)."""
    request.session.setdefault("flash", [])
    request.session["flash"] = [*request.session["flash"], [kind, message]]


#: The clause of an English message that quotes a command-line option (``; correct it with
#: --version 216``, ``(create the tournament with --min-players to override)``, ``(--late)``):
#: never shown on the web.
CLI_HINT = re.compile(
    r"\s*[;(]?[^;()]*?(?<![\w-])--[a-z][a-z-]*(?:[ =][^\s;()]+)?[^;()]*(?:\([^()]*\))?\)?"
)


def without_cli_hints(message: str) -> str:
    """``message`` without the clauses that quote command-line options."""
    return CLI_HINT.sub("", message).strip()


def error_text(exc: AgonError, lang: str) -> str:
    """A service error in ``lang``: its catalogue text, else the English one without CLI hints."""
    if exc.msgid is not None:
        return exc.render(translator(lang).gettext)
    return without_cli_hints(str(exc))


def wanted_text(wanted: object) -> str:
    """What a phone's queued entry wanted (a dispute from the queue): ``Anna 45, Bruno 38``."""
    if not isinstance(wanted, list | tuple):
        return ""
    return ", ".join(
        f"{w.get('player', '')} {w.get('vp', '')}".strip() for w in wanted if isinstance(w, dict)
    )


def tr(lang: str, message: str) -> str:
    """``message`` (marked with ``N_`` where it is written) translated into ``lang``."""
    return translator(lang).gettext(message)
