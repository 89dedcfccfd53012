"""Issue 27: behind a reverse proxy — ``--root-path`` (links and redirects carry the prefix) and
trusted proxies as CIDR ranges for ``X-Forwarded-For`` and ``X-Forwarded-Proto``."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.types import Receive, Scope, Send

from agon.web.app import create_app
from agon.web.logs import ACCESS_LOGGER
from agon.web.proxy import ForwardedProto, rewrite_links
from agon.web.settings import WebSettings
from tests.fuzzing import examples
from tests.web.conftest import PASSWORD, TestClient, form_token
from tests.web.test_play_api import create

#: Every site-absolute URL in a page's attributes.
ABSOLUTE = re.compile(r"""\s(?:href|src|action|hx-[a-z-]+|data-[a-z0-9-]+)=["'](/[^"']*)""")


@pytest.fixture
def prefixed(settings: WebSettings) -> Any:
    application = create_app(settings.replace(root_path="/agon"))
    yield application
    application.state.web.engine.dispose()


def links(html: str) -> list[str]:
    return ABSOLUTE.findall(html)


def test_root_path_puts_the_prefix_on_links_and_redirects(prefixed: Any, bonn: str) -> None:
    with TestClient(prefixed) as client:
        page = client.get("/agon/p/bonn")
        assert page.status_code == 200
        found = links(page.text)
        assert "/agon/static/app.css" in found and "/agon/p/bonn/seat" in found
        assert all(url.startswith("/agon/") or url == "/agon" for url in found), found
        # a proxy that strips the prefix reaches the same page, links prefixed alike
        assert links(client.get("/p/bonn").text) == found
        assert client.get("/agon/static/app.css").status_code == 200
        # a redirect carries the prefix, and so does the login that follows it
        moved = client.get("/agon/desk", follow_redirects=False)
        assert moved.status_code == 303 and moved.headers["location"].startswith("/agon/desk/login")
        login = client.get(moved.headers["location"])
        assert all(url.startswith("/agon/") for url in links(login.text))
        done = client.post(
            "/agon/desk/login",
            data={"password": PASSWORD, "csrf_token": form_token(login.text)},
            follow_redirects=False,
        )
        assert done.status_code == 303 and done.headers["location"] == "/agon/desk"
        desk = client.get("/agon/desk/bonn")
        assert desk.status_code == 200 and len(links(desk.text)) > 10
        assert all(url.startswith("/agon/") for url in links(desk.text)), links(desk.text)
        # HEAD's length is that of the rewritten page
        head = client.head("/agon/p/bonn")
        assert head.headers["content-length"] == str(len(page.content)) and head.content == b""
        assert client.get("/agon/readyz").json()["status"] == "ready"


def test_without_a_root_path_nothing_is_rewritten(client: TestClient, bonn: str) -> None:
    found = links(client.get("/p/bonn").text)
    assert "/static/app.css" in found and not any(u.startswith("/agon") for u in found)
    assert client.get("/agon/p/bonn").status_code == 404


def test_x_forwarded_for_from_a_trusted_cidr_range(
    settings: WebSettings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    trusted = settings.replace(access_log=True, trusted_proxies="10.0.0.0/8, 192.0.2.7")
    app = create_app(trusted)
    try:
        headers = {"x-forwarded-for": "203.0.113.9"}
        with TestClient(app, client=("10.20.30.40", 5000)) as behind_proxy:
            behind_proxy.get("/healthz", headers=headers)
        with TestClient(app, client=("198.51.100.3", 5000)) as direct:
            direct.get("/healthz", headers=headers)  # not a proxy: the header is ignored
    finally:
        app.state.web.engine.dispose()
    clients = [r.__dict__["client"] for r in caplog.records if r.name == ACCESS_LOGGER]
    assert clients == ["203.0.113.9", "198.51.100.3"]


async def _scheme_of(app: Any, peer: str, proto: bytes) -> str:
    seen: dict[str, str] = {}

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        seen["scheme"] = scope["scheme"]

    scope = {
        "type": "http",
        "scheme": "http",
        "client": (peer, 1),
        "headers": [(b"x-forwarded-proto", proto)],
    }
    await ForwardedProto(inner, app)(scope, None, None)  # type: ignore[arg-type]
    return seen["scheme"]


def test_x_forwarded_proto_only_from_a_trusted_proxy() -> None:
    import asyncio
    from ipaddress import ip_network

    trusted = frozenset({ip_network("10.0.0.0/8"), ip_network("2001:db8::/32")})
    run = asyncio.run
    assert run(_scheme_of(trusted, "10.9.8.7", b"https")) == "https"
    assert run(_scheme_of(trusted, "2001:db8::5", b"HTTPS, http")) == "https"
    assert run(_scheme_of(trusted, "192.0.2.1", b"https")) == "http"  # not trusted
    assert run(_scheme_of(trusted, "10.9.8.7", b"gopher")) == "http"  # not a scheme we take
    assert run(_scheme_of(frozenset(), "10.9.8.7", b"https")) == "http"  # no proxies set


@settings(max_examples=examples(200), deadline=None)
@given(
    attr=st.sampled_from(["href", "src", "action", "hx-get", "data-frag", "title", "alt"]),
    path=st.text(alphabet="abc/?=&%#._-", max_size=20),
    filler=st.text(max_size=30),
)
def test_rewrite_links_on_any_page(attr: str, path: str, filler: str) -> None:
    html = f'{filler}<a {attr}="{path}">x</a>{filler}'.encode("utf-8", "surrogatepass")
    out = rewrite_links("/agon", html)
    rewritten = attr not in ("title", "alt") and path.startswith("/") and not path.startswith("//")
    if rewritten:
        assert f' {attr}="/agon{path}"'.encode() in out
    elif filler.find(" ") < 0:  # the filler has no attribute of its own to rewrite
        assert out == html


def test_a_new_games_seat_links_carry_the_prefix(prefixed: Any) -> None:
    with TestClient(prefixed) as client:
        game = create(client)
        url = game["seats"][0]["url"]
        assert url.startswith(f"/agon/play/{game['game_id']}?token=")
        page = client.get(url)
        assert page.status_code == 200 and 'data-frag="/agon/play/' in page.text
