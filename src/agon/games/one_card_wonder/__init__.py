"""One Card Wonder (Nat Levan; German edition *Einkartenwunder*): the rules as an engine.

Entry points: :class:`~agon.games.one_card_wonder.engine.Game` (seeded API with legal actions,
observations and apply), :func:`~agon.games.one_card_wonder.content.load_content` (validated
content files) and the bots in :mod:`agon.games.one_card_wonder.bots`.
"""
