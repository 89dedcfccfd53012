"""Printouts as HTML (Jinja2 templates, print CSS) and as PDF (WeasyPrint): A4, black-and-white safe.

Each ``*_html`` function returns the HTML of one printout in one language; :func:`to_pdf` turns it
into PDF bytes. The HTML is autoescaped, so a player called ``<b>Eve</b>`` is printed as written.
WeasyPrint (the ``print`` extra) is imported only by :func:`to_pdf`, so the HTML side and the
language catalogues work without it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import jinja2
import markupsafe

from agon.errors import InvalidInput
from agon.i18n import (
    SCORE_CATEGORIES,
    check_language,
    criterion_label,
    format_number,
    guild_name,
    sort_key,
    translator,
    wonder_name,
)
from agon.i18n.explain import explain_in
from agon.i18n.marks import Mark, event_marks, legend, marks_in
from agon.printing.model import RoundLike, Seat, seats_of, table_guilds
from agon.tournament.event import Event
from agon.tournament.ruleset import Ruleset
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES
from agon.tournament.standings import Standings, criteria_chain
from agon.tournament.wifi import WifiNetwork


@dataclass(frozen=True, slots=True)
class TableLink:
    """Where the players of a table enter their results: a URL (printed as a QR code) and a PIN."""

    url: str
    pin: str


def derive_pin(seed: str, round_number: int, table_number: int, *, digits: int = 4) -> str:
    """A table's PIN, derived from a secret seed so a re-print gives the same PIN.

    HMAC-SHA-256 of ``round|table`` keyed with ``seed``, reduced to ``digits`` decimal digits.
    Whoever knows the seed can compute every PIN: keep it secret until the round is scored.

    >>> derive_pin("secret", 1, 2) == derive_pin("secret", 1, 2)
    True
    """
    mac = hmac.new(
        seed.encode(), f"agon-pin|{round_number}|{table_number}".encode(), hashlib.sha256
    )
    return str(int.from_bytes(mac.digest()[:8], "big") % 10**digits).zfill(digits)


def css_string(text: str) -> markupsafe.Markup:
    r"""``text`` as a quoted CSS string that cannot end the string or the ``<style>`` element.

    >>> print(css_string('a "b" </style>'))
    "a \000022 b\000022  \00003c /style\00003e "
    """
    out = []
    for ch in text:
        if ch.isalnum() or ch in " .,-_:;!?()[]/+*#'" or ord(ch) > 127:
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):06x} ")
    return markupsafe.Markup('"' + "".join(out) + '"')


@cache
def _environment(lang: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("agon.printing", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translator(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = lang
    env.filters["wonder"] = lambda w, full=False: wonder_name(w, lang, full=full)
    env.filters["guild"] = lambda g: guild_name(g, lang)
    env.filters["css_string"] = css_string
    return env


@cache
def _stylesheet() -> str:
    return resources.files("agon.printing").joinpath("print.css").read_text(encoding="utf-8")


def _render(template: str, lang: str, **context: Any) -> str:
    env = _environment(check_language(lang))
    return env.get_template(template).render(css=_stylesheet(), **context)


def _event_context(event: Event, ruleset: Ruleset, lang: str) -> dict[str, Any]:
    return {
        "event_name": event.name,
        "ruleset_title": ruleset.title_in(lang),
        "event_date": event.info.get("date", ""),
        "event_location": event.info.get("location", ""),
    }


def _seat_view(seat: Seat) -> dict[str, Any]:
    return {
        "number": seat.number,
        "player": seat.player,
        "wonder": seat.wonder,
        "side": seat.side,
        "start": seat.is_start,
    }


def _tables(plan: RoundLike, ruleset: Ruleset) -> list[dict[str, Any]]:
    return [
        {
            "number": t,
            "seats": [_seat_view(s) for s in seats_of(plan, table, auction=ruleset.auction)],
            "guilds": list(table_guilds(plan, table)),
        }
        for t, table in enumerate(plan.tables, start=1)
    ]


def seating_by_name_html(event: Event, ruleset: Ruleset, plan: RoundLike, *, lang: str) -> str:
    """The seating list of a round, players in alphabetical order with their table and seat."""
    rows = [
        {"player": seat["player"], "table": table["number"], "seat": seat["number"], **seat}
        for table in _tables(plan, ruleset)
        for seat in table["seats"]
    ]
    rows.sort(key=lambda r: sort_key(r["player"]))
    # more than fit one column on a page: two halves side by side, read down the left half first
    half = (len(rows) + 1) // 2 if len(rows) > 28 else len(rows)
    lines = [
        [
            rows[i],
            *([rows[i + half]] if i + half < len(rows) else [None] if half < len(rows) else []),
        ]
        for i in range(half)
    ]
    return _render(
        "seating_by_name.html",
        lang,
        round_number=plan.number,
        lines=lines,
        halves=2 if half < len(rows) else 1,
        auction=ruleset.auction,
        **_event_context(event, ruleset, lang),
    )


def seating_by_table_html(event: Event, ruleset: Ruleset, plan: RoundLike, *, lang: str) -> str:
    """The seating of a round table by table: seat order, start player, wonders and sides."""
    return _render(
        "seating_by_table.html",
        lang,
        round_number=plan.number,
        tables=_tables(plan, ruleset),
        round_wonders=list(plan.wonders),
        round_guilds=list(plan.guilds),
        auction=ruleset.auction,
        **_event_context(event, ruleset, lang),
    )


def table_cards_html(
    event: Event,
    ruleset: Ruleset,
    plan: RoundLike,
    *,
    lang: str,
    wifi: WifiNetwork | None = None,
) -> str:
    """One card per table (A4, to stand on the table): seats, drawn wonders, sides and guilds;
    with ``wifi``, the venue's network as a QR code a phone joins with one scan, and in words."""
    return _render(
        "table_cards.html",
        lang,
        round_number=plan.number,
        tables=_tables(plan, ruleset),
        round_wonders=list(plan.wonders),
        auction=ruleset.auction,
        sides_drawn=plan.sides is not None,
        wifi=wifi_context(wifi),
        **_event_context(event, ruleset, lang),
    )


