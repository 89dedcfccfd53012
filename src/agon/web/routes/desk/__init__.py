"""The director's desk: log in, create and run tournaments end to end (forms, PRG, CSRF).

Each form posts to a route that calls one service function and redirects back with a message;
a service error is shown on an error page with its 4xx status (see :mod:`agon.web.app`).

Modules (one router each, joined here in this order: a fixed path such as ``/desk/login`` comes
before ``/desk/{slug}``):

- ``common`` — the router's settings, the form reader, the redirect back with a message
- ``login`` — the login form, a one-time login link (``agon desk link``), logout
- ``tournaments`` — the desk's home, creating a tournament, a tournament's overview
- ``players`` — registration, CSV import, check-in, fees, drops, sanctions
- ``rounds`` — start a round or the final; the round page, its tables' results, auctions and
  confirmations; closing a round; the round clock
- ``steps`` — confirmation steps: a change shown as its dry run before it is made
- ``records`` — undo, the journal, PDF printouts, the JSON export
- ``venue`` — the venue's Wi-Fi network for the phones (a QR code on the printed cards)
"""

from __future__ import annotations

from fastapi import APIRouter

from agon.web.routes.desk import login, players, records, rounds, steps, tournaments, venue

router = APIRouter()
for _part in (login, tournaments, players, rounds, steps, records, venue):
    router.include_router(_part.router)
