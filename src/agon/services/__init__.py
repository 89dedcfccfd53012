"""The service layer: keyword-only functions over a SQLAlchemy session, with real return types.

The command line (``agon tournament …``) and the web app are two faces on exactly these functions.
Every change goes through :func:`agon.services.core.record`: one transaction appends a journal entry
and applies it to the projection tables, or — on any error — changes nothing.

Modules (a subpackage re-exports its public names):

- ``auctions`` — A table's wonder auction step by step (Ludolimpico 2.1), as the table's phones run
  it
- ``chain`` — The journal as a hash chain: each entry carries the hash of the one before it
- ``core`` — The journal machinery: record a change, replay the journal, undo the last change
- ``exchange`` — Standings, the event file (export/import) and the CSV standings for series
  organizers
- ``floor`` — The tournament floor: the round clock and disputed results, journaled like every
  change
- ``journal`` — The journal's public face: list it, undo the last change, rebuild the state, verify
  it
- ``moving`` — Moving a tournament to another database with nothing lost: the journal document
- ``offline`` — Entries sent exactly once: a table phone's result or confirmation, an API
  client's result, each with an idempotency key; a phone's queued result that finds the table
  changed becomes a dispute
- ``online`` — Online tournament tables: a round seated at online games, their results journaled by
  the games
- ``online_games`` — The interface between online tournament tables (:mod:`agon.services.online`)
  and the online game service: what a table's game is created from, what a game answers at its end
- ``online_host`` — The online game service (:mod:`agon.play`) as the
  :class:`~agon.services.online.GameHost` of tournament tables
- ``people`` — People and roles: accounts, organisations, grants, one-time links, sessions
- ``players`` — Players: registration (one by one or from CSV), entry fee, check-in, drops,
  warnings, penalties
- ``preview`` — Dry runs: make a change in a transaction, look at the result, roll it back
- ``profiles`` — Player profiles: make, list and hide them, suggest and link the profile of a
  tournament's player, and the public player page (events, places, rating history)
- ``public`` — What the director's reads and the round's pages show: a round with its tables and
  results, and where a tournament stands (its podium)
- ``registration`` — Online registration before the day: open and close it, register, withdraw,
  check in at the venue
- ``results`` — Results per table: enter, correct (optimistic version check), confirm
- ``rounds`` — Rounds: start one (seated by the ruleset's method or by the director), close it, the
  final
- ``schemas`` — Input and output types of the services: frozen dataclasses, separate for what comes
  in (``…Create``/``…In``) and what goes out (``…Public``)
- ``seating`` — Seating a round by the ruleset's method: the bridge to
  :mod:`agon.tournament.seating`
- ``series`` — Series across events: read a series file, load its events (files or stored
  tournaments), and compute the standings with :mod:`agon.series` (pure)
- ``sync`` — The hosted side of ``agon sync``: sync tokens, where a synced copy stands, receiving
  a laptop's journal (a synced copy is read-only here)
- ``sync_client`` — The laptop's side of ``agon sync``: push a tournament's journal to a hosted agon
- ``tournaments`` — Tournaments: create one from a ruleset, look it up, remember the default one
- ``venue`` — The venue's Wi-Fi network of a tournament: set, show, clear (kept out of the journal)
- ``views`` — Read views of a tournament's stored rows, without SQLAlchemy: the ruleset, the event,
  a round, where the tournament stands
"""
