"""agon: run 7 Wonders-family tournaments and play the games by the rules.

The house, in layers (import arrows point down only, tests/test_architecture.py): the pure domain
(``tournament``, ``ratings``, ``series``, ``profiles``, ``people``, ``games``); ``store`` (models,
migrations); ``services`` (journaled use cases) and ``play`` (live game tables); the faces
``commands``/``cli`` (click) and ``web`` (FastAPI), with ``printing`` and ``i18n`` beside them.
Each package's docstring lists its modules. A source file over 800 lines says why near its top in
a line starting ``stays whole:`` (or is split along the parts its docstring names);
tests/test_architecture.py checks both.

Modules and packages:

- ``__main__`` — Allow ``python -m agon``
- ``cli`` — The ``agon`` command: a thin face over the domain and service layers
- ``commands`` — Click commands of the tournament face of the ``agon`` command line
- ``cores`` — agon's compiled cores (Cython), built into agon's own wheel by ``hatch_build.py``
- ``errors`` — The exception tree shared by every layer
- ``extras`` — The optional parts of agon (pip extras) and the one-line error when one is missing
- ``games`` — Game engines played by the rules (pure domain: no web, no database)
- ``i18n`` — Languages: German, Italian and English catalogues, names of wonders and guilds, number
  formats
- ``launch`` — The ``agon`` command's entry point: ``agon standings FILE`` without click,
  everything else by :func:`agon.cli.main`
- ``people`` — People and their roles: who may do what, as pure rules (no database, no web)
- ``play`` — Online play (issue 12): both games served to browsers, seats by secret token, bots
  filling seats, every accepted action stored before it is acknowledged
- ``printing`` — PDF printouts: seating lists, table cards, score sheets and standings (A4,
  de/it/en)
- ``profiles`` — Player profiles: one person across events (pure domain, no I/O)
- ``ratings`` — Multiplayer ratings with uncertainty from whole table results (pure domain, no I/O)
- ``schemas`` — JSON Schemas of agon's file formats, shipped with the package
- ``series`` — Series: one ranking across several events, as data (pure domain, no I/O)
- ``services`` — The service layer: keyword-only functions over a SQLAlchemy session, with real
  return types
- ``shipped`` — The data files shipped inside agon's packages (cards, wonders, rulesets), read as
  text
- ``store`` — Persistence: SQLAlchemy 2 models, the engine/session factory and the Alembic
  migrations
- ``tournament`` — Pure tournament domain: rulesets, event files, scoring, standings (no I/O beyond
  reading files)
- ``web`` — The web app: the director's desk, the tables' phones, the public standings and a JSON
  API
"""

__version__ = "0.19.0"

#: The distribution's name on PyPI (``pip install agon-tournaments``): ``agon`` there is another
#: project's. The import package and the command stay ``agon``.
DISTRIBUTION = "agon-tournaments"
