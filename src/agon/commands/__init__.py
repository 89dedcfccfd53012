"""Click commands of the tournament face of the ``agon`` command line.

Modules (the ``agon`` command loads them lazily, :data:`agon.cli.SUBCOMMANDS`):

- ``_common`` — What every director command shares: the database session, ``-t/--tournament``,
  ``--actor``
- ``_standings_text`` — The standings as ``agon standings FILE`` prints them, without click: the
  compiled core's one pass and the table's layout
- ``_read_text`` — What the director's read commands print, without click: a round, the standings
  table of a stored tournament
- ``_json`` — ``--json`` on the read commands: one option, one way to turn service objects into
  JSON
- ``auction`` — ``agon auction``: run a wonder auction (Ludolimpico 2015, 2.1) interactively or
  from a script
- ``db`` — ``agon db …``: migrate the database, rebuild the state from the journal, verify it
- ``fast_reads`` — The director's reads without SQLAlchemy or click: ``agon tournament list``,
  ``agon round show [NUMBER]`` and ``agon tournament standings`` on a SQLite database (issue 30)
- ``ladder`` — The ``ladder`` sub-command of ``agon 7w`` and ``agon ocw``: output shared by both
  games
- ``ocw`` — ``agon ocw``: play One Card Wonder in the terminal, simulate bot games, balance report,
  check content files
- ``ocw_terminal`` — What ``agon ocw play`` shows: the table, what a decision is for, why a typed
  action is not possible, and the leader announcements
- ``people`` — ``agon user`` and ``agon org``: people, their roles, organisations (issue 27)
- ``play`` — ``agon play``: online games in the database (issue 26)
- ``player`` — ``agon player …``: register (one or a CSV), fee, check-in, drop/withdraw/expel,
  warn, penalize
- ``printing`` — ``agon print``: PDF printouts of an event file — standings, seating lists, table
  cards, score sheets
- ``profile`` — ``agon profile …``: player profiles across events — list, create, suggest, link,
  unlink, hide, and a profile's page (events, places, rating history)
- ``progress`` — Progress of long work (simulate, balance, ladder, large schedules) on stderr
- ``ratings`` — ``agon rating`` and ``agon series``: ratings and series standings across events
- ``registration`` — ``agon registration …``: open and close a tournament's online registration,
  list it, check in
- ``results`` — ``agon result …``: enter, correct and confirm a table's results
- ``round`` — ``agon round …``: start (seat) a round, show it, close it, seat the final
- ``schedule`` — ``agon schedule``: print a pre-planned schedule with its draws, as a table or as
  JSON
- ``seven_wonders`` — ``agon 7w``: score a sheet, play against bots in the terminal, simulate bot
  matches
- ``standings`` — ``agon standings`` and ``agon validate``: score an event file or just check it
- ``sync`` — ``agon sync``: publish a laptop's event to a hosted agon; the hosted side's sync
  tokens
- ``tournament`` — ``agon tournament …``: create, list, show, choose the default, standings,
  podium, journal, undo
- ``verify`` — ``agon verify``: recompute every draw, seating, opener, re-plan and lot from the
  revealed seed; replay a finished online game from its revealed seed and log
  (:mod:`agon.play.gamefile`)
- ``venue`` — ``agon venue``: the venue's Wi-Fi network of a tournament, for the phones at the tables
- ``verify_journal`` — ``agon verify`` of a journal's hash chain: a journal document (``agon export
  --journal``) or the journals stored in a database (``agon verify --database``;
  :mod:`agon.services.chain`)
"""
