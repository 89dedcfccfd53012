"""One Card Wonder (Nat Levan; German edition *Einkartenwunder*): the rules as an engine.

Entry points: :class:`~agon.games.one_card_wonder.engine.Game` (seeded API with legal actions,
observations and apply), :func:`~agon.games.one_card_wonder.content.load_content` (validated
content files) and the bots in :mod:`agon.games.one_card_wonder.bots`.

Modules: ``engine`` (the game: setup, API, frame loop, turns, trade; built on the layers
``state``, ``actions``, ``building`` and ``leaders``), ``content`` (the cards, wonders, boards and
leaders files), ``effects`` (the effect handlers by name), ``bots``, ``sim`` (bot games and
balance), ``native`` (the compiled core, same games). The command line is
:mod:`agon.commands.ocw`.
"""
