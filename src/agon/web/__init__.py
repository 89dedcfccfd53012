"""The web app: the director's desk, the tables' phones, the public standings and a JSON API.

:func:`agon.web.app.create_app` builds it; ``agon serve`` runs it with uvicorn.

Modules and packages:

- ``access`` — Who may do what on the web (issue 27): a request's person, its action, the role check
- ``app`` — The app factory: ``create_app(settings)`` builds a FastAPI app over the service layer
- ``attempts`` — The web's limits, counted in the database (issue 26): shared by every server
  process and kept across restarts
- ``bodylimit`` — The cap on request bodies (issue 26): 413 before more than the limit is read, on
  every route
- ``cli`` — ``agon serve``: run the web app with uvicorn (optionally with a demo tournament);
  ``agon secret``: where the app's secret key lives, and rotating it
- ``demo`` — A demo tournament for ``agon serve --demo``: BONN-SPIELT rules, 13 players, a round
  played
- ``deps`` — FastAPI dependencies: the app's state, database sessions, language, director, CSRF
- ``errors`` — How the web answers a service error: its HTTP status (style guide 5: one mapping to
  4xx)
- ``floor`` — The tournament floor as the web app uses it: the round clock and disputed tables
- ``forms`` — Reading a table's results from a submitted form (desk or phone)
- ``limits`` — The ranges the web face accepts for numbers (issue 10, defect 5)
- ``logs`` — What ``agon serve`` logs (issue 27): the level, text or JSON lines, and an access log
  that is opt-in and never holds a secret
- ``loginlinks`` — One-time director login links (``agon desk link``, issue 26)
- ``mail`` — Invitation and reset links by e-mail, when the host configured SMTP (off by default)
- ``metrics`` — Prometheus metrics of ``agon serve`` (issue 27), with ``prometheus-client``
- ``outage`` — While the database is away (PostgreSQL stopped or restarting, a closed port, a file
  that cannot be opened), the app answers 503 with ``Retry-After`` — an HTML page for pages, JSON
  for ``/api`` — instead of a 500 and a traceback per request; it logs one warning per outage
  (:class:`agon.store.db.Outage`) and serves again by itself once the database is back (the engines
  check a pooled connection before using it, so the first request after the outage reconnects)
- ``endview`` — The end screen of an online game (issue 28): the winner and the ranks first, then
  the score categories as a compact table that fits a 360 px phone, and a bar chart drawn as SVG
- ``pagecache`` — The pages phones poll, answered from memory without the web framework's routing
- ``playclock`` — A seat's page's per-turn clock: the seconds left and the seats that timed out
- ``playgate`` — The pages' one door to the online game service
  (:class:`agon.play.service.PlayService`)
- ``ocwdraw`` — One Card Wonder drawn as SVG: a wonder card's stages joined by their arrows, a
  board's storage places with the stored items as icons (geometry and spoken labels).
- ``ocwnews`` — What a One Card Wonder table announces: a leader's interruption (a dialog for
  everybody) and the sentence a screen reader hears on a push.
- ``playview`` — What the online-play pages show: a seat's state (the JSON of ``GET
  /api/play/{id}``) turned into plain records for the templates, with every word in the reader's
  language
- ``printouts`` — PDF printouts of a stored tournament, made by :mod:`agon.printing` (WeasyPrint)
- ``proxy`` — What lies between a reverse proxy or an uptime monitor and the app (issue 27):
  ``HEAD`` wherever ``GET`` works, the scheme a trusted proxy reports, and a path prefix
  (``--root-path``)
- ``qr`` — QR codes of seat links (online tournament tables) and of the venue's Wi-Fi, as inline SVG
  (segno, pure Python)
- ``rawanswer`` — A whole answer sent from ASGI middleware, before or instead of the app (413,
  503)
- ``renderproc`` — The standings pages a write changes, rendered in a process of their own (issue
  30): the writing thread waits on a pipe, not holding the interpreter lock the phones' reads need
- ``roundsetup`` — What each table of a round plays with, as the desk's round page shows it: the
  guilds in play (the first players + 2 of the draw) and each seat's wonder and side
- ``routes`` — The app's routers: public pages, the director's desk, the table face and the JSON
  API
- ``secret`` — The app's secret key: kept out of the database (issue 10, defect 8)
- ``security`` — Passwords, CSRF tokens, table PINs and the brake on guessing PINs
- ``sessions`` — Director sessions that can be revoked (issue 10, defect 9)
- ``settings`` — Settings of the web app: ONE typed source (pydantic-settings), read from the
  environment when asked (never at import time)
- ``sevenview`` — The 7 Wonders seat page on a phone (issue 28): cards' kinds and effects as icons,
  payments in words, the production bar with the neighbours' prices, a running VP estimate
- ``state`` — What the app holds while it runs: settings, database engines and session factories,
  caches
- ``storyview`` — The table's story in words (issue 28): :mod:`agon.play.story`'s turns as
  sentences in the reader's language, for the seat, watch and replay pages
- ``tableview`` — The table of an online game for the templates: playview's table, and for a 7
  Wonders seat sevenview's phone extras
- ``streams`` — Event streams under hostile clients (issue 26): a cap per client address, and the
  end of a seat's stream once its token is revoked
- ``templating`` — Server-rendered pages: one Jinja2 environment per language, autoescaped, with
  gettext
- ``views`` — What the pages and the API show, computed from the services (no rules of their own
  here)
"""
