"""``agon profile …``: list (and ``--json``), create, suggest, link (to a profile or a new one),
unlink, hide/unhide and show; a link is journaled, so ``agon tournament undo`` takes it back; bad
input is one line and exit 2; ``agon rating`` over two tournaments counts a linked player once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli_runner import run_agon

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "Marco")
    for slug, name in (("bonn", "bonn-2018-sample.json"), ("ludo", "ludolimpico-2015-sample.json")):
        r = run_agon("import", ROOT / "examples" / name, "--slug", slug)
        assert r.returncode == 0, r.stderr
    return {}


def ok(*args: str) -> str:
    r = run_agon(*args)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_link_suggest_show_and_undo(env: dict[str, str]) -> None:
    assert "no profiles yet" in ok("profile", "list")
    assert ok("profile", "create", "Davide", "--tag", "Bonn") == "created davide  Davide (Bonn)\n"
    suggested = json.loads(ok("profile", "suggest", "bonn", "David", "--json"))
    assert [s["profile"]["id"] for s in suggested["suggestions"]] == ["davide"]
    assert ok("profile", "link", "bonn", "David", "--profile", "davide") == (
        "linked David (bonn) to profile davide\n"
    )
    assert "created giulia" in ok("profile", "link", "ludo", "Giulia", "--new")
    listed = json.loads(ok("profile", "list", "--json"))["profiles"]
    assert [(p["id"], p["hidden"]) for p in listed] == [("davide", False), ("giulia", False)]
    page = json.loads(ok("profile", "show", "davide", "--json"))
    assert [e["tournament"] for e in page["events"]] == ["bonn"]
    assert page["events"][0]["place"] == 1 and len(page["history"]) == 4
    ok("profile", "hide", "davide")
    assert "[hidden]" in ok("profile", "list")
    shown = json.loads(ok("profile", "unhide", "davide", "--json"))
    assert shown == {"profile": {"id": "davide", "name": "Davide", "tag": "Bonn", "hidden": False}}
    assert "undid" in ok("tournament", "undo", "-t", "bonn")
    assert json.loads(ok("profile", "show", "davide", "--json"))["events"] == []
    assert "unlinked Giulia (ludo)" in ok("profile", "unlink", "ludo", "Giulia")


def test_the_rating_counts_a_linked_player_once_across_tournaments(env: dict[str, str]) -> None:
    before = json.loads(ok("rating", "bonn", "ludo", "--json"))["ratings"]
    ok("profile", "create", "One Person")
    ok("profile", "link", "bonn", "David", "--profile", "one-person")
    ok("profile", "link", "ludo", "Giulia", "--profile", "one-person")
    after = json.loads(ok("rating", "bonn", "ludo", "--json"))["ratings"]
    assert len(after) == len(before) - 1
    one = [r for r in after if r.get("profile") == "one-person"]
    assert len(one) == 1 and one[0]["games"] == 4 + 3 and one[0]["player"] == "Giulia"
    history = json.loads(ok("rating", "bonn", "ludo", "--history", "one-person", "--json"))
    assert len(history["history"]["games"]) == 7


@pytest.mark.parametrize(
    "args",
    [
        ("profile", "link", "bonn", "David"),
        ("profile", "link", "bonn", "David", "--profile", "x", "--new"),
        ("profile", "link", "bonn", "David", "--profile", "Not An Id"),
        ("profile", "link", "bonn", "David", "--profile", "nobody"),
        ("profile", "link", "nope", "David", "--new"),
        ("profile", "link", "bonn", "Nobody", "--new"),
        ("profile", "suggest", "bonn", "Nobody"),
        ("profile", "hide", "nobody"),
        ("profile", "show", "-x-"),
        ("profile", "create", ""),
        ("profile", "create", "A\u202eB"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(env: dict[str, str], args: tuple[str, ...]) -> None:
    r = run_agon(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("agon: error: ") and r.stderr.count("\n") == 1


def test_a_link_that_changes_nothing_is_a_conflict(env: dict[str, str]) -> None:
    """Not bad input but the state: exit 3 (a conflict), one line, nothing journaled."""
    journal = ok("tournament", "journal", "-t", "bonn")
    r = run_agon("profile", "unlink", "bonn", "David")
    assert r.returncode == 3 and r.stderr == "agon: error: 'David' is already unlinked\n"
    assert ok("tournament", "journal", "-t", "bonn") == journal


def test_seeding_by_rating_finds_a_linked_player_by_profile(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Luca of the 2015 event registers as "Lucky": by name he is a newcomer (rated 0); linked
    to the same profile he is seeded by Luca's rating — from the events and from a ratings file."""
    ok("tournament", "create", "coppa", "--name", "Coppa", "--ruleset", "ludolimpico-2015")
    names = ["Alessandro", "Beatrice", "Carlo", "Daniela", "Enrico", "Francesca", "Giulia"]
    for name in [*names, "Lucky", "Marta", "Nadia"]:
        ok("player", "add", name, "--paid", "-t", "coppa")
    ok("player", "checkin", "-t", "coppa", *names, "Lucky", "Marta", "Nadia")
    luca = next(
        r["ordinal"]
        for r in json.loads(ok("rating", "ludo", "--json"))["ratings"]
        if r["player"] == "Luca"
    )

    def seeded(source: str) -> str:
        out = ok("round", "start", "-t", "coppa", "--dry-run", "--seed-by-rating", source)
        return next(line for line in out.splitlines() if "seeding ratings" in line)

    assert "Lucky" not in seeded("ludo")
    ok("profile", "link", "ludo", "Luca", "--new")
    ok("profile", "link", "coppa", "Lucky", "--profile", "luca")
    assert f"Lucky {luca:.2f}" in seeded("ludo")
    ratings = tmp_path / "ratings.json"
    ratings.write_text(ok("rating", "ludo", "--json"), encoding="utf-8")
    assert f"Lucky {luca:.2f}" in seeded(str(ratings))
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"ratings": [{"player": "X", "ordinal": 1, "profile": "Not An Id"}]}),
        encoding="utf-8",
    )
    r = run_agon("round", "start", "-t", "coppa", "--dry-run", "--seed-by-rating", str(bad))
    assert r.returncode == 2 and "'profile' must be a profile's id" in r.stderr
