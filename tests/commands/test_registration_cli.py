"""``agon registration …`` (issue 27): open with capacity, deadline, fee note and public names;
add, list (text and JSON), close, check in — and bad input as one line with exit code 2."""

from __future__ import annotations

import json

import pytest
from tests.commands.test_director_cli import Agon


@pytest.fixture
def agon(db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Agon:
    monkeypatch.setenv("AGON_DATABASE_URL", db_url)
    monkeypatch.setenv("AGON_ACTOR", "Marco")
    monkeypatch.delenv("AGON_TOURNAMENT", raising=False)
    runner = Agon(capsys)
    runner("tournament", "create", "q", "--name", "Qualifier", "--ruleset", "bonn-2018")
    return runner


def test_open_add_list_close_and_check_in(agon: Agon) -> None:
    out = agon(
        "registration", "open", "q", "--capacity", "1", "--deadline", "+2d",
        "--fee-note", "10 € at the door", "--public-names", "initials",
    )  # fmt: skip
    assert "q: registration open, deadline" in out and "0/1 places taken, 0 waiting" in out
    assert "public names: initials" in out
    first = agon("registration", "add", "q", "Anna Rossi", "--email", "anna@example.org")
    assert first.startswith("1.  Anna Rossi  <anna@example.org>  [registered]")
    assert "private link: /register/q/me/" in first
    second = agon("registration", "add", "q", "Ben", "--email", "ben@example.org", "--tag", "Köln")
    assert "2.  Ben (Köln)  <ben@example.org>  [waiting, position 1]" in second
    listed = json.loads(agon("registration", "list", "q", "--json"))
    assert [r["status"] for r in listed["registrants"]] == ["registered", "waiting"]
    assert listed["registration"]["fee_note"] == "10 € at the door"
    assert "token" not in json.dumps(listed)
    # the keys docs/cli.md lists
    assert set(listed["registration"]) == {
        "tournament", "open", "accepting", "capacity", "deadline", "fee_note", "public_names",
        "taken", "waiting",
    }  # fmt: skip
    assert set(listed["registrants"][1]) == {
        "number", "name", "tag", "email", "status", "position", "player", "registered_at",
    }  # fmt: skip
    assert listed["registrants"][1]["position"] == 1
    assert "1/1 places taken, 1 waiting" in agon("registration", "list", "q")
    assert "registration closed" in agon("registration", "close", "q")
    err = agon.fails("registration", "add", "q", "Cleo", "--email", "c@example.org", code=2)
    assert "registration is closed" in err
    assert agon("registration", "check-in", "q", "--all", "--paid") == "checked in: Anna Rossi\n"
    shown = agon("player", "list", "-t", "q")
    assert "Anna Rossi" in shown and "checked in" in shown
    err = agon.fails("registration", "check-in", "q", "2")
    assert "waiting" in err
    journal = agon("tournament", "journal", "-t", "q")
    assert "registration.checkin" in journal and "registration.register" in journal


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("open", "q", "--capacity", "0"), "capacity must be between"),
        (("open", "q", "--capacity", "41"), "capacity must be between 1 and 40"),
        (("open", "q", "--capacity", "3", "--deadline", "tomorrow"), "--deadline"),
        (("open", "q", "--capacity", "3", "--deadline", "2026-05-01T10:00"), "time zone"),
        (("open", "nope", "--capacity", "3"), "no tournament 'nope'"),
        (("list", "q"), "has not been opened"),
        (("close", "q"), "has not been opened"),
        (("check-in", "q"), "or give --all"),
        (("check-in", "q", "1", "--all"), "or give --all"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(agon: Agon, args: tuple[str, ...], says: str) -> None:
    assert says in agon.fails("registration", *args)


def test_bad_registrations_from_the_desk(agon: Agon) -> None:
    agon("registration", "open", "q", "--capacity", "3")
    assert "not an e-mail" in agon.fails("registration", "add", "q", "Anna", "--email", "x")
    agon("registration", "add", "q", "Anna", "--email", "a@example.org")
    err = agon.fails("registration", "add", "q", "Anna", "--email", "b@example.org", code=3)
    assert "registered already" in err
    assert "no registrant #9" in agon.fails("registration", "check-in", "q", "9")
