"""Every command shown in docs/seating.md runs as shown (issue 11: the auction example exited 2),
in a folder holding the files the guide names (players.txt, actions.txt, a tournament to export)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from tests.commands.test_verify_export import _finish
from tests.services.svc_helpers import T0

from agon.services import players, rounds, tournaments
from agon.services.schemas import PlayerCreate, TournamentCreate
from agon.tournament.auction import Auction
from agon.tournament.draws import commitment, draw_wonders

DOC = Path(__file__).resolve().parents[2] / "docs" / "seating.md"
SEED = "YOUR-SEED"


def shown_commands() -> list[str]:
    """The indented command lines of the guide (``agon …`` and the ``python3 -c`` one)."""
    out = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("    ") and re.match(r"\s+(agon|python3) ", line):
            out.append(line.strip())
    return out


def _example_tournament(session: Session) -> None:
    """A small Ludolimpico event with the guide's seed, one round played (for ``agon export``)."""
    tournaments.create_tournament(
        session,
        data=TournamentCreate(slug="doc", name="Doc", ruleset="ludolimpico-2015", seed=SEED),
        actor="d",
        now=T0,
    )
    names = [f"Giocatore {i}" for i in range(1, 9)]
    players.import_players(
        session,
        tournament="doc",
        players=[PlayerCreate(name=n, fee_paid=True) for n in names],
        actor="d",
        now=T0,
    )
    for name in names:
        players.check_in(session, tournament="doc", player=name, actor="d", now=T0)
    rounds.start_round(session, tournament="doc", actor="d")
    _finish(session, "doc", 1, random.Random(1), True, seed=SEED)
    session.commit()


def test_every_command_in_the_seating_guide_runs(
    session: Session, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _example_tournament(session)
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_TOURNAMENT", "doc")
    (tmp_path / "players.txt").write_text(
        "# the guide's players.txt\n" + "\n".join(f"Spieler {c}" for c in "ABCDEFGHIJKL") + "\n",
        encoding="utf-8",
    )
    text = DOC.read_text(encoding="utf-8")
    actions = text.split("`actions.txt`:\n\n", 1)[1].split("\n\n", 1)[0]
    (tmp_path / "actions.txt").write_text(
        "\n".join(line.strip() for line in actions.splitlines()) + "\n", encoding="utf-8"
    )
    # the interactive auction of the guide, answered at its prompts with legal actions
    auction = Auction(
        ["Anna", "Ben", "Clara"], draw_wonders(SEED, 1, 4), seed=SEED, label="round 1 table 2"
    )
    typed = []
    while not auction.finished:
        action = auction.legal_actions()[0]
        auction.apply(action)
        typed.append(str(action).split(" ", 1)[1])  # the name is filled in at the prompt
    commands = shown_commands()
    assert len(commands) >= 9
    outputs = {}
    for command in commands:
        shell = re.sub(r"^agon ", f"{sys.executable} -m agon ", command)
        shell = re.sub(r"^python3 ", f"{sys.executable} ", shell)
        shell = shell.split("  # ")[0]
        stdin = (
            "\n".join(typed) + "\n" if "auction" in command and "--script" not in command else ""
        )
        proc = subprocess.run(
            ["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True, input=stdin
        )
        assert proc.returncode == 0, f"{command}\n{proc.stdout}\n{proc.stderr}"
        outputs[command] = proc.stdout
    assert (
        f"commitment of the seed: {commitment(SEED)}" in outputs["agon verify --seed 'YOUR-SEED'"]
    )
    assert commitment(SEED).startswith("18505359e03fb8c3")
    verified = [out for cmd, out in outputs.items() if cmd.startswith("agon verify event.json")]
    assert verified and "event.json: ok" in verified[0] and "commitment: ok" in verified[0]
    scripted = [out for cmd, out in outputs.items() if "--script actions.txt" in cmd]
    assert '"opener": "Anna"' in scripted[0]
    interactive = [
        out for cmd, out in outputs.items() if "--script" not in cmd and "auction" in cmd
    ]
    assert "wonders: olympia, alexandria, rhodos, babylon; Clara opens first" in interactive[0]
