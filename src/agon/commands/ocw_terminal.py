"""What ``agon ocw play`` shows: the table, what a decision is for, why a typed action is not
possible, and the leader announcements.

Pure text (no terminal I/O), so that the command stays a thin face and the texts can be
tested.  Only public information and the viewer's own leader are shown: a hidden leader is
``hidden`` for everybody else, and nothing here tells who was *not* asked in a leader window
(Sappho's holder is never asked, so printing the others' ``pass`` would give it away).
"""

from __future__ import annotations

from agon.errors import AgonError
from agon.games.one_card_wonder.content import (
    RESOURCES,
    Building,
    Cost,
    Leader,
    item_name,
    resource_index,
)
from agon.games.one_card_wonder.engine import Action, Game, parse_offer

UNITS = {"K": "knowledge", "W": "wood", "C": "clay", "S": "stone", "I": "iron", "J": "joker",
         "$": "coin"}  # fmt: skip
BACK = "back"


def cost_text(cost: Cost) -> str:
    """``SS$`` as ``2 stone + 1 coin`` (``free`` for nothing).

    >>> cost_text(Cost.parse("WWCJ$"))
    '2 wood + 1 clay + 1 joker + 1 coin'
    """
    parts = [(n, RESOURCES[r]) for r, n in enumerate(cost.res) if n]
    parts += [(n, w) for n, w in ((cost.joker, "joker"), (cost.coin, "coin")) if n]
    return " + ".join(f"{n} {w}" for n, w in parts) or "free"


def items_text(counts: list[int] | tuple[int, ...]) -> str:
    """A storage vector (5 resources, then coins) as ``2 wood, 1 coin`` (``empty``)."""
    return ", ".join(f"{n} {item_name(i)}" for i, n in enumerate(counts) if n) or "empty"


def leader_text(lead: Leader) -> str:
    """Name, effect and defeat cost of a leader (and the globe, which the cost may use)."""
    globe = " (globe: with 2-3 players one resource may come from the supply)" if lead.globe else ""
    return f"{lead.names.en}: {lead.text} Defeat cost: {cost_text(lead.defeat)}{globe}."


def _building_line(b: Building, built: bool) -> str:
    mark = "[x]" if built else "[ ]"
    after = f", after {b.after}" if b.after else ""
    return f"      {mark} {b.id} ({b.names.en}) {cost_text(b.cost)}{after}: {b.text}"


def table(game: Game, seat: int) -> str:
    """The whole table as ``seat`` sees it: supply, bag, every player's storage, wonders
    (stages with cost and arrows), board buildings with cost and text, and leaders."""
    obs = game.observation(seat)
    rules = game.content.rules
    lines = [
        f"== turn {game.turn}, seat {game.current} on turn ==",
        f"supply board: {items_text(list(obs['supply'].values()))}   "
        f"bag: {sum(obs['bag'].values())} resources   general supply: {obs['coins']} coins",
    ]
    for s, p in enumerate(game.players):
        you = " (you)" if s == seat else ""
        lines.append(
            f"seat {s}{you}: storage {items_text(p.store)} ({sum(p.store)}/{rules.storage} "
            f"places), {max(0, rules.tokens - p.tokens)} building tokens left"
        )
        for slot, w in enumerate(p.wonders):
            lines.append(f"  wonder {w.names.en} ({w.id}), level {w.level}:")
            for i, st in enumerate(w.stages):
                built = p.built[slot] >> i & 1
                state = "[x]" if built else ("open" if game._stage_open(p, slot, i) else "[ ]")
                arrows = f" <- {' + '.join(st.after)}" if st.after else ""
                rebuild = " (destroyed: rebuild first)" if p.rebuild[slot] == i else ""
                lines.append(f"    {state:4} {w.id}:{st.id} {cost_text(st.cost)}{arrows}{rebuild}")
            for b in w.buildings:
                lines.append(_building_line(b, b.id in p.built_ids))
        shown = obs["players"][s]["board"]
        if p.board is not None and shown is not None:
            lines.append(f"  board {p.board.names.en} ({p.board.id}):")
            lines += [_building_line(b, b.id in p.built_ids) for b in p.board.buildings]
        if p.leader is not None:
            state = ("hidden", "revealed", "defeated", "used")[p.leader_state]
            if s == seat or p.leader_state:
                lines.append(f"  leader ({state}) {leader_text(p.leader)}")
            else:
                lines.append("  leader: hidden")
    return "\n".join(lines)


def _where(source: object) -> str:
    if source == "bag":
        return "the bag"
    if source == "supply":
        return "the supply board"
    return f"seat {source}'s storage"


