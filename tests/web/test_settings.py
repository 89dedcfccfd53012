"""Issue 26: the web settings are ONE typed source (pydantic-settings). Booleans take the usual
spellings, trusted proxies take CIDR ranges, and junk in any setting stops ``agon serve`` with one
line naming the variable and what it expects (exit 2) — never a default silently taken."""

from __future__ import annotations

import ipaddress

import pytest

from agon.errors import InvalidInput
from agon.web.app import create_app
from agon.web.security import client_address
from agon.web.settings import (
    EXPECTS,
    PLAY_COMMIT_DELAY_MS,
    PLAY_COMMIT_SIBLINGS,
    WebSettings,
    env_name,
    web_settings,
)
from tests.cli_runner import run_agon


@pytest.mark.parametrize(
    ("text", "value"),
    [
        *((t, True) for t in ("1", "true", "True", "TRUE", "yes", "Yes", "on", "ON")),
        *((t, False) for t in ("0", "false", "False", "no", "NO", "off", "Off")),
    ],
)
def test_booleans_take_the_usual_spellings(text: str, value: bool) -> None:
    assert web_settings({"AGON_SECURE_COOKIES": text}).secure_cookies is value


def test_an_empty_variable_counts_as_unset() -> None:
    settings = web_settings({"AGON_SECURE_COOKIES": "", "AGON_PLAY_GAMES_PER_HOUR": ""})
    assert settings.secure_cookies is False and settings.play_games_per_hour == 60


def test_trusted_proxies_take_cidr_ranges_and_addresses() -> None:
    settings = web_settings({"AGON_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7,2001:db8::/32"})
    trusted = settings.trusted_proxies
    assert ipaddress.ip_network("10.0.0.0/8") in trusted
    # a proxy anywhere in 10/8 is believed; the client is the last hop that is no proxy
    assert client_address("10.20.30.40", "203.0.113.9, 10.0.0.5", trusted) == "203.0.113.9"
    assert client_address("192.0.2.7", "203.0.113.9", trusted) == "203.0.113.9"
    assert client_address("2001:db8::1", "203.0.113.9", trusted) == "203.0.113.9"
    assert client_address("::ffff:10.0.0.1", "203.0.113.9", trusted) == "203.0.113.9"
    # anyone else's header is ignored
    assert client_address("11.0.0.1", "203.0.113.9", trusted) == "11.0.0.1"
    assert client_address("192.0.2.8", "203.0.113.9", trusted) == "192.0.2.8"


def test_series_files_and_the_public_url() -> None:
    settings = web_settings({"AGON_SERIES": "a.toml:b.toml", "AGON_PUBLIC_URL": "https://x.org/"})
    assert settings.series_files == ("a.toml", "b.toml")
    assert settings.public_url == "https://x.org"


JUNK = [
    ("AGON_SECURE_COOKIES", "maybe", "Input should be a valid boolean"),
    ("AGON_SECURE_COOKIES", "2", "Input should be a valid boolean"),
    ("AGON_TRUSTED_PROXIES", "10.0.0.0/33", "'10.0.0.0/33' is not an address or CIDR range"),
    ("AGON_TRUSTED_PROXIES", "proxy.example", "'proxy.example' is not an address or CIDR"),
    ("AGON_PLAY_GAMES_PER_HOUR", "abc", "Input should be a valid integer"),
    ("AGON_PLAY_GAMES_PER_HOUR", "-1", "Input should be greater than or equal to 0"),
    ("AGON_PLAY_GAMES_PER_HOUR", "1.5", "Input should be a valid integer"),
    ("AGON_PUBLIC_URL", "192.168.1.20:8000", "is not an http:// or https:// address"),
    ("AGON_DATABASE_URL", "mysql://x/y", "mysql is not supported; agon works with sqlite"),
    ("AGON_DATABASE_URL", "nonsense", "not usable"),
    ("AGON_PIN_ATTEMPTS", "0", "greater than or equal to 1"),
    ("AGON_ONLINE_SWEEP_SECONDS", "nan", "finite number"),
    ("AGON_RENDER_PROCESS", "sometimes", "Input should be a valid boolean"),
    ("AGON_PLAY_COMMIT_DELAY_MS", "51", "less than or equal to 50"),
    ("AGON_PLAY_COMMIT_DELAY_MS", "-1", "greater than or equal to 0"),
    ("AGON_PLAY_COMMIT_SIBLINGS", "0", "greater than or equal to 1"),
]


