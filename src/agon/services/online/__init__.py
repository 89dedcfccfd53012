"""Online tournament tables: a round seated at online games, their results journaled by the games.

A director seats a round *online* (``agon round start --online``, the desk's "online" choice):
every table becomes a game of the online game service (:mod:`agon.play`) with the round's draws —
seat k plays the k-th drawn wonder (Bonn 2018, "in der gezogenen Reihenfolge"), or the wonder won
in the table's auction (Ludolimpico 2.1; such a table's game starts once its auction is over),
on the drawn side where the ruleset draws sides (Ludolimpico 2.: "anche il lato"); where the
players choose their side (``[game] wonder_sides = "choice"``, Bonn 2018: "wählen die Teilnehmer
eigenständig eine der beiden Seiten") the game begins with every seat choosing its side at once,
hidden until all have chosen (bots choose by their own policy), and the result records the side
played. Each game's seed is a keyed hash of the tournament's seed, round and table
(:func:`agon.tournament.draws.online_game_seed`): the commitment to the tournament seed covers the
games, and a game's seed, revealed when it ends, tells nothing of the tournament seed.

When a game is over its result — VP, coins, wonder, side and the score-pad breakdown — is recorded
as **confirmed by the game** (action ``online.result``): no score sheet, no typing. The recording
decides under the tournament's lock whether the game's result is already in the journal, so two
workers that both see the end record it once. An undone ``online.result`` is not recorded again by
itself: the director took it back on purpose and enters the table's result by hand.

Bots: with ``bots`` on, a human seat whose player has not been connected for ``grace_minutes``
(never joined, or gone) is handed to a bot (action ``online.bot``). The round clock applies as the
ruleset says: with ``[rounds] time_up = "finish-age"`` (Ludolimpico 1.), when the clock runs out,
each running game is told to end with the age it is in (the game stops there: no further age is
dealt) and the journal records those ages (action ``online.time_up``); once the game has ended
its result is taken as it stands then.

The games themselves live in the game service; this module talks to it through the small
:class:`GameHost` interface (:mod:`agon.services.online_host` adapts :mod:`agon.play` to it), and
only ever *journals decisions*: which game a table plays, which seat a bot took, what the game
scored. Replaying the journal never creates or changes a game.

The modules (this package re-exports their public names; each imports only those above it):

- :mod:`~agon.services.online.state` — the options and state of an online round, the game host;
- :mod:`~agon.services.online.opening` — seating a round online (``online.open``, ``online.game``);
- :mod:`~agon.services.online.results` — results from the games (``online.result``);
- :mod:`~agon.services.online.sweep` — bots for absent players, the clock's end, the sweep
  (``online.bot``, ``online.time_up``);
- :mod:`~agon.services.online.clock` — the round clock at a game;
- :mod:`~agon.services.online.links` — which game and seat a player opens.
"""

from __future__ import annotations

from agon.services.online.clock import GameClock, game_clock
from agon.services.online.links import SeatLink, seat_link, seat_links
from agon.services.online.opening import seat_online, start_round_online
from agon.services.online.results import record_game_result, result_payload
from agon.services.online.state import (
    BOTS,
    MAX_GRACE_MINUTES,
    OnlineOptions,
    OnlineRound,
    OnlineSeat,
    OnlineTable,
    get_host,
    online_info,
    online_round,
    set_host,
    watch_path,
)
from agon.services.online.sweep import SweepReport, sweep, sweep_all
from agon.services.online_games import (
    CreatedTable,
    GameHost,
    GameOrder,
    SeatKind,
    SeatOrder,
    SeatScore,
)

__all__ = [
    "BOTS",
    "MAX_GRACE_MINUTES",
    "CreatedTable",
    "GameClock",
    "GameHost",
    "GameOrder",
    "OnlineOptions",
    "OnlineRound",
    "OnlineSeat",
    "OnlineTable",
    "SeatKind",
    "SeatLink",
    "SeatOrder",
    "SeatScore",
    "SweepReport",
    "game_clock",
    "get_host",
    "online_info",
    "online_round",
    "record_game_result",
    "result_payload",
    "seat_link",
    "seat_links",
    "seat_online",
    "set_host",
    "start_round_online",
    "sweep",
    "sweep_all",
    "watch_path",
]
