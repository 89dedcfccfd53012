"""Online play (issue 12): both games served to browsers, seats by secret token, bots filling
seats, every accepted action stored before it is acknowledged.

Layer: beside ``services/`` — it uses ``games/`` and ``store/``; ``web/`` uses it, never the
reverse. Entry points: :class:`agon.play.service.PlayService` (a server process's games) and
:mod:`agon.play.store` (games in the database, usable without a server).

Modules:

- ``adapters`` — One interface over both engines for online play (issue 12)
- ``bots`` — Bots' thinking for online play, runnable in another process (issue 12)
- ``catalog`` — The games' static material for the faces of online play (the contents of the box)
- ``clocks`` — Per-turn clocks of online games: their seconds (data), the table's ``timeout N``
  action, a natural delay for bot moves
- ``gamefile`` — A finished online game as a file anyone can check (issue 26; docs/online-play.md)
- ``lockstep`` — The compiled 7 Wonders core kept in step with an online game's engine (issue 30)
- ``live`` — Across worker processes: PostgreSQL's LISTEN/NOTIFY carries every accepted action
  (issue 12)
- ``presence`` — Which seats of an online game have a client connected, and since when (issue 12)
- ``replay`` — Replaying a stored online game: does its log still play, action by action, from its
  setup?
- ``replays`` — A finished online game step by step (issue 28; docs/online-play.md, "Replays")
- ``seeds`` — Who may know a game's seed, and when (issue 26; docs/online-play.md, "Seeds")
- ``service`` — The online game service (issue 12): games in memory, rebuilt from the database,
  with bots
- ``story`` — The table's story (issue 28): what happened at an online table, turn by turn, from
  its log
- ``store`` — Online games in the database: create a game, read its log, append actions (issue 12)
- ``writer`` — Group commit for online play: one writer thread stores the actions of many games at
  once
"""
