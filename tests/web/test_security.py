"""What the browser is told and whom the server believes: security headers on every response, the
Host header and a WebSocket's Origin checked, links from a known host, no secret in a URL or a log."""

from __future__ import annotations

import logging
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from gammon.cli import serve
from gammon.store import Store
from gammon.web import create_app
from gammon.web.limits import address_key
from gammon.web.security import HideSecrets
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice

STATIC = Path(str(files("gammon.web") / "static"))


def _client(store: Store, **options: Any) -> TestClient:
    return TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(**{"rate": 1000, "burst": 1000, **options}))
    )


# 1. Security headers, on every response.


def _has_the_headers(r: Any) -> None:
    csp = r.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp, (r.url, r.headers)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers.get("x-content-type-options") == "nosniff"
    assert r.headers.get("referrer-policy") == "no-referrer"
    assert r.headers.get("x-frame-options") == "DENY"


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/play/abc",
        "/watch/abc",
        "/analysis",
        "/editor",
        "/static/app.js",
        "/static/style.css",
        "/api/levels",
        "/api/matches/nothing",
        "/nowhere",
        "/openapi.json",
        "/docs-assets/swagger-ui.css",
    ],
)
def test_every_response_has_the_security_headers(client: TestClient, path: str) -> None:
    _has_the_headers(client.get(path))


def test_refusals_have_the_security_headers_too(store: Store) -> None:
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=0.01, burst=1))) as c:
        c.get("/api/levels")
        r = c.get("/api/levels")
        assert r.status_code == 429
        _has_the_headers(r)
        _has_the_headers(c.get("/", headers={"Host": "evil.example"}))


def test_the_docs_page_runs_its_own_inline_script_and_no_other(client: TestClient) -> None:
    r = client.get("/docs")
    _has_the_headers(r)
    scripts = re.findall(r"<script>(.*?)</script>", r.text, re.DOTALL)
    assert len(scripts) == 1 and "SwaggerUIBundle" in scripts[0]
    assert re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}';", r.headers["content-security-policy"])


def test_the_pages_have_no_inline_script_or_style() -> None:
    """The policy forbids them: a page that had one would break (the browser tests see it run)."""
    for page in STATIC.glob("*.html"):
        html = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), page
        assert "<style" not in html and not re.search(r"\sstyle=", html), page
        assert not re.search(r"\son[a-z]+=", html), page
    for script in STATIC.glob("*.js"):
        assert not re.search(r"""\bstyle:\s*["'`]|setAttribute\(\s*["']style""", script.read_text()), script


# 2. The Host header: only hosts the server knows, and links built from them.


def test_a_forged_host_is_refused_and_never_copied_into_a_link(client: TestClient) -> None:
    r = client.post("/api/matches", json={"mode": "online"}, headers={"Host": "evil.example"})
    assert r.status_code == 400 and "evil.example" not in r.text.replace("'evil.example'", "")
    assert r.json()["error"].startswith("unknown host 'evil.example'")
    r = client.get("/api/matches/", headers={"Host": "evil.example"})  # a redirect would name it
    assert r.status_code == 400 and "location" not in r.headers
    long = client.get("/", headers={"Host": "x" * 5000})
    assert long.status_code == 400 and len(long.text) < 400


def test_the_servers_own_names_are_known(client: TestClient) -> None:
    for host in ("testserver", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        r = client.post("/api/matches", json={"mode": "online"}, headers={"Host": host})
        assert r.status_code == 200, (host, r.text)
        assert r.json()["invite_url"].startswith(f"http://{host}/play/")


def test_the_operator_may_allow_other_hosts(store: Store) -> None:
    with _client(store, allowed_hosts=["gammon.lan"]) as c:
        r = c.post("/api/matches", json={"mode": "online"}, headers={"Host": "gammon.lan:8000"})
        assert r.status_code == 200 and r.json()["invite_url"].startswith("http://gammon.lan:8000/play/")
        assert c.get("/", headers={"Host": "GAMMON.LAN"}).status_code == 200  # names are not case-sensitive
        assert c.get("/", headers={"Host": "other.lan"}).status_code == 400


def test_links_are_built_from_the_public_url(store: Store) -> None:
    with _client(store, public_url="https://play.example.org") as c:
        m = new_match(c, mode="online")
        assert m["url"].startswith("https://play.example.org/play/")
        assert m["invite_url"].startswith("https://play.example.org/play/")
        link = c.get(f"/api/matches/{m['match_id']}/watch-link", headers=auth(m["token"])).json()
        assert link["url"].startswith("https://play.example.org/watch/")
        assert c.get("/", headers={"Host": "play.example.org"}).status_code == 200


def test_a_public_url_must_be_an_http_url(store: Store) -> None:
    with pytest.raises(ValueError, match="public_url"):
        create_app(store, settings=ServerSettings(public_url="javascript:alert(1)"))


# 3. WebSockets: the page's own origin only; the secret in a subprotocol, not the URL.


def test_a_websocket_from_a_foreign_origin_is_refused(client: TestClient) -> None:
    m = new_match(client, mode="local")
    path = f"/ws/matches/{m['match_id']}"
    protocols = ["gammon", f"token.{m['token']}"]
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect(path, subprotocols=protocols, headers={"Origin": "http://evil.example"}),
    ):
        pass
    assert refused.value.status_code == 403 and "evil.example" in refused.value.json()["error"]
    with (  # no URL at all (urlsplit raises on it): refused the same way
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect(path, subprotocols=protocols, headers={"Origin": "http://["}),
    ):
        pass
    assert refused.value.status_code == 403 and "http://[" in refused.value.json()["error"]
    for origin in ({"Origin": "http://testserver"}, {}):  # its own page, or no browser at all
        with client.websocket_connect(path, subprotocols=protocols, headers=origin) as ws:
            assert ws.receive_json()["type"] == "state"