@pytest.mark.parametrize(("name", "value", "reason"), JUNK)
def test_junk_in_a_setting_is_one_line_naming_it(name: str, value: str, reason: str) -> None:
    with pytest.raises(InvalidInput) as info:
        web_settings({name: value})
    message = str(info.value)
    assert message.startswith(f"{name}={value!r}: "), message
    assert reason in message and "\n" not in message
    field = name.removeprefix("AGON_").lower()
    if field in EXPECTS:
        assert f"expects {EXPECTS[field]}" in message


@pytest.mark.parametrize(("name", "value", "reason"), JUNK[::3])
def test_agon_serve_refuses_to_start_on_junk(name: str, value: str, reason: str) -> None:
    done = run_agon("serve", "--port", "1", env={name: value, "AGON_DIRECTOR_PASSWORD": "pw"})
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"agon: error: {name}={value!r}: ")
    assert done.stderr.count("\n") == 1 and reason in done.stderr


def test_agon_serve_with_an_unsupported_driver_names_the_supported_schemes() -> None:
    done = run_agon("serve", env={"AGON_DATABASE_URL": "mysql://x/y"})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "agon works with sqlite (sqlite:///var/agon.db) and postgresql+psycopg" in done.stderr
    done = run_agon("serve", "--database", "mysql://x/y")
    assert done.returncode == 2 and "mysql is not supported" in done.stderr


def test_every_setting_has_its_variable_and_every_expectation_a_field() -> None:
    assert set(EXPECTS) <= set(WebSettings.model_fields)
    assert env_name("play_games_per_hour") == "AGON_PLAY_GAMES_PER_HOUR"


def test_settings_built_directly_read_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGON_SECURE_COOKIES", "1")
    assert WebSettings().secure_cookies is False
    assert web_settings().secure_cookies is True  # only web_settings reads the environment
    with pytest.raises(InvalidInput, match="AGON_PLAY_GAMES_PER_HOUR='x'"):
        WebSettings().replace(play_games_per_hour="x")


def test_the_commit_delay_reaches_the_online_games_writer(settings: WebSettings) -> None:
    """``AGON_PLAY_COMMIT_DELAY_MS`` (milliseconds) and ``AGON_PLAY_COMMIT_SIBLINGS`` are the
    group writer's commit delay (seconds) and siblings; unset, the documented defaults."""
    assert web_settings({}).play_commit_delay_ms == PLAY_COMMIT_DELAY_MS
    assert web_settings({}).play_commit_siblings == PLAY_COMMIT_SIBLINGS
    told = web_settings({"AGON_PLAY_COMMIT_DELAY_MS": "7.5", "AGON_PLAY_COMMIT_SIBLINGS": "3"})
    assert (told.play_commit_delay_ms, told.play_commit_siblings) == (7.5, 3)
    for delay_ms, siblings in ((7.5, 3), (PLAY_COMMIT_DELAY_MS, PLAY_COMMIT_SIBLINGS), (0, 1)):
        app = create_app(
            settings.replace(play_commit_delay_ms=delay_ms, play_commit_siblings=siblings)
        )
        try:
            writer = app.state.play.writer
            assert writer.commit_delay == pytest.approx(delay_ms / 1000)
            assert writer.commit_siblings == siblings
        finally:
            app.state.play.close()
            app.state.web.engine.dispose()
