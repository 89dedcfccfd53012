"""A table's wonder auction step by step (Ludolimpico 2.1), as the table's phones run it.

:func:`agon.services.results.record_auction` records a whole auction at once (from the paper);
:func:`act` records one action (``"Anna opens babylon 2"``) as its own journal entry, so the
players can run the auction on the table's phone, each tapping their bid. The actions so far are
the table's effective ``table.auction.act`` entries: undo takes back the last one like any other
change. When the last wonder is taken the whole auction is stored on the table, exactly as if it
had been recorded at once, and the results are filled in from it.

:func:`auction_view` tells who opened, whose turn it is and the legal moves; every face (desk,
table page, ``agon round show``) shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, where
from agon.services.core import (
    Change,
    Ctx,
    effective_entries,
    get_table_row,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
)
from agon.services.public import RoundPublic
from agon.store.models import GameTableRow, JournalEntry, TournamentRow
from agon.tournament.auction import Auction, AuctionAction

ACTION = "table.auction.act"


def opener_line(opener: str) -> str:
    """The command line's one wording for who opens a table's auction (Ludolimpico 2.1), the same
    in ``agon round start`` and ``agon round show``.

    >>> opener_line("Irene")
    'auction: Irene opens first (drawn from the seed)'
    """
    return f"auction: {opener} opens first (drawn from the seed)"


@dataclass(frozen=True, slots=True)
class AuctionView:
    """A table's auction as the players need to see it.

    ``opener`` opened the first lot (drawn from the seed); ``to_act`` is whose turn it is (None
    when finished); with a ``wonder`` on the table (``lot``) the player to act raises to at least
    ``minimum`` or passes, otherwise they open the next lot: any of ``available`` with a bid of
    0 or more. ``recorded`` is true once the whole auction is stored on the table.
    """

    round: int
    table: int
    players: tuple[str, ...]
    wonders: tuple[str, ...]
    opener: str
    to_act: str | None
    lot_wonder: str | None
    lot_bid: int | None
    lot_leader: str | None
    passed: tuple[str, ...]
    minimum: int
    available: tuple[str, ...]
    won: tuple[tuple[str, str, int], ...]
    history: tuple[str, ...]
    finished: bool
    recorded: bool
    open_for_actions: bool

    @property
    def opening(self) -> bool:
        """True when the player to act opens a new lot (no wonder is being auctioned)."""
        return self.to_act is not None and self.lot_wonder is None

    def summary(self) -> list[str]:
        """English lines for the command line: opener, whose turn, the legal moves."""
        lines = [opener_line(self.opener)]
        if self.history:
            lines.append("  so far: " + "; ".join(self.history))
        if self.won:
            lines.append("  won: " + ", ".join(f"{p} {w} for {b}" for p, w, b in self.won))
        if self.to_act is None:
            lines.append("  finished")
        elif self.lot_wonder is None:
            lines.append(
                f"  to act: {self.to_act} opens: one of {', '.join(self.available)}, bid 0 or more"
            )
        else:
            lines.append(
                f"  to act: {self.to_act} on {self.lot_wonder} ({self.lot_leader} bid "
                f"{self.lot_bid}): raises to {self.minimum} or more, or passes"
            )
        return lines


def _label(row: GameTableRow) -> str:
    # the same label as :func:`agon.services.results._auction`: the opener is drawn from it
    return f"round {row.round.number} table {row.number}"


def _steps(session: Session, slug: str, rnum: int, tnum: int, before: int | None) -> list[str]:
    """The table's effective step-by-step actions (journal entries older than ``before``)."""
    rows = session.scalars(
        select(JournalEntry)
        .where(JournalEntry.tournament == slug, JournalEntry.action.in_((ACTION, "undo")))
        .order_by(JournalEntry.id)
    )
    return [
        str(e.payload["action"])
        for e in effective_entries(list(rows))
        if e.action == ACTION
        and int(e.payload["round"]) == rnum
        and int(e.payload["table"]) == tnum
        and (before is None or e.id < before)
    ]


def _replay(t: TournamentRow, row: GameTableRow, actions: Sequence[str]) -> Auction:
    return Auction.replay(row.seats, row.round.wonders, actions, seed=t.seed, label=_label(row))


