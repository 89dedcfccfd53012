"""The phone's wonder auction shows each wonder with its drawn side, and after a refusal of a bid
typed for another turn it offers the smallest legal bid (issue 32, 2. and 3.)."""

from __future__ import annotations

import html
import re

from sqlalchemy.orm import Session

from agon.services import rounds
from tests.web.conftest import TestClient
from tests.web.test_auction import TABLE, unlock, view
from tests.web.test_auction import ludo as ludo  # the fixture


def sides_of(db: Session) -> dict[str, str]:
    rnd = rounds.get_round(db, tournament="ludo", number=1)
    db.rollback()
    assert rnd.sides, "Ludolimpico draws the sides (drawn-once)"
    return dict(rnd.sides)


def test_the_phone_auction_names_the_drawn_side(client: TestClient, db: Session, ludo: str) -> None:
    token = unlock(client, "de")
    sides = sides_of(db)
    v = view(db)
    page = html.unescape(client.get(f"{TABLE}?lang=de").text)
    options = re.findall(r'<option value="(\w+)"[^>]*>([^<]*)</option>', page)
    assert options and {w for w, _ in options} == set(v.available)
    for w, label in options:
        assert label.endswith(f" {sides[w]}"), label
    first = v.available[0]
    posted = client.post(
        f"{TABLE}/auction",
        data={"player": v.opener, "verb": "opens", "wonder": first, "bid": "1",
              "seen": "0", "csrf_token": token},
    )  # fmt: skip
    page = html.unescape(client.get(f"{TABLE}?lang=de").text)
    lot = re.search(r"<p>([^<]*) wird versteigert", page)
    assert lot and lot.group(1).endswith(f" {sides[first]}"), page[:3000]
    # the message after the bid and the list of actions so far name the side too
    recorded = re.search(
        r"(?:Erfasst|Recorded): ([^<]*) (?:eröffnet|opens) ([^<]*) (?:mit|with)",
        html.unescape(posted.text),
    )
    history = re.search(r"<li>[^<]* eröffnet ([^<]*) mit 1 SP</li>", page)
    assert recorded and recorded.group(2).endswith(f" {sides[first]}"), page[:3000]
    assert history and history.group(1).endswith(f" {sides[first]}"), page[:3000]


def test_an_out_of_turn_bid_is_refused_with_the_smallest_legal_bid_offered(
    client: TestClient, db: Session, ludo: str
) -> None:
    token = unlock(client)
    v = view(db)
    opener, stale = v.opener, view(db)
    # another phone: the opener opens for 2, so a raise needs 3
    client.post(
        f"{TABLE}/auction",
        data={"player": opener, "verb": "opens", "wonder": v.available[0], "bid": "2",
              "seen": "0", "csrf_token": token},
    )  # fmt: skip
    v = view(db)
    assert v.minimum == 3 and v.to_act is not None
    # this phone still shows the opening: the opener opens with 0 (out of turn now)
    r = client.post(
        f"{TABLE}/auction",
        data={"player": stale.to_act or "", "verb": "opens", "wonder": v.available[0],
              "bid": "0", "seen": "0", "csrf_token": token},
    )  # fmt: skip
    assert r.status_code == 409
    box = re.search(r'<input id="ab-1" name="bid"[^>]*>', r.text)
    assert box, r.text[-2000:]
    assert 'min="3"' in box.group(0) and 'value="3"' in box.group(0), box.group(0)