def prompt(game: Game, seat: int, cause: str = "") -> str:
    """What the current decision of ``seat`` is for (one or two lines)."""
    f = game.stack[-1]
    kind = f[0]
    p = game.players[seat]
    why = f" ({cause})" if cause else ""
    if kind == "wonder":
        offer = "; ".join(
            f"{d['wonder']} with {', '.join(d['resources'])}"
            for d in game.observation(seat)["display"]
            if d["taken_by"] is None
        )
        return f"choose your wonder (it comes with the resources on it): {offer}"
    if kind == "board":
        boards = "; ".join(
            f"{b.id}: " + ", ".join(f"{x.id} {cost_text(x.cost)} ({x.text})" for x in b.buildings)
            for b in p.board_options
        )
        return f"keep one building board (the other leaves the game): {boards}"
    if kind == "turn":
        return "your turn: one action (produce, subsidy <kind>, build, sell, new <building>)"
    if kind == "sappho":
        return "Sappho: each of the four actions at most once, in any order; done to end"
    if kind == "build":
        return "build: a stage or a building (before or after the stages), done to end"
    if kind == "pay":
        target = f[2]
        if target[0] == "stage":
            w = p.wonders[target[1]]
            st = w.stages[target[2]]
            what = f"stage {w.id}:{st.id} (cost {cost_text(st.cost)})"
        else:
            b = game._find_building(p, target[1])
            what = f"building {b.id} (cost {cost_text(b.cost)})"
        owed = cost_text(Cost(tuple(f[3]), f[4], 0))
        return f"pay for {what}: still owed {owed}; a coin pays any resource"
    if kind == "take":
        return f"take {f[3]} of your choice from {_where(f[2])}{why}"
    if kind == "kind":
        return f"choose a kind: take every unit of it from the supply board{why}"
    if kind == "discard":
        over = sum(p.store) - game.content.rules.storage
        return (
            f"your storage is over its {game.content.rules.storage} places: discard {over} "
            "(resources go to the supply board, coins to the general supply)"
        )
    if kind == "supply":
        drawn = ", ".join(RESOURCES[r] for r in f[2])
        return f"production drew {drawn}: name the one that goes to the supply board"
    if kind == "return":
        drawn = ", ".join(RESOURCES[r] for r in f[2])
        return f"the oracle drew {drawn}: return one to the bag"
    if kind == "sell":
        return f"sale: sell a pair of one kind for 1 coin ({f[2]} sold so far), done to stop"
    if kind == "ask":
        lead = p.leader
        name = lead.names.en if lead else "?"
        return f"leader window: reveal your leader {name} now, or pass"
    if kind == "respond":
        q = f[1]
        lead = game.players[q].leader
        name = lead.names.en if lead else "?"
        return f"Cartimandua: reveal her now to defeat {name} of seat {q}, or pass"
    if kind == "tribute":
        q = f[1]
        lead = game.players[q].leader
        name = lead.names.en if lead else "?"
        rem = f[4]
        owed = cost_text(Cost(tuple(rem[:5]), rem[5], rem[6]))
        return (
            f"defeat {name} of seat {q}: the opponents pay its cost together, still owed {owed}; "
            "tribute <item> to pay one unit, stop to pass to the next opponent "
            "(not paid in full: everything comes back and the effect happens)"
        )
    if kind == "ramses":
        return "Ramses: destroy one completed stage of an opponent"
    if kind == "place":
        return f"place a stage marker on an open stage, free{why}"
    if kind == "trade":
        return (
            f"trade (seat {f[1]} is on turn and may not take part): offer one unit for one "
            "unit to a player not on turn (nothing: a gift or a request), or pass"
        )
    if kind == "answer":
        proposer, give, get = f[4], f[6], f[7]
        gets = "nothing" if give < 0 else f"1 {item_name(give)}"
        wants = "nothing" if get < 0 else f"1 {item_name(get)}"
        return f"seat {proposer} offers you {gets} for {wants}: accept or decline"
    return str(kind)


