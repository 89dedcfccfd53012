"""The wonder auction of Ludolimpico 2015 (2.1, "Asta per aggiudicarsi la Meraviglia").

N+1 wonders are drawn for a table of N. A random player opens: he chooses a wonder and bids zero or
more victory points. Clockwise, each other player without a wonder raises by at least one point or
passes; a player who passed cannot win this wonder but takes part in later auctions. The highest
bidder takes the wonder and notes the bid (the ``bid`` of the event file). If the opener won, the
next player clockwise without a wonder opens the next auction; otherwise the opener opens again.
The auction ends when every player has a wonder.

:class:`Auction` is a state machine: :meth:`Auction.legal_actions` is the one source of legality,
:meth:`Auction.apply` refuses anything else with :class:`~agon.errors.IllegalAction`. Actions have a
text form that round-trips: ``"Anna opens babylon 2"``, ``"Ben raises 3"``, ``"Clara passes"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from agon.errors import N_, IllegalAction, InvalidInput
from agon.tournament.draws import rng

Verb = Literal["opens", "raises", "passes"]

#: :meth:`Auction.legal_actions` lists bids up to this many VP above the current minimum; higher
#: bids are legal too, just not listed.
LISTED_BIDS = 10


@dataclass(frozen=True, slots=True)
class AuctionAction:
    """One move: ``opens`` (wonder and bid), ``raises`` (the new, higher bid) or ``passes``."""

    player: str
    verb: Verb
    wonder: str | None = None
    bid: int | None = None

    def __str__(self) -> str:
        if self.verb == "opens":
            return f"{self.player} opens {self.wonder} {self.bid}"
        if self.verb == "raises":
            return f"{self.player} raises {self.bid}"
        return f"{self.player} passes"

    @classmethod
    def parse(cls, text: str) -> AuctionAction:
        """Read the text form; the player's name may contain spaces.

        >>> AuctionAction.parse("Anna Maria opens babylon 2")
        AuctionAction(player='Anna Maria', verb='opens', wonder='babylon', bid=2)

        Raises:
            InvalidInput: text that is not one of the three forms.
        """
        text = text.strip()
        parts = text.rsplit(" ", 3)
        try:
            if len(parts) >= 4 and parts[-3] == "opens":
                return cls(" ".join(parts[:-3]), "opens", parts[-2], _bid(parts[-1]))
            if len(parts) >= 3 and parts[-2] == "raises":
                return cls(" ".join(parts[:-2]), "raises", None, _bid(parts[-1]))
            if len(parts) >= 2 and parts[-1] == "passes":
                return cls(" ".join(parts[:-1]), "passes")
        except ValueError:
            pass
        raise InvalidInput(
            f"cannot read auction action {text!r}: expected 'NAME opens WONDER BID', "
            "'NAME raises BID' or 'NAME passes'",
            msgid=N_(
                "Cannot read the auction action “%(text)s”: write “NAME opens WONDER BID”, "
                "“NAME raises BID” or “NAME passes”."
            ),
            params={"text": text},
        )


def _bid(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


@dataclass(frozen=True, slots=True)
class Lot:
    """The auction in progress: the wonder, the highest bid and bidder, who passed, whose turn."""

    wonder: str
    bid: int
    leader: str
    opener: str
    passed: frozenset[str]


class Auction:
    """Ludolimpico 2.1 as a state machine; see the module docstring for the protocol.

    ``players`` are in clockwise seat order; ``wonders`` are the round's draw, of which the table
    uses the first N+1. The opener is drawn from ``rng(seed, "auction-opener|" + label)``.
    """

    def __init__(
        self, players: Sequence[str], wonders: Sequence[str], *, seed: str, label: str = ""
    ) -> None:
        self.players: tuple[str, ...] = tuple(players)
        if len(self.players) < 2:
            raise InvalidInput(
                f"an auction needs at least 2 players, got {len(self.players)}",
                msgid=N_("An auction needs at least 2 players."),
            )
        if len(set(self.players)) != len(self.players):
            raise InvalidInput(
                f"auction players must be distinct: {list(self.players)}",
                msgid=N_("An auction's players must be different people."),
            )
        for name in self.players:
            if not name.strip() or name != name.strip() or name.split(" ")[-1] in _VERBS:
                raise InvalidInput(
                    f"auction player name {name!r} cannot be written in actions",
                    msgid=N_(
                        "The name “%(player)s” cannot be written in auction actions; rename the "
                        "player (or record the auction on paper)."
                    ),
                    params={"player": name},
                )
        if len(wonders) < len(self.players) + 1:
            raise InvalidInput(
                f"an auction for {len(self.players)} players needs {len(self.players) + 1} "
                f"wonders, got {len(wonders)}",
                msgid=N_("An auction for %(count)d players needs %(needed)d wonders."),
                params={"count": len(self.players), "needed": len(self.players) + 1},
            )
        self.wonders: tuple[str, ...] = tuple(wonders[: len(self.players) + 1])
        if len(set(self.wonders)) != len(self.wonders):
            raise InvalidInput(
                f"auction wonders must be distinct: {list(self.wonders)}",
                msgid=N_("An auction's wonders must be different."),
            )
        self.label = label
        self.first_opener = rng(seed, f"auction-opener|{label}").choice(self.players)
        self.history: list[AuctionAction] = []
        self._won: dict[str, tuple[str, int]] = {}
        self._opener: str = self.first_opener
        self._lot: Lot | None = None
        self._to_act: str | None = self.first_opener

    @classmethod
    def replay(
        cls,
        players: Sequence[str],
        wonders: Sequence[str],
        actions: Sequence[AuctionAction | str],
        *,
        seed: str,
        label: str = "",
    ) -> Auction:
        """An auction with ``actions`` (objects or text) applied in order."""
        auction = cls(players, wonders, seed=seed, label=label)
        for action in actions:
            auction.apply(
                action if isinstance(action, AuctionAction) else AuctionAction.parse(action)
            )
        return auction

    # ---- state ------------------------------------------------------------------------------

    @property
    def to_act(self) -> str | None:
        """Whose turn it is: to open (no lot) or to raise or pass; None when finished."""
        return self._to_act

    @property
    def finished(self) -> bool:
        """True when every player has a wonder."""
        return len(self._won) == len(self.players)

    @property
    def lot(self) -> Lot | None:
        """The auction in progress, if any."""
        return self._lot

    def results(self) -> Mapping[str, tuple[str, int]]:
        """Player -> (wonder id, bid) for every player who has won a wonder so far."""
        return dict(self._won)

    def available(self) -> tuple[str, ...]:
        """Wonders nobody has taken yet, in drawn order."""
        taken = {w for w, _ in self._won.values()}
        return tuple(w for w in self.wonders if w not in taken)

    # ---- legality ---------------------------------------------------------------------------

    def legal_actions(self) -> list[AuctionAction]:
        """Every legal action, bids listed up to :data:`LISTED_BIDS` above the minimum."""
        player = self._to_act
        if player is None:
            return []
        if self._lot is None:
            return [
                AuctionAction(player, "opens", wonder, bid)
                for wonder in self.available()
                for bid in range(LISTED_BIDS + 1)
            ]
        low = self._lot.bid + 1
        return [AuctionAction(player, "passes")] + [
            AuctionAction(player, "raises", None, bid) for bid in range(low, low + LISTED_BIDS + 1)
        ]

    def check(self, action: AuctionAction) -> None:
        """Raise :class:`IllegalAction` with the reason if ``action`` is not legal now.

        The message names players as written (no quotes around them: ``it is Anna's turn``);
        each refusal carries a catalogue ``msgid`` so the web shows it in the page's language.
        """
        who = action.player
        at = f"auction {self.label}" if self.label else "auction"

        def refuse(english: str, msgid: str, **params: object) -> IllegalAction:
            return IllegalAction(
                f"{at}: {english} ({action})",
                msgid=msgid,
                params={"player": who, "action": str(action), **params},
            )

        if who not in self.players:
            raise refuse(
                f"{who} is not at this table (players: {', '.join(self.players)})",
                N_("%(player)s is not at this table (players: %(players)s)."),
                players=", ".join(self.players),
            )
        if self._to_act is None:
            raise refuse("the auction is over", N_("The auction is over."))
        if who in self._won:
            wonder, _ = self._won[who]
            raise refuse(
                f"{who} already has a wonder ({wonder})",
                N_("%(player)s already has a wonder (%(wonder)s)."),
                wonder=wonder,
            )
        lot = self._lot
        if lot is not None and who in lot.passed:
            raise refuse(
                f"{who} passed on {lot.wonder} and cannot bid for it again",
                N_("%(player)s passed on %(wonder)s and cannot bid for it again."),
                wonder=lot.wonder,
            )
        if who != self._to_act:
            raise refuse(
                f"it is {self._to_act}'s turn, not {who}'s",
                N_("It is %(turn)s's turn, not %(player)s's."),
                turn=self._to_act,
            )
        if action.bid is not None and action.bid < 0:
            raise refuse("a bid cannot be negative", N_("A bid cannot be negative."))
        if lot is None:
            if action.verb != "opens":
                raise refuse(
                    f"{who} must open an auction (choose a wonder and bid), not {action.verb[:-1]}",
                    N_("%(player)s opens the next auction: choose a wonder and a bid."),
                )
            if action.wonder not in self.wonders:
                raise refuse(
                    f"{action.wonder!r} is not among the drawn wonders {', '.join(self.wonders)}",
                    N_("%(wonder)s is not among the drawn wonders (%(wonders)s)."),
                    wonder=str(action.wonder),
                    wonders=", ".join(self.available()),
                )
            if action.wonder not in self.available():
                owner = next(p for p, (w, _) in self._won.items() if w == action.wonder)
                raise refuse(
                    f"{action.wonder} is already taken by {owner}",
                    N_("%(wonder)s is already taken by %(owner)s."),
                    wonder=action.wonder,
                    owner=owner,
                )
            if action.bid is None:
                raise refuse("an opening needs a bid", N_("An opening needs a bid."))
            return
        if action.verb == "opens":
            raise refuse(
                f"{lot.wonder} is being auctioned; {who} can raise or pass",
                N_("%(wonder)s is being auctioned: %(player)s raises or passes."),
                wonder=lot.wonder,
            )
        if action.verb == "raises" and (action.bid is None or action.bid < lot.bid + 1):
            raise refuse(
                f"bid too low: {who} must bid at least {lot.bid + 1} for {lot.wonder}, "
                f"{lot.leader} bid {lot.bid}",
                N_(
                    "Bid too low: %(player)s must bid at least %(minimum)d for %(wonder)s "
                    "(%(leader)s bid %(bid)d)."
                ),
                minimum=lot.bid + 1,
                wonder=lot.wonder,
                leader=lot.leader,
                bid=lot.bid,
            )

    def is_legal(self, action: AuctionAction) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    # ---- transitions ------------------------------------------------------------------------

    def apply(self, action: AuctionAction) -> None:
        """Apply a legal action.

        Raises:
            IllegalAction: out of turn, bid too low, a player who passed, a wonder already
                taken, an action of the wrong kind, or the auction is over.
        """
        self.check(action)
        self.history.append(action)
        lot = self._lot
        if action.verb == "opens":
            assert action.wonder is not None and action.bid is not None
            lot = Lot(action.wonder, action.bid, action.player, action.player, frozenset())
        elif action.verb == "raises":
            assert lot is not None and action.bid is not None
            lot = Lot(lot.wonder, action.bid, action.player, lot.opener, lot.passed)
        else:
            assert lot is not None
            lot = Lot(lot.wonder, lot.bid, lot.leader, lot.opener, lot.passed | {action.player})
        self._lot = lot
        bidder = self._next_bidder(action.player, lot)
        if bidder is not None:
            self._to_act = bidder
            return
        self._won[lot.leader] = (lot.wonder, lot.bid)
        self._lot = None
        if self.finished:
            self._to_act = None
            return
        if lot.leader == lot.opener:
            self._opener = self._next_without_wonder(lot.opener)
        self._to_act = self._opener

    def _next_without_wonder(self, after: str) -> str:
        i = self.players.index(after)
        n = len(self.players)
        for step in range(1, n + 1):
            p = self.players[(i + step) % n]
            if p not in self._won:
                return p
        raise AssertionError("no player without a wonder")

    def _next_bidder(self, after: str, lot: Lot) -> str | None:
        """The next player clockwise who may still bid on ``lot``; None when the lot is decided."""
        i = self.players.index(after)
        n = len(self.players)
        for step in range(1, n):
            p = self.players[(i + step) % n]
            if p in self._won or p in lot.passed or p == lot.leader:
                continue
            return p
        return None


_VERBS = ("opens", "raises", "passes")