def wifi_context(wifi: WifiNetwork | None) -> dict[str, str | None] | None:
    """What a printout shows of the venue network: its name, password and QR code (data URI)."""
    if wifi is None:
        return None
    import segno

    qr = str(segno.make(wifi.qr_data(), error="m").svg_data_uri(scale=4, border=2))
    return {"ssid": wifi.ssid, "password": wifi.password, "qr": qr}


def _qr_data_uri(url: str) -> str:
    import segno

    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


def score_sheets_html(
    event: Event,
    ruleset: Ruleset,
    plan: RoundLike,
    *,
    lang: str,
    links: Mapping[int, TableLink] | None = None,
) -> str:
    """Score sheets like the paper 7 Wonders score pad, one page per table.

    Tournament, round, table and the seat order head the page; the seven score categories, the
    total, the coins left (a tie-break) and — in auction rulesets — the bid follow, one column per
    player, then a signature line per player. ``links`` maps table numbers to the table's URL and
    PIN, printed as a QR code; without one the box is left blank to be filled in by hand.
    """
    tables = _tables(plan, ruleset)
    for table in tables:
        link = (links or {}).get(table["number"])
        table["link"] = (
            {"url": link.url, "pin": link.pin, "qr": _qr_data_uri(link.url)} if link else None
        )
    _ = translator(lang).gettext
    categories = [(c, _(SCORE_CATEGORIES[c])) for c in SCORE_PAD_CATEGORIES]
    return _render(
        "score_sheets.html",
        lang,
        round_number=plan.number,
        tables=tables,
        categories=categories,
        auction=ruleset.auction,
        **_event_context(event, ruleset, lang),
    )


def standings_html(
    event: Event,
    standings: Standings,
    *,
    lang: str,
    after_round: int | None = None,
    marks: Mapping[str, Sequence[Mark]] | None = None,
) -> str:
    """The standings: rank, player, points, each tie-break, games, and what decided each place.

    ``marks``: each player's marks (late entry, dropped, absent from the final, a game left
    during play: :mod:`agon.i18n.marks`), printed beside the name with a legend; by default
    what the event file tells (:func:`agon.i18n.marks.event_marks`)."""
    ruleset = standings.ruleset
    shown = [c for c in ruleset.standings_tie_breakers if c != "lot"]
    if marks is None:
        marks = event_marks(event.players, event.rounds)
    texts = {name: marks_in(m, lang) for name, m in marks.items()}
    rows = [
        {
            "rank": row.rank,
            "player": row.player,
            "marks": texts.get(row.player, ()),
            "points": format_number(row.totals.points, "points", lang),
            "tiebreaks": [format_number(row.tiebreaks[c], c, lang) for c in shown],
            "games": row.totals.games,
            "decided_by": criterion_label(row.decided_by, lang, short=True)
            if row.decided_by
            else "",
        }
        for row in standings.rows
    ]
    chain = criteria_chain(standings)
    used = sorted(
        {r.decided_by for r in standings.rows if r.decided_by},
        key=lambda c: chain.index(c) if c in chain else len(chain),
    )
    # places decided by a tie-break get the sentence that explains them (equal points only)
    reasons = [
        explain_in(standings, above.player, row.player, lang)
        for above, row in zip(standings.rows, standings.rows[1:], strict=False)
        if row.decided_by not in (None, "points")
    ]
    legend_ = [(criterion_label(c, lang, short=True), criterion_label(c, lang)) for c in used]
    return _render(
        "standings.html",
        lang,
        rows=rows,
        criteria=[criterion_label(c, lang, short=True) for c in shown],
        legend=legend_,
        marks_legend=legend(texts.values()),
        reasons=reasons,
        rounds_played=after_round if after_round is not None else len(event.rounds),
        **_event_context(event, ruleset, lang),
    )


def to_pdf(html: str) -> bytes:
    """Render printout HTML to PDF with WeasyPrint.

    Raises:
        InvalidInput: WeasyPrint (the ``print`` extra) or the Pango library it needs is missing.
    """
    try:
        import weasyprint
    except (ImportError, OSError) as exc:
        raise InvalidInput(
            "printing needs WeasyPrint and Pango: pip install 'agon-tournaments[print]' and "
            f"apt-get install libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core ({exc})"
        ) from None
    base = str(resources.files("agon.printing").joinpath("templates"))
    pdf = weasyprint.HTML(string=html, base_url=base).write_pdf()
    assert isinstance(pdf, bytes)
    return pdf


def links_for(
    plan: RoundLike, *, url_base: str, seed: str, tables: Sequence[int] | None = None
) -> dict[int, TableLink]:
    """Table links ``{url_base}/r{round}/t{table}`` with PINs derived from ``seed`` (see :func:`derive_pin`).

    Raises:
        InvalidInput: a URL base that is not http(s).
    """
    if not url_base.startswith(("http://", "https://")):
        raise InvalidInput(f"--url-base must start with http:// or https://, got {url_base!r}")
    numbers = tables if tables is not None else range(1, len(plan.tables) + 1)
    base = url_base.rstrip("/")
    return {
        t: TableLink(url=f"{base}/r{plan.number}/t{t}", pin=derive_pin(seed, plan.number, t))
        for t in numbers
    }
