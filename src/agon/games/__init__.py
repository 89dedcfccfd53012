"""Game engines played by the rules (pure domain: no web, no database).

Modules (the game commands are the command line's: :mod:`agon.commands.seven_wonders`,
:mod:`agon.commands.ocw`):

- ``balance`` — Balance statistics shared by the games' balance reports (pure: no I/O but the
  optional plot)
- ``botspec`` — ``--bots`` of both games' ``simulate``, ``balance`` and ``play``: one syntax, one
  meaning, one error
- ``distribute`` — Run many seeded games on local processes or on a Ray cluster, with the
  single-process result
- ``levels`` — The bots an online seat may take, and the levels ``easy`` … ``expert``: data, not
  code
- ``ladder`` — A bot ladder: many seeded games between bot kinds, rated like players (pure, no I/O)
- ``one_card_wonder`` — One Card Wonder (Nat Levan; German edition *Einkartenwunder*): the rules as
  an engine
- ``seven_wonders`` — 7 Wonders (first edition, base game, 3-7 players) played by the rules and
  tournament rulings
"""
