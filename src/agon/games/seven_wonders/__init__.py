"""7 Wonders (first edition, base game, 3-7 players) played by the rules and tournament rulings.

Modules:

- ``bots`` — Bots: random, a rule-based heuristic, and determinized Monte Carlo tree search
- ``codes`` — Integer action codes and observation vectors for learning libraries (PettingZoo,
  OpenSpiel)
- ``core`` — The bridge to the compiled 7 Wonders core (``agon.cores.seven_wonders``, compiled when
  agon is built)
- ``data`` — Cards and wonders of 7 Wonders (first edition, base game), loaded from the TOML data
  files
- ``engine`` — The 7 Wonders engine: setup, simultaneous turns, trading, wonder powers, military,
  scoring
- ``generators`` — A 7 Wonders game's random generator: the seed drives the deal, the wonders, the
  sides and the guilds through it (``Game(..., generator=...)``)
- ``fast`` — Random legal play through the compiled core (``agon.cores.seven_wonders``, compiled
  when agon is built), the engine as reference
- ``names`` — The names of the base game's wonders and guilds, read from the game data (one place)
- ``openspiel`` — 7 Wonders as an OpenSpiel game (optional: ``pip install open-spiel``; module
  ``pyspiel``)
- ``payments`` — Ways to pay a resource cost with one's own production and neighbour trading
- ``pz`` — PettingZoo ``ParallelEnv`` adapter (optional extra ``agon-tournaments[rl]``: pettingzoo, gymnasium,
  numpy)
- ``rules`` — Card and stage effects compiled from the data files into flat records the engine
  applies
- ``scoresheet`` — The score calculator a tournament director uses to check a 7 Wonders score sheet
- ``scoring`` — Scoring a city: victory points of every category (rulebook, "End of the game"),
  with its neighbours for the cards and guilds that count theirs
- ``sim`` — 7 Wonders bot games one record per game, playable in chunks (local processes or Ray),
  and the games as balance outcomes (:mod:`agon.games.balance`)
- ``state`` — What a 7 Wonders game is made of: the illegal-play policies, actions, cities (mutable
  records of small ints, for speed) and what a player sees of them (:class:`Observation`)
"""
