"""The app's routers: public pages, the director's desk, the table face and the JSON API.

Modules:

- ``api`` — The JSON API (OpenAPI at ``/api/openapi.json``): everything the pages do
- ``desk`` — The director's desk: log in, create and run tournaments end to end (forms, PRG, CSRF)
- ``play`` — The online-play JSON API (issue 12), thin over :mod:`agon.play`
- ``play_pages`` — The browser faces of online play (issue 12): the lobby, a seat's table, the
  spectator view
- ``play_turns`` — "My games": which seats a browser holds must act (``POST /api/play/turns``),
  and the page that asks
- ``public`` — The public face (no login, read-only): standings, where do I sit, results, rank
  chart, clock
- ``series`` — The public series pages: ``/series`` lists the series the app was started with, and
  ``/series/{name}`` shows one's standings — every place with its reason, every player's events
- ``table`` — The table face: a table's players enter and confirm their result on a phone
"""
