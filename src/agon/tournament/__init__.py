"""Pure tournament domain: rulesets, event files, scoring, standings (no I/O beyond reading files).

Modules (a subpackage re-exports its public names):

- ``auction`` — The wonder auction of Ludolimpico 2015 (2.1, "Asta per aggiudicarsi la Meraviglia")
- ``bulk`` — The standings of a big event file, fast: one pass over the decoded document
- ``data`` —
- ``draws`` — Verifiable draws: wonders, guilds and wonder sides, all derived from the tournament
  seed
- ``event`` — The event file: agon's interchange format for a tournament's players and results
- ``exact_grouping`` — Exact search for a schedule without repeat encounters, as a SAT problem
  (CaDiCaL via python-sat)
- ``incremental`` — Standings kept up to date table by table, for a server that shows them after
  every change
- ``limits`` — The ranges every number a person enters must lie in
- ``names`` — The one rule for every name a person types: players, tags, tournaments
- ``registration`` — Online registration before the day: capacity, the waiting list and the
  deadline (pure rules)
- ``quick_table`` — The printed standings of a plain event file with the fewest imports (issue
  30)
- ``ruleset`` — Tournament rulesets as data: load, validate and describe them
- ``ruleset_facts`` — The built-in rulesets as the compiled one pass reads them
- ``safeload`` — One safe loader for every JSON and YAML document agon reads from a user
- ``sanity`` — Plausibility of a table's scores: warnings (never refusals) for what looks like a
  typo
- ``scoring`` — Scoring one game at one table: placing scores, virtual players, places, rank
  points, shares
- ``score_pad`` — The official 7 Wonders score pad's columns, in pad order
- ``seating`` — Seating: pre-planned schedules (BONN-SPIELT 2018) and Swiss rounds (Ludolimpico
  2015)
- ``standings`` — Tournament standings: totals over all games, the ruleset's tie-break chain, and
  the reasons
- ``tables`` — Table sizes for a round: how a room of players is split into tables
- ``wifi`` — The venue's Wi-Fi network, as a director sets it for the phones at the tables (pure rules)
"""
