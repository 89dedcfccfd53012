"""Online play (issue 12): both games served to browsers, seats by secret token, bots filling
seats, every accepted action stored before it is acknowledged.

Layer: beside ``services/`` — it uses ``games/`` and ``store/``; ``web/`` uses it, never the
reverse. Entry points: :class:`agon.play.service.PlayService` (a server process's games) and
:mod:`agon.play.store` (games in the database, usable without a server).
"""
