"""The app's routers: public pages, the director's desk, the table face and the JSON API.

Modules:

- ``api`` — The JSON API (OpenAPI at ``/api/openapi.json``): everything the pages do
- ``desk`` — The director's desk: log in, create and run tournaments end to end (forms, PRG, CSRF)
- ``health`` — ``/healthz`` and ``/readyz`` for load balancers and uptime monitors (issue 27):
  cheap, without a login, outside every limit
- ``people`` — People on the web (issue 27): log in with an e-mail, organisations, invitations,
  resets (the JSON API)
- ``people_pages`` — The people's pages (issue 27): ``/people`` and the pages a one-time link
  opens
- ``play`` — The online-play JSON API (issue 12), thin over :mod:`agon.play`
- ``play_pages`` — The browser faces of online play (issue 12): the lobby, a seat's table, the
  spectator view
- ``play_replay`` — The replay page of a finished online game (issue 28; docs/online-play.md,
  "Replays")
- ``play_turns`` — "My games": which seats a browser holds must act (``POST /api/play/turns``),
  and the page that asks
- ``profiles`` — Player profiles: the public player page with its rating plot, the desk's page
  linking a tournament's players to profiles, and their JSON API
- ``public`` — The public face (no login, read-only): standings, where do I sit, results, rank
  chart, clock
- ``registration`` — Online registration: the public form, a registrant's private page, the
  desk's page and the JSON API
- ``series`` — The public series pages: ``/series`` lists the series the app was started with, and
  ``/series/{name}`` shows one's standings — every place with its reason, every player's events
- ``sync`` — The sync API (issue 29): a laptop's ``agon sync push``/``watch`` sends its event's
  journal here
- ``table`` — The table face: a table's players enter and confirm their result on a phone
"""