def test_the_seat_token_and_the_watch_key_come_as_subprotocols(client: TestClient) -> None:
    m = new_match(client, mode="local")
    with client.websocket_connect(
        f"/ws/matches/{m['match_id']}", subprotocols=["gammon", f"token.{m['token']}"]
    ) as ws:
        assert ws.accepted_subprotocol == "gammon"
        assert ws.receive_json()["state"]["match_id"] == m["match_id"]
    with client.websocket_connect(f"/ws/matches/{m['match_id']}", headers=auth(m["token"])) as ws:
        assert ws.receive_json()["type"] == "state"  # a client that can set headers
    key = client.get(f"/api/matches/{m['match_id']}/watch-link", headers=auth(m["token"])).json()["key"]
    with client.websocket_connect(f"/ws/watch/{m['match_id']}", subprotocols=["gammon", f"key.{key}"]) as ws:
        assert ws.receive_json()["state"]["seat"] is None
    with client.websocket_connect(
        f"/ws/matches/{m['match_id']}", subprotocols=["gammon", "token.wrong"]
    ) as ws:
        assert "does not open a seat" in ws.receive_json()["error"]


def test_the_browser_sends_no_secret_in_a_url() -> None:
    """The seat token and the watch key went in WebSocket and download URLs, which logs keep."""
    code = {p.name: p.read_text() for p in STATIC.glob("*.js")}
    assert "token=${" not in code["app.js"] and "?key=" not in code["watch.js"]
    assert 'new WebSocket(`${proto}//${location.host}${path}`, ["gammon", secret])' in code["socket.js"]
    assert "`token.${ui.token}`" in code["app.js"] and "`key.${watch.key}`" in code["watch.js"]


# 4. Secrets an old client still puts in a URL are cut out of the server's logs.


@pytest.mark.parametrize(
    ("fmt", "args"),
    [
        (
            '%s - "%s %s HTTP/%s" %d',
            ("127.0.0.1:5000", "GET", "/api/matches/m/match.mat?token=SECRET&x=1", "1.1", 200),
        ),
        ('%s - "WebSocket %s" [accepted]', ("127.0.0.1:5000", "/ws/watch/m?key=SECRET")),
    ],
)
def test_the_logs_hide_tokens_and_keys(fmt: str, args: tuple, caplog: pytest.LogCaptureFixture) -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, fmt, args, None)
    assert HideSecrets().filter(record)
    line = record.getMessage()
    assert "SECRET" not in line and "=***" in line and line.startswith("127.0.0.1:5000")


def test_serve_hides_secrets_in_its_logs_and_passes_the_hosts_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from gammon.cli.serve import main

    seen: dict = {}
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: seen.update(kw, app=app))
    assert (
        main(
            [
                "serve",
                "--port",
                "0",
                "--database-url",
                f"sqlite:///{tmp_path / 'g.db'}",
                "--public-url",
                "https://play.example.org/",
                "--allowed-hosts",
                "a.lan, b.lan",
            ]
        )
        == 0
    )
    config = seen["log_config"]
    assert all("hide_secrets" in config["handlers"][h]["filters"] for h in ("default", "access"))
    app = seen["app"]
    assert app.state.public_url == "https://play.example.org"
    c = TestClient(app)  # no lifespan: the engine is not loaded
    assert c.get("/api/levels", headers={"Host": "b.lan"}).status_code == 200
    assert c.get("/api/levels", headers={"Host": "c.lan"}).status_code == 400


# 5. Per-address limits.


def test_the_request_limit_counts_an_ipv6_client_by_its_64(store: Store) -> None:
    """Requests from ever new addresses of one /64 share its limit; another /64 and each IPv4
    address have their own."""
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=0.001, burst=2))

    def get(host: str) -> int:
        return TestClient(app, client=(host, 50000)).get("/api/levels").status_code

    with TestClient(app):
        assert [get(f"2001:db8:1:2::{i:x}") for i in range(1, 4)] == [200, 200, 429]
        assert [get("2001:db8:1:3::1"), get("192.0.2.1"), get("192.0.2.2")] == [200, 200, 200]


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::9", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("fe80::1%eth0", "fe80::/64"),
        ("testclient", "testclient"),
    ],
)
def test_an_address_is_counted_by_its_key(host: str, key: str) -> None:
    assert address_key(host) == key