def auction_view(
    session: Session, *, tournament: str, round_number: int, table: int
) -> AuctionView | None:
    """The table's auction: opener, whose turn, legal moves (None: the ruleset has none, or the
    round was seated by hand without a draw of wonders, so there is nothing to auction).

    Raises:
        NotFound: no such tournament, round or table.
    """
    t = get_tournament_row(session, tournament)
    if not ruleset_of(t).auction:
        return None
    row = get_table_row(session, t, round_number, table)
    if len(row.round.wonders) <= len(row.seats) and row.auction is None:
        return None  # no draw to auction (a round seated by hand)
    recorded = row.auction is not None
    actions = (
        list(row.auction)
        if row.auction is not None
        else _steps(session, tournament, round_number, table, None)
    )
    auction = _replay(t, row, actions)
    lot = auction.lot
    return AuctionView(
        round=round_number,
        table=table,
        players=auction.players,
        wonders=auction.wonders,
        opener=auction.first_opener,
        to_act=auction.to_act,
        lot_wonder=lot.wonder if lot else None,
        lot_bid=lot.bid if lot else None,
        lot_leader=lot.leader if lot else None,
        passed=tuple(sorted(lot.passed)) if lot else (),
        minimum=lot.bid + 1 if lot else 0,
        available=auction.available(),
        won=tuple((p, w, b) for p, (w, b) in auction.results().items()),
        history=tuple(str(a) for a in auction.history),
        finished=auction.finished,
        recorded=recorded,
        open_for_actions=not recorded and not row.results and row.round.status != "closed",
    )


def act(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    table: int,
    action: str,
    actor: str,
    seen: int | None = None,
    now: datetime | None = None,
) -> AuctionView:
    """Record one auction action (its text form, e.g. ``"Ben raises 3"``) at a table.

    ``seen`` is how many actions the sender saw: a second tap on the same button (the same
    action already recorded as the last one) is answered with the current auction and records
    nothing; a different action sent from a stale page is refused.

    Raises:
        InvalidInput: an action that cannot be read; IllegalAction: no auction in the ruleset,
        the auction is already recorded or results are in, or the action is not legal now
        (out of turn, bid too low, …); Conflict: the auction moved on since the page was read.
    """
    text = str(AuctionAction.parse(action))
    if seen is not None:
        current = auction_view(
            session, tournament=tournament, round_number=round_number, table=table
        )
        session.rollback()  # end the read transaction before writing
        if current is not None and len(current.history) == seen + 1:
            if current.history[-1] == text:
                return current  # the same tap twice: already recorded
            raise Conflict(
                f"round {round_number}, table {table}: the auction moved on "
                f"({current.history[-1]}); look again",
                msgid=N_("The auction moved on (%(player)s acted meanwhile); look again."),
                params={"player": AuctionAction.parse(current.history[-1]).player},
            )
    record(
        session,
        tournament=tournament,
        actor=actor,
        action=ACTION,
        payload={"round": round_number, "table": table, "action": text},
        now=now,
    )
    view = auction_view(session, tournament=tournament, round_number=round_number, table=table)
    assert view is not None
    return view


@handler(ACTION)
def _apply_act(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    rnum, tnum = int(p["round"]), int(p["table"])
    row = get_table_row(ctx.session, t, rnum, tnum)
    place = where(("round", rnum), ("table", tnum))
    if not ruleset_of(t).auction:
        raise IllegalAction(
            f"{place}: ruleset {t.ruleset_ref!r} has no wonder auction",
            msgid=N_("This tournament's rules have no wonder auction."),
        )
    if row.round.status == "closed" or row.results:
        raise IllegalAction(
            f"{place}: the auction comes before the results",
            msgid=N_("The auction comes before the results."),
        )
    if row.auction is not None:
        raise IllegalAction(
            f"{place}: the auction is already recorded",
            msgid=N_("The auction is already recorded."),
        )
    done = _steps(ctx.session, ctx.slug, rnum, tnum, ctx.entry_id)
    auction = _replay(t, row, done)
    auction.apply(AuctionAction.parse(str(p["action"])))
    after: dict[str, Any] = {"auction": [str(a) for a in auction.history]}
    if auction.finished:
        row.auction = [str(a) for a in auction.history]
        row.version = ctx.entry_id
        after["won"] = dict(auction.results())
    return Change({"auction": done}, after)


def auction_views(
    session: Session, *, tournament: str, rnd: RoundPublic
) -> dict[int, AuctionView | None]:
    """The auction of every table of ``rnd`` (empty when the ruleset has none)."""
    if not ruleset_of(get_tournament_row(session, tournament)).auction:
        return {}
    return {
        t.number: auction_view(
            session, tournament=tournament, round_number=rnd.number, table=t.number
        )
        for t in rnd.tables
    }
