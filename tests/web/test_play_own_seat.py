"""A seat's own page paints its seat connected from the first paint: the page showing it is its
client, whose event stream only opens once the page has loaded (issue 32, 4.)."""

from __future__ import annotations

from agon.i18n import translator
from tests.web.conftest import TestClient
from tests.web.test_play_presence import SEATS, TABLE_META


def test_the_own_seat_is_connected_at_first_paint(client: TestClient) -> None:
    service = client.app.state.play  # type: ignore[attr-defined]
    created = service.create_game(game="7w", seed="own-seat", seats=SEATS, meta=TABLE_META)
    gid, ann, bea = created.game_id, created.seats[0].token, created.seats[1].token
    for lang in ("de", "it", "en"):
        _ = translator(lang).gettext
        on, off = _("connected"), _("not connected")
        # no stream is open: Ann's page says Ann is connected, Bea (whose page is closed) is not
        page = client.get(f"/play/{gid}?token={ann}&lang={lang}").text
        assert f"Ann</span>: {on}</li>" in page and f"Bea</span>: {off}</li>" in page
        board = client.get(f"/play/{gid}/board?token={bea}&lang={lang}").text
        assert f"Bea</span>: {on}</li>" in board and f"Ann</span>: {off}</li>" in board
        # the spectator's view has no own seat
        watch = client.get(f"/play/{gid}/watch?lang={lang}").text
        assert f"Ann</span>: {off}</li>" in watch and f"Bea</span>: {off}</li>" in watch
