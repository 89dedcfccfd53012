"""``agon user`` and ``agon org`` (issue 27): the exact forms other tools rely on, one-line
errors with exit code 2 (3 for a taken e-mail), and what they leave in the database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli_runner import run_agon

PW = "a long enough password"


@pytest.fixture
def env(db_url: str, tmp_path: Path) -> dict[str, str | None]:
    run_agon(
        "tournament",
        "create",
        "bonn",
        "--name",
        "Bonn",
        "--ruleset",
        "bonn-2018",
        env={"AGON_DATABASE_URL": db_url},
    )
    return {
        "AGON_DATABASE_URL": db_url,
        "AGON_PUBLIC_URL": "https://agon.example.org",
        "AGON_TOURNAMENT": None,
    }


def ok(env: dict[str, str | None], *args: str | Path, stdin: str | None = None) -> str:
    done = run_agon(*args, env=env, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


def fails(env: dict[str, str | None], *args: str | Path, code: int = 2) -> str:
    done = run_agon(*args, env=env)
    assert done.returncode == code, (done.stdout, done.stderr)
    assert done.stderr.startswith("agon: error: ") and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


def test_create_grant_list_revoke(env: dict[str, str | None], tmp_path: Path) -> None:
    secret = tmp_path / "pw.txt"
    secret.write_text(PW + "\n", encoding="utf-8")
    ok(
        env,
        "user",
        "create",
        "Ada@Club.test",
        "--name",
        "Ada Admin",
        "--admin",
        "--password-file",
        secret,
    )
    out = ok(env, "user", "create", "sam@club.test", "--name", "Sam Scorer", stdin=f"{PW}\n{PW}\n")
    assert "sam@club.test" in out
    ok(env, "org", "create", "club", "--name", "Spieleclub")
    ok(env, "org", "attach", "club", "--tournament", "bonn")
    ok(env, "user", "grant", "sam@club.test", "--tournament", "bonn", "--role", "scorekeeper")
    ok(env, "user", "grant", "ada@club.test", "--organisation", "club", "--role", "organiser")
    users = json.loads(ok(env, "user", "list", "--json"))["users"]
    assert users == [
        {
            "email": "ada@club.test",
            "name": "Ada Admin",
            "admin": True,
            "roles": [{"role": "organiser", "scope": "organisation", "target": "club"}],
        },
        {
            "email": "sam@club.test",
            "name": "Sam Scorer",
            "admin": False,
            "roles": [{"role": "scorekeeper", "scope": "tournament", "target": "bonn"}],
        },
    ]
    assert "scorekeeper of bonn" in ok(env, "user", "list")
    orgs = json.loads(ok(env, "org", "list", "--json"))["organisations"]
    assert orgs == [{"slug": "club", "name": "Spieleclub", "tournaments": ["bonn"]}]
    ok(env, "user", "revoke", "sam@club.test", "--tournament", "bonn", "--role", "scorekeeper")
    users = json.loads(ok(env, "user", "list", "--json"))["users"]
    assert users[1]["roles"] == []
    fails(env, "user", "revoke", "sam@club.test", "--tournament", "bonn", "--role", "scorekeeper")


def test_a_reset_link_is_printed_for_the_public_address(env: dict[str, str | None]) -> None:
    ok(env, "user", "create", "bob@club.test", "--name", "Bob", stdin=f"{PW}\n{PW}\n")
    link = ok(env, "user", "reset-link", "bob@club.test").strip()
    assert link.startswith("https://agon.example.org/people/reset/") and len(link) > 60
    assert ok(env, "user", "reset-link", "bob@club.test").strip() != link


@pytest.mark.parametrize(
    "args",
    [
        ("user", "create", "not-an-address", "--name", "X", "--password-file", "/dev/null"),
        ("user", "create", "a@b.org", "--name", "A\nB", "--password-file", "/dev/null"),
        ("user", "create", "a@b.org", "--name", "A", "--password-file", "/no/such/file"),
        ("user", "create", "a@b.org", "--name", "A", "--password-file", "/dev/null"),
        ("user", "create", "a@b.org", "--name", "A"),  # the prompt meets the end of the input
        ("user", "grant", "a@b.org", "--tournament", "bonn", "--role", "organiser"),
        ("user", "grant", "a@b.org", "--organisation", "club", "--role", "director"),
        ("user", "grant", "a@b.org", "--role", "director"),
        ("user", "grant", "a@b.org", "--tournament", "bonn", "--organisation", "x", "--role", "x"),
        ("user", "grant", "nobody@b.org", "--tournament", "bonn", "--role", "director"),
        ("user", "grant", "bob@club.test", "--tournament", "nope", "--role", "director"),
        ("user", "reset-link", "nobody@b.org"),
        ("user", "reset-link", "bob@club.test", "--minutes", "0"),
        ("org", "create", "Bad Slug", "--name", "X"),
        ("org", "create", "ok", "--name", ""),
        ("org", "attach", "nope", "--tournament", "bonn"),
        ("org", "attach", "club", "--tournament", "nope"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    env: dict[str, str | None], args: tuple[str, ...]
) -> None:
    ok(env, "user", "create", "bob@club.test", "--name", "Bob", stdin=f"{PW}\n{PW}\n")
    ok(env, "org", "create", "club", "--name", "Club")
    fails(env, *args)


def test_a_short_password_is_refused(env: dict[str, str | None], tmp_path: Path) -> None:
    short = tmp_path / "short"
    short.write_text("1234\n", encoding="utf-8")
    assert "8 to 500" in fails(
        env, "user", "create", "a@b.org", "--name", "A", "--password-file", short
    )


def test_a_taken_email_or_organisation_is_a_conflict(env: dict[str, str | None]) -> None:
    ok(env, "user", "create", "bob@club.test", "--name", "Bob", stdin=f"{PW}\n{PW}\n")
    done = run_agon(
        "user", "create", "BOB@club.test", "--name", "B", env=env, stdin=f"{PW}\n{PW}\n"
    )
    assert done.returncode == 3 and done.stderr.count("\n") == 1
    ok(env, "org", "create", "club", "--name", "Club")
    fails(env, "org", "create", "club", "--name", "Club", code=3)