def why_not(game: Game, seat: int, text: str) -> str:
    """Why ``text`` is not one of the current options (a reason, never a traceback)."""
    try:
        action = Action.parse(text)
    except AgonError as exc:
        return str(exc)
    legal = game.legal_actions()
    if action in legal:
        return ""
    verbs = sorted({a.verb for a in legal})
    p = game.players[seat]
    if action.verb not in verbs:
        return f"{action.verb!r} is not a choice now (choose: {', '.join(verbs)})"
    if action.verb == "stage" and action.args and ":" in action.args[0]:
        wid, sid = action.args[0].split(":", 1)
        slot = next((s for s, w in enumerate(p.wonders) if w.id == wid), None)
        if slot is None:
            return f"{wid!r} is not your wonder"
        w = p.wonders[slot]
        idx = next((i for i, st in enumerate(w.stages) if st.id == sid), None)
        if idx is None:
            return f"{wid} has no stage {sid!r}"
        if p.built[slot] >> idx & 1:
            return f"{wid}:{sid} is built already"
        missing = [w.stages[j].id for j in range(len(w.stages)) if w.prereq[idx] >> j & 1
                   and not p.built[slot] >> j & 1]  # fmt: skip
        if missing:
            return f"the arrows into {wid}:{sid} need {' and '.join(missing)} built first"
        if p.rebuild[slot] not in (-1, idx):
            return "the stage destroyed by Ramses must be rebuilt first"
        if game._locked(p, slot):
            return "Two Card Wonder: this card waits until a first wonder is completed"
        return (
            f"you cannot pay {cost_text(w.stages[idx].cost)} with {items_text(p.store)} "
            "(or that discount is not available)"
        )
    if action.verb == "building" and action.args:
        try:
            b = game._find_building(p, action.args[0])
        except AgonError:
            return f"{action.args[0]!r} is not a building of your board or wonder"
        if b.id in p.built_ids:
            return f"{b.id} is built already"
        if b.after is not None and b.after not in p.built_ids:
            return f"{b.id} is built after {b.after}"
        if not game._can_building(p, b):
            return "no building token left (at most 4 buildings)"
        if game.stack[-1][2] not in (0, 1):
            return "a building comes before or after the stages, not between them"
        return f"you cannot pay {cost_text(b.cost)} with {items_text(p.store)}"
    if action.verb == "offer":
        try:
            partner, give, get = parse_offer(action)
        except AgonError as exc:
            return str(exc)
        f = game.stack[-1]
        if partner == f[1]:
            return f"seat {partner} is on turn and may not trade"
        if partner == seat or not 0 <= partner < game.n:
            return f"no trade partner {partner}"
        if give >= 0 and not p.store[give]:
            return f"you have no {item_name(give)}"
        if get >= 0 and not game.players[partner].store[get]:
            return f"seat {partner} has no {item_name(get)}"
        return "a storage would go over its places (a trade is not receiving)"
    if action.args:
        try:
            item = resource_index(action.args[0])
        except AgonError as exc:
            return str(exc)
        kind = game.stack[-1][0]
        if kind in ("subsidy", "take", "kind") or action.verb in ("subsidy", "kind"):
            return f"there is no {item_name(item)} there"
        if not p.store[item]:
            return f"you have no {item_name(item)}"
    return "not among the options now"


def announce(before: list[int], game: Game, seat: int) -> list[str]:
    """Lines for the leaders whose state changed since ``before`` (revealed: name, effect
    and defeat cost, shown before the tribute is asked; then defeated or carried out)."""
    out = []
    for q, p in enumerate(game.players):
        if p.leader is None or p.leader_state == before[q]:
            continue
        who = "you" if q == seat else f"seat {q}"
        if before[q] == 0:
            out.append(f"** {who} revealed leader {leader_text(p.leader)}")
        if p.leader_state == 2:
            out.append(f"** {p.leader.names.en} of {who} is defeated: no effect")
        elif p.leader_state == 3:
            out.append(f"** {p.leader.names.en} of {who} is not defeated: the effect happens")
    return out


def leader_states(game: Game) -> list[int]:
    return [p.leader_state for p in game.players]


def quiet(game: Game) -> bool:
    """Whether a bot's decision now must not be printed: a ``pass`` in a leader window would
    show who was asked, and so who holds Sappho (never asked) or Cartimandua (asked to
    respond)."""
    return game.stack[-1][0] in ("ask", "respond")


def cause_of(before: Game, after: Game, seat: int, action: Action) -> str:
    """What started the takes/choices that follow ``action`` of ``seat``: a building just
    built, a NEW ACTION building used, or a leader just carried out ('' if none)."""
    p0, p1 = before.players[seat], after.players[seat]
    new = sorted(p1.built_ids - p0.built_ids)
    if action.verb == "new" and action.args:
        new = [action.args[0]]
    if new:
        b = after._find_building(p1, new[-1])
        return f"effect of {b.id}: {b.text}"
    if p1.leader is not None and p1.leader_state != p0.leader_state:
        return f"effect of {p1.leader.names.en}: {p1.leader.text}"
    return ""


__all__ = [
    "BACK",
    "announce",
    "cause_of",
    "cost_text",
    "items_text",
    "leader_states",
    "leader_text",
    "prompt",
    "quiet",
    "table",
    "why_not",
]
