"""Fuzzing the settings (issue 26): any text in any ``AGON_`` variable of the web app is either
taken as a value of the setting's type or refused with ONE line that names the variable — never
a traceback, never a default taken silently."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.errors import InvalidInput
from agon.web.settings import WebSettings, env_name, web_settings
from tests.fuzzing import examples

#: Every variable of the web settings (the director's password is hashed: slow, and any text is
#: a password).
VARIABLES = sorted(env_name(f) for f in WebSettings.model_fields if f not in ("director_password",))

text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["1", "0", "yes", "No", "ON", "off", "-1", "1e3", "nan", "10.0.0.0/8"]),
    st.from_regex(r"\A[0-9./:,a-f ]{0,30}\Z"),
)


@settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(name=st.sampled_from(VARIABLES), value=text)
def test_any_text_in_any_setting_is_taken_or_one_line(name: str, value: str) -> None:
    if "\x00" in value:  # the environment cannot hold a NUL
        value = value.replace("\x00", "")
    try:
        result = web_settings({name: value})
    except InvalidInput as exc:
        message = str(exc)
        assert message.startswith(f"{name}="), message
        assert "\n" not in message and "Traceback" not in message
        return
    assert isinstance(result, WebSettings)
    if value.strip() == "":
        return
    if name == "AGON_SECURE_COOKIES":  # only the usual spellings are a yes or a no
        yes = {"1", "true", "yes", "on", "t", "y"}
        no = {"0", "false", "no", "off", "f", "n"}
        assert value.lower() in yes | no and result.secure_cookies == (value.lower() in yes)
    if name == "AGON_PLAY_GAMES_PER_HOUR":
        assert result.play_games_per_hour == int(value)
