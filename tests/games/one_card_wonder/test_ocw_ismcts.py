"""One Card Wonder's information-set search bot: legal, seeded, hidden leaders stay hidden, and
stronger than chance."""

from __future__ import annotations

import pytest

from agon.errors import InvalidInput
from agon.games.one_card_wonder.bots import (
    BOTS,
    HeuristicBot,
    IsmctsBot,
    IsmctshBot,
    RandomBot,
    determinize,
    make_bot,
)
from agon.games.one_card_wonder.engine import Game, Variant


def test_ismcts_chooses_only_legal_actions() -> None:
    g = Game.new(3, 4, Variant(leaders=True, max_turns=40))
    bot = IsmctsBot(1, iterations=4, depth=1)
    while not g.over:
        a = bot.choose(g)
        assert a in g.legal_actions()
        g.apply(a)


def _play(seed: int, bots: list[IsmctsBot | HeuristicBot | RandomBot]) -> list[str]:
    g = Game.new(len(bots), seed, Variant(leaders=True, max_turns=60))
    moves = []
    while not g.over:
        a = bots[g.current_player()].choose(g)
        moves.append(str(a))
        g.apply_unchecked(a)
    return moves


def test_ismcts_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    runs = [_play(3, [IsmctsBot(7, iterations=8), HeuristicBot(2)]) for _ in range(2)]
    assert runs[0] == runs[1]
    assert _play(3, [IsmctsBot(8, iterations=8), HeuristicBot(2)]) != runs[0]


def test_determinize_never_deals_a_leader_the_bot_has_seen() -> None:
    g = Game.new(4, 11, Variant(leaders=True))
    h = HeuristicBot(1)
    while g.players[0].leader is None:
        g.apply_unchecked(h.choose(g))
    g.players[2].leader_state = 1  # seat 2 has shown its leader
    mine, shown = g.players[0].leader, g.players[2].leader
    assert mine is not None and shown is not None
    dealt = set()
    for seed in range(60):
        d = determinize(g, 0, seed)
        assert d.players[0].leader == mine and d.players[2].leader == shown
        for s in (1, 3):
            lead = d.players[s].leader
            assert lead is not None and lead.id not in (mine.id, shown.id)
            dealt.add(lead.id)
        assert d.players[1].leader != d.players[3].leader
    assert len(dealt) > 2  # the hidden leaders really are redealt


def test_ismcts_beats_random_play() -> None:
    # a random bot wins about half of its 2-player games: 5 of 6 by chance is 11%, and
    # random bots win far fewer against any sensible player
    wins = 0
    for s in range(6):
        g = Game.new(2, 50 + s, Variant(max_turns=400))
        bots = [IsmctsBot(s, iterations=30), RandomBot(100 + s)]
        if s % 2:
            bots.reverse()
        while not g.over:
            g.apply_unchecked(bots[g.current_player()].choose(g))
        wins += g.winner == (s % 2)
    assert wins >= 5


def test_ismcts_is_registered_and_checks_its_budget() -> None:
    assert "ismcts" in BOTS
    assert isinstance(make_bot("ismcts", 1), IsmctsBot)
    with pytest.raises(InvalidInput, match="iterations"):
        IsmctsBot(1, iterations=0)
    with pytest.raises(InvalidInput, match="seconds"):
        IsmctsBot(1, iterations=None, seconds=0)
    timed = IsmctsBot(1, seconds=0.01)
    assert timed.iterations is None


def _searched_position(players: int, seed: int) -> Game:
    """A game after a few heuristic turns, seat 0 at a searched turn with a choice."""
    g = Game.new(players, seed, Variant(max_turns=400))
    h = HeuristicBot(seed)
    while g.turn < 6 or g.current_player() != 0 or g.stack[-1][0] != "turn":
        g.apply_unchecked(h.choose(g))
    assert len(g.legal_actions()) > 1
    return g


def test_ismctsh_keeps_only_its_own_decisions_in_the_tree() -> None:
    """``opponents="heuristic"`` (the ``ismctsh`` bot): the others play the heuristic's move,
    so only the bot's own decisions are searched; plain ``ismcts`` searches theirs too."""
    g = _searched_position(4, 2)
    shared = IsmctsBot(5, iterations=60)
    shared.choose(g)
    assert shared.last_actors > {0}
    own = IsmctshBot(5, iterations=60)
    own.choose(g)
    assert own.last_actors == {0}
    assert own.opponents == "heuristic" and own.last_iterations == 60
    with pytest.raises(InvalidInput, match="opponents"):
        IsmctsBot(1, opponents="random")


def test_ismctsh_is_legal_seeded_and_registered() -> None:
    assert isinstance(make_bot("ismctsh", 1), IsmctshBot)
    runs = [_play(3, [IsmctshBot(7, iterations=8), HeuristicBot(2)]) for _ in range(2)]
    assert runs[0] == runs[1]
    assert _play(3, [IsmctshBot(8, iterations=8), HeuristicBot(2)]) != runs[0]
    g = Game.new(3, 4, Variant(leaders=True, max_turns=40))
    bot = IsmctshBot(1, iterations=4)
    while not g.over:
        a = bot.choose(g)
        assert a in g.legal_actions()
        g.apply(a)
