"""``agon round start --online`` and ``agon round collect``: a round played online from the command
line, its results recorded by the games (the game service stood in for by the engine host)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.commands.test_director_cli import Agon
from tests.services.online_host import EngineHost

from agon.services import online


@pytest.fixture
def agon(db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Agon:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "Marco")
    monkeypatch.delenv("AGON_TOURNAMENT", raising=False)
    return Agon(capsys)


@pytest.fixture
def host() -> Iterator[EngineHost]:
    games = EngineHost()
    online.set_host(games)
    yield games
    online.set_host(None)


def test_round_start_online_then_collect_fills_the_standings(agon: Agon, host: EngineHost) -> None:
    agon("tournament", "create", "bonn", "--name", "Bonn", "--ruleset", "bonn-2018")
    for i in range(12):
        agon("player", "add", f"P{i}")
    agon("player", "checkin", *(f"P{i}" for i in range(12)))
    assert "go with --online" in agon.fails("round", "start", "--bots")
    out = agon("round", "start", "--online", "--bots", "--grace", "2", "--bot", "random")
    assert "online (a random bot takes a seat after 2 minutes away)" in out
    assert host.created == out.count(", watch at /play/") >= 3
    assert "token" not in out  # seat links are each player's own, not printed for all
    assert agon("round", "collect") == "nothing to do\n"
    for game_id in host.games:
        host.play_out(game_id)
    collected = agon("round", "collect")
    assert collected.count("result recorded from the game") == host.created
    assert agon("round", "collect") == "nothing to do\n"
    shown = agon("round", "show")
    assert shown.count("✓") == 12 and "[confirmed" in shown
    assert shown.count("result recorded by the game") == host.created
    standings = agon("tournament", "standings")
    assert all(f"P{i}" in standings for i in range(12))
    agon("round", "close")
    assert ": ok" in agon("db", "verify")
    journal = agon("tournament", "journal")
    assert journal.count("online.result") == host.created


def test_online_options_are_checked(agon: Agon, host: EngineHost) -> None:
    agon("tournament", "create", "bonn", "--name", "Bonn", "--ruleset", "bonn-2018")
    for i in range(12):
        agon("player", "add", f"P{i}")
    agon("player", "checkin", *(f"P{i}" for i in range(12)))
    with pytest.raises(SystemExit) as exit_info:
        agon("round", "start", "--online", "--grace", "999")
    assert exit_info.value.code == 2
    assert host.created == 0
