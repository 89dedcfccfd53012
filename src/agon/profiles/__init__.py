"""Player profiles: one person across events (pure domain, no I/O).

A tournament's player (a registrant or an imported name) is linked by the director to a profile,
so that ratings (:mod:`agon.ratings`) and series (:mod:`agon.series`) count the person's events
together whatever the entries were called; unlinked players are still matched by name and tag.

Modules:

- ``plot`` — The rating-history plot of a player page as plain geometry (an SVG is drawn from it)
- ``profiles`` — Profiles: their ids, names and tags, and the suggestions which profile an
  entry is
"""
