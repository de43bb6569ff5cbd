"""The HTTP side's defences: body size limits on the bytes read, short error replies in one shape,
rate limits on every route, no trusted proxy unless named, deadlines for slow clients, a cap on
connections, and /docs that works offline."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from gammon.cli import serve
from gammon.store import Store
from gammon.web import create_app
from gammon.web.app import MAX_BODY
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, new_match, seeded_dice, serving
from tests.web.test_api import _to_move_phase
from tests.web.test_e2e import CHROMIUM


@pytest.fixture
def server(store: Store) -> Iterator[int]:
    """The app on a real uvicorn on 127.0.0.1 (a random port), for raw HTTP over a socket."""
    with serving(create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))) as port:
        yield port


def raw_chunked_post(port: int, path: str, body: bytes, chunk: int = 4096) -> tuple[int, bytes]:
    """POST ``body`` with Transfer-Encoding: chunked (no Content-Length); the status and reply body."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n".encode())
        try:
            for i in range(0, len(body), chunk):
                part = body[i:i + chunk]
                s.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may answer and close before reading the rest: that is the point
        reply = b""
        try:
            while len(reply) < 1 << 20:
                data = s.recv(65536)
                if not data:
                    break
                reply += data
        except (TimeoutError, ConnectionResetError):
            pass
    head, _, rest = reply.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, rest


# 1. Request bodies: the limit holds on the bytes read, not on what Content-Length claims.

def test_chunked_body_over_the_limit_is_cut_off_with_413(server: int) -> None:
    body = json.dumps({"mode": "local", "level": "x" * (4 * MAX_BODY)}).encode()
    status, reply = raw_chunked_post(server, "/api/matches", body)
    assert status == 413
    assert len(reply) < 1000 and b"xxxxxxxxxx" not in reply
    assert "limit" in json.loads(reply)["error"]


def test_chunked_body_under_the_limit_is_served(server: int) -> None:
    status, reply = raw_chunked_post(server, "/api/matches", json.dumps({"mode": "local"}).encode(), chunk=5)
    assert status == 200


def test_body_without_content_length_over_the_limit_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"mode": "local", "level": "'
        for _ in range(2 * MAX_BODY // 1024):
            yield b"x" * 1024
        yield b'"}'

    r = client.post("/api/matches", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and len(r.content) < 500 and "limit" in r.json()["error"]


def test_bad_content_length_is_not_quoted_whole(client: TestClient) -> None:
    r = client.post("/api/matches", content=b"{}", headers={"Content-Length": "9" * 300,
                                                             "Content-Type": "application/json"})
    assert r.status_code in (400, 413) and "9" * 50 not in r.text


# 2. Error replies never echo large input back.

@pytest.mark.parametrize("body", [
    {"mode": "x" * 5000},
    {"mode": "local", "level": "y" * 5000},
    {"mode": "local", "unknown": "z" * 5000},
    {"mode": "local", "length": "w" * 5000},
    ["v" * 5000],
])
def test_validation_errors_quote_a_short_cut_of_the_input(client: TestClient, body: object) -> None:
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422
    message = r.json()["error"]
    assert len(message) < 400, message
    assert not re.search(r"([vwxyz])\1{40}", message), message


def test_short_input_is_still_quoted(client: TestClient) -> None:
    r = client.post("/api/matches", json={"mode": "fly"})
    assert r.status_code == 422 and "'fly'" in r.json()["error"]


def test_action_errors_stay_short(client: TestClient) -> None:
    m = new_match(client, mode="local")
    r = client.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]),
                    json={"action": "move", "play": "9" * 5000})
    assert r.status_code == 422 and len(r.text) < 400 and "9" * 41 not in r.text


# 3. One error shape everywhere: {"error": message}.

def only_error(r: object) -> str:
    body = r.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"}, body
    assert isinstance(body["error"], str) and body["error"]
    return body["error"]


def test_unknown_route_is_404_in_the_error_shape(client: TestClient) -> None:
    r = client.get("/api/nothing/here")
    assert r.status_code == 404
    assert "/api/nothing/here" in only_error(r)


def test_long_unknown_route_is_not_quoted_whole(client: TestClient) -> None:
    r = client.get("/" + "q" * 3000)
    assert r.status_code == 404 and "q" * 100 not in only_error(r)


def test_wrong_method_is_405_in_the_error_shape(client: TestClient) -> None:
    r = client.delete("/api/matches")
    assert r.status_code == 405
    assert "DELETE" in only_error(r)


def test_unparsable_body_is_400_in_the_error_shape(client: TestClient) -> None:
    r = client.post("/api/matches", content=b'{"mode": "\xff\xfe"}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    only_error(r)


def test_bad_path_parameter_is_422_in_the_error_shape(client: TestClient) -> None:
    m = new_match(client, mode="local")
    r = client.get(f"/api/matches/{m['match_id']}/games/first/frames", headers=auth(m["token"]))
    assert r.status_code == 422
    only_error(r)


class BrokenAdvisor:
    def hint(self, *_args: object) -> list:
        raise RuntimeError("<secret internal state 0xdeadbeef>")


def test_internal_errors_are_500_without_internals(store: Store) -> None:
    settings = ServerSettings(rate=1000, burst=1000)
    app = create_app(store, seeded_dice(), settings, engine=BrokenAdvisor())  # type: ignore[arg-type]
    with TestClient(app, raise_server_exceptions=False) as c:
        m = new_match(c, mode="local")
        assert _to_move_phase(c, m)["phase"] == "move"
        r = c.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"]))
        assert r.status_code == 500
        assert "secret" not in only_error(r) and "0xdeadbeef" not in r.text


# 4. Rate limits cover GET routes, hints above all; proxies are trusted only when named.


def test_get_routes_are_rate_limited(store: Store) -> None:
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=0.01, burst=3))) as c:
        codes = [c.get("/api/levels").status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
        assert "slow down" in only_error(c.get("/api/levels"))


def test_hints_have_their_own_smaller_limit(store: Store) -> None:
    with TestClient(create_app(store, seeded_dice(), settings=ServerSettings(rate=0.5, burst=30))) as c:
        m = new_match(c, mode="local")
        assert _to_move_phase(c, m)["phase"] == "move"
        codes = [
            c.get(f"/api/matches/{m['match_id']}/hint", headers=auth(m["token"])).status_code
            for _ in range(5)
        ]
        assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
        # Other requests still pass: the hint bucket is apart.
        assert c.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).status_code == 200


def serve_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *argv: str) -> dict:
    from gammon.cli.serve import main

    seen: dict = {}
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: seen.update(kw))
    assert main(["serve", "--port", "0", "--database-url", f"sqlite:///{tmp_path / 'g.db'}", *argv]) == 0
    return seen


def test_serve_says_why_it_cannot_listen_before_loading_anything(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port in use was reported by uvicorn only after gammon had said it was serving there."""
    from gammon.cli.serve import main

    monkeypatch.setattr(serve, "run_uvicorn", lambda *a, **kw: pytest.fail("uvicorn must not start"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'g.db'}"]) == 2
    assert f"gammon serve: cannot listen on 127.0.0.1:{port}: " in capsys.readouterr().err
    assert not (tmp_path / "g.db").exists()  # refused before the database was made
    assert main(["serve", "--port", "70000"]) == 2
    assert "cannot listen on 127.0.0.1:70000" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("garbage://", "'garbage://'"),
        ("not a url", "'not a url'"),
        (
            "postgresql://gammon:s3cret@127.0.0.1:1/gammon",
            "'postgresql+psycopg://gammon:***@127.0.0.1:1/gammon'",
        ),
    ],
)
def test_serve_says_why_it_cannot_open_the_database(
    url: str, shown: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gammon.cli.serve import main

    monkeypatch.setattr(serve, "run_uvicorn", lambda *a, **kw: pytest.fail("uvicorn must not start"))
    assert main(["serve", "--port", "0", "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gammon serve: cannot open the database {shown}: "), err
    assert "s3cret" not in err and "Traceback" not in err and len(err) < 400


def test_serve_trusts_no_proxy_unless_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    options = serve_options(monkeypatch, tmp_path)
    assert options["proxy_headers"] is False and "forwarded_allow_ips" not in options


def test_serve_trusts_the_named_proxies(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    options = serve_options(monkeypatch, tmp_path, "--forwarded-allow-ips", "10.0.0.5,10.0.0.6")
    assert options["proxy_headers"] is True and options["forwarded_allow_ips"] == "10.0.0.5,10.0.0.6"


def forwarded_codes(store: Store, options: dict) -> list[int]:
    """Statuses of 4 requests from 127.0.0.1 (uvicorn's default trusted proxy), each naming another
    client in X-Forwarded-For, through uvicorn's wrapping of the app with ``options``."""
    config = uvicorn.Config(
        create_app(store, seeded_dice(), settings=ServerSettings(rate=0.01, burst=2)), **options
    )
    config.load()
    with TestClient(config.loaded_app, client=("127.0.0.1", 50000)) as c:
        return [
            c.get("/api/levels", headers={"X-Forwarded-For": f"10.1.1.{i}"}).status_code for i in range(4)
        ]


def test_forwarded_for_does_not_pick_the_rate_limit_bucket(
    store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert forwarded_codes(store, {}) == [200] * 4  # uvicorn's defaults: the header picks the bucket
    options = serve_options(monkeypatch, tmp_path)
    assert forwarded_codes(store, {k: options[k] for k in ("proxy_headers",)}) == [200, 200, 429, 429]
    options = serve_options(monkeypatch, tmp_path, "--forwarded-allow-ips", "127.0.0.1")
    named = {k: options[k] for k in ("proxy_headers", "forwarded_allow_ips")}
    assert forwarded_codes(store, named) == [200] * 4  # the operator's proxy: its header is believed


# 5. Slow clients: a request's head and body have deadlines; connections are capped.


def _reply_or_close(s: socket.socket, trickle: bytes = b"") -> bytes:
    """What the server sends before it closes ``s`` (10 s at most), while ``trickle`` goes out a
    byte every 50 ms; "" if it closed without a word."""
    s.settimeout(0.05)
    reply, deadline, k = b"", time.monotonic() + 10, 0
    while time.monotonic() < deadline:
        if trickle:  # the same line, again and again
            with contextlib.suppress(OSError):
                s.sendall(trickle[k % len(trickle) :][:1])
            k += 1
        try:
            data = s.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:  # closed, and our bytes after the close were refused
            return reply.decode()
        if not data:
            return reply.decode()
        reply += data
    raise AssertionError(f"the connection was still open after 10 s (it sent {reply[:200]!r})")


def _one_response(s: socket.socket) -> bytes:
    """One whole response read from ``s``: its head, then its ``Content-Length`` of body (one
    recv may hold part of a response, or the end of one and the start of the next)."""
    s.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, f"closed before a whole head came: {data[:200]!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    assert length is not None, head[:200]
    while len(body) < int(length.group(1)):
        chunk = s.recv(65536)
        assert chunk, f"closed before the whole body came: {head[:200]!r}"
        body += chunk
    return head + b"\r\n\r\n" + body


def _quick_head(seconds: float) -> type:
    from gammon.web.http_protocol import GuardedHttp

    return type("QuickHead", (GuardedHttp,), {"head_timeout": seconds})


def test_a_connection_that_sends_nothing_is_closed(store: Store) -> None:
    """Connections that never sent a request were held open for good (300 of them, a minute)."""
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app, http=_quick_head(0.3)) as port, socket.create_connection(("127.0.0.1", port)) as s:
        assert _reply_or_close(s) == ""


def test_headers_sent_a_byte_at_a_time_get_408(store: Store) -> None:
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app, http=_quick_head(0.3)) as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        reply = _reply_or_close(s, trickle=b"X-Slow: 1\r\n")
    assert reply.startswith("HTTP/1.1 408 "), reply
    assert "headers did not come within 0.3 s" in json.loads(reply.partition("\r\n\r\n")[2])["error"]


def test_a_kept_alive_connection_is_served_again_then_timed_out(store: Store) -> None:
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app, http=_quick_head(0.3)) as port, socket.create_connection(("127.0.0.1", port)) as s:
        for _ in range(2):  # the deadline starts again after each response
            s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _one_response(s).startswith(b"HTTP/1.1 200 ")
        s.sendall(b"GET /api/levels HTTP/1.1\r\n")
        assert _reply_or_close(s, trickle=b"X-Slow: 1\r\n").startswith("HTTP/1.1 408 ")


@pytest.mark.parametrize(
    "head",
    [b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ", b"GET /api/levels?" + b"q" * 100],
    ids=["header", "url"],
)
def test_a_head_over_its_limit_gets_431_before_it_is_all_read(store: Store, head: bytes) -> None:
    """A 67 MB header sent within the head's deadline held the event loop for seconds (each piece
    copied all before it) and the server's memory grew by 130 MB."""
    from gammon.web.http_protocol import MAX_HEAD

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app, http=_quick_head(2)) as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(head)
        sent = len(head)
        with contextlib.suppress(OSError):  # the server closes on the way
            while sent < 64 * MAX_HEAD:
                s.sendall(b"a" * 65536)
                sent += 65536
        reply = _reply_or_close(s)
    assert reply.startswith("HTTP/1.1 431 "), reply[:200]
    assert json.loads(reply.partition("\r\n\r\n")[2]) == {
        "error": f"a request's line and headers are {MAX_HEAD} bytes at most"
    }


def test_a_large_body_after_a_short_head_in_one_read_is_served(store: Store) -> None:
    """A head's limit counts the head's bytes, not the body's that come with them."""
    from gammon.web.http_protocol import MAX_HEAD, GuardedHttp

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    body = json.dumps({"mode": "local", "name": "x" * 40, "pad": "y" * (4 * MAX_HEAD)}).encode()
    with serving(app, http=GuardedHttp) as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"POST /api/analyses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body)
        reply = _one_response(s)
    # refused by the app (no such field), not by the head's limit
    assert reply.startswith(b"HTTP/1.1 422 "), reply[:300]


def _pipelined_answers(port: int, n: int) -> int:
    """How many answers ``n`` requests sent at once on one connection get before it closes (or all came)."""
    request = b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port)) as s:
        with contextlib.suppress(OSError):  # the server closes on the way
            s.sendall(request * n)
        s.settimeout(10)
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while data.count(b"HTTP/1.1 200 ") < n and (chunk := s.recv(65536)):
                data += chunk
    return data.count(b"HTTP/1.1 200 ")


def test_a_connection_with_too_many_requests_waiting_is_closed(store: Store) -> None:
    """uvicorn parsed each read's requests ahead of their answers and kept them all: 8 MB of
    pipelined requests on one connection grew the server by 556 MB."""
    from gammon.web.http_protocol import MAX_PIPELINE, GuardedHttp

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1e6, burst=1e6))
    with serving(app, http=GuardedHttp) as port:
        assert _pipelined_answers(port, 8) == 8  # a few are answered in turn
        assert _pipelined_answers(port, 1000) <= MAX_PIPELINE + 1


def _get_from(port: int, source: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), source_address=(source, 0)) as s:
        s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return _one_response(s)


def test_one_address_cannot_hold_every_connection(store: Store) -> None:
    """One client holding 100 idle connections of a 100-connection server had every other client
    answered 503."""
    from gammon.web.http_protocol import GuardedHttp

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    # as gammon serve runs uvicorn: no proxy trusted (uvicorn's default trusts 127.0.0.1)
    options: dict = {"http": GuardedHttp, "limit_concurrency": 40, "proxy_headers": False}
    with serving(app, **options) as port, contextlib.ExitStack() as held:
        sockets = [held.enter_context(socket.create_connection(("127.0.0.1", port))) for _ in range(40)]
        for refused in sockets[16:]:  # an eighth of 40, at least 16, are held
            reply = _reply_or_close(refused)
            assert reply.startswith("HTTP/1.1 429 ") and "16 connections open" in reply, reply
        assert _get_from(port, "127.0.0.2").startswith(b"HTTP/1.1 200 ")  # another client is served
        held.close()
        deadline = time.monotonic() + 10
        while not _get_from(port, "127.0.0.1").startswith(b"HTTP/1.1 200 "):  # its count let go
            assert time.monotonic() < deadline


def test_a_trusted_proxys_connections_are_not_capped(store: Store) -> None:
    from gammon.web.http_protocol import GuardedHttp

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    options: dict = {"http": GuardedHttp, "limit_concurrency": 40, "proxy_headers": True,
                     "forwarded_allow_ips": "10.0.0.0/8,127.0.0.0/8"}
    with serving(app, **options) as port, contextlib.ExitStack() as held:
        for _ in range(30):
            held.enter_context(socket.create_connection(("127.0.0.1", port)))
        assert _get_from(port, "127.0.0.1").startswith(b"HTTP/1.1 200 ")


def test_a_body_that_does_not_come_gets_408(store: Store) -> None:
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000, body_timeout=0.3))
    with serving(app) as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(
            b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"mode": '
        )
        reply = _reply_or_close(s)
    assert reply.startswith("HTTP/1.1 408 "), reply
    assert "body did not all come within 0.3 s" in json.loads(reply.partition("\r\n\r\n")[2])["error"]


def test_a_websocket_handshake_past_the_connection_cap_gets_503(store: Store) -> None:
    from gammon.web.http_protocol import GuardedHttp

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app, http=GuardedHttp, limit_concurrency=3) as port:
        m = httpx.post(f"http://127.0.0.1:{port}/api/matches", json={"mode": "local"}).json()
        handshake = (
            f"GET /ws/matches/{m['match_id']}?token={m['token']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        ).encode()
        with contextlib.ExitStack() as held:
            replies = []
            for _ in range(3):
                s = held.enter_context(socket.create_connection(("127.0.0.1", port), timeout=10))
                s.sendall(handshake)
                replies.append(s.recv(65536))
        assert [r[:12] for r in replies] == [b"HTTP/1.1 101", b"HTTP/1.1 101", b"HTTP/1.1 503"], replies
        assert b"limit" in replies[2]


def _handshake(path: str, extra: str = "", method: str = "GET") -> bytes:
    return (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n"
    ).encode()


@pytest.mark.parametrize(
    "handshake",
    [
        _handshake("/ws/lobby", f"X-Pad: {'a' * 9000}\r\n"),
        _handshake("/ws/matches/" + "Q" * 9000),
        _handshake("/ws/lobby", "".join(f"X-H{i}: 1\r\n" for i in range(130))),
    ],
    ids=["long header", "long path", "many headers"],
)
def test_a_websocket_handshake_the_library_cannot_read_gets_431(store: Store, handshake: bytes) -> None:
    """The websockets library drops such a handshake without a word, and uvicorn kept the
    connection open for good: 25 of them from one client took a 20-connection server."""
    from gammon.web.http_protocol import GuardedHttp

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app, http=GuardedHttp) as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(handshake)
        reply = _reply_or_close(s)
    assert reply.startswith("HTTP/1.1 431 "), reply[:200]
    assert "8192 bytes at most" in json.loads(reply.partition("\r\n\r\n")[2])["error"]


def test_a_websocket_handshake_it_cannot_read_otherwise_is_closed_at_the_head_deadline(store: Store) -> None:
    """A POST with the upgrade headers goes to the websockets library, which reads GET alone."""
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    with serving(app, http=_quick_head(0.3)) as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(_handshake("/ws/lobby", method="POST"))
        assert not _reply_or_close(s).startswith("HTTP/1.1 101")


def test_a_websocket_handshake_is_not_closed_at_the_head_deadline(store: Store) -> None:
    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    # a deadline that a loaded machine's server still reads the handshake within (0.3 s was not)
    with serving(app, http=_quick_head(1.0)) as port, socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(_handshake("/ws/lobby"))
        s.settimeout(10)
        received = b""
        # the app's answer first: a close frame sent before it comes ends the handshake instead (a
        # loaded machine's app took over 1.5 s to accept)
        while b"\r\n\r\n" not in received and (chunk := s.recv(65536)):
            received += chunk
        time.sleep(1.5)  # past the deadline: the socket is still open
        s.sendall(b"\x88\x80\x00\x00\x00\x00")  # a masked close frame
        while chunk := s.recv(65536):
            received += chunk
    assert received.startswith(b"HTTP/1.1 101")
    assert received.endswith(b"\x88\x00")  # the lobby's messages, then the close frame answering ours


def test_a_refused_websocket_handshake_is_no_error_in_the_log(store: Store) -> None:
    """uvicorn logged "ASGI callable returned without completing handshake." at ERROR for every
    handshake the app answered with an HTTP denial: any client could fill the log with errors."""
    import logging

    from gammon.web.http_protocol import GuardedHttp, GuardedWebSocket

    app = create_app(store, seeded_dice(), settings=ServerSettings(rate=1000, burst=1000))
    records: list[logging.LogRecord] = []
    catch = logging.Handler()
    catch.emit = records.append  # type: ignore[method-assign]
    with serving(app, http=GuardedHttp, ws=GuardedWebSocket) as port:
        logging.getLogger("uvicorn.error").addHandler(catch)
        try:
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(_handshake("/ws/lobby", "Origin: http://evil.example\r\n"))
                assert _reply_or_close(s).startswith("HTTP/1.1 403 ")
            time.sleep(0.2)  # the app's task ends after the answer
        finally:
            logging.getLogger("uvicorn.error").removeHandler(catch)
    assert not [r.getMessage() for r in records if r.levelno >= logging.ERROR]


def test_serve_sets_the_deadlines_and_caps_the_connections(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    options = serve_options(monkeypatch, tmp_path)
    assert options["http"] == "gammon.web.http_protocol:GuardedHttp"
    assert options["ws"] == "gammon.web.http_protocol:GuardedWebSocket"
    assert options["timeout_keep_alive"] == 5 and options["limit_concurrency"] == 1000
    assert serve_options(monkeypatch, tmp_path, "--max-connections", "50")["limit_concurrency"] == 50


# 6. /docs works offline: Swagger UI's assets come from this server.


def test_docs_reference_no_outside_url_and_their_assets_are_served(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200 and "SwaggerUIBundle" in r.text
    assert not re.search(r"https?://", r.text), r.text
    refs = re.findall(r'(?:src|href)="([^"]+)"', r.text) + re.findall(r"url: '([^']+)'", r.text)
    assert {ref.rsplit(".", 1)[-1] for ref in refs} >= {"js", "css", "json"}, refs
    for ref in refs:
        asset = client.get(ref)
        assert asset.status_code == 200 and len(asset.content) > 100, ref
    assert client.get("/openapi.json").json()["info"]["title"] == "gammon"


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent (Debian package chromium)")
def test_docs_render_offline_e2e(server: int) -> None:
    # Headless Chromium with every request off this server refused: Swagger UI must still list the
    # API's operations (this also proves the bundled Swagger UI reads FastAPI's OpenAPI 3.1).
    from playwright.sync_api import Route, sync_playwright

    base = f"http://127.0.0.1:{server}"
    outside: list[str] = []

    def only_local(route: Route) -> None:
        if route.request.url.startswith(base + "/"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.route("**/*", only_local)
            blocked: list[str] = []  # by the page's Content-Security-Policy
            page.on(
                "console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None
            )
            page.goto(f"{base}/docs")
            page.wait_for_selector(".opblock", timeout=20_000)
            assert page.locator(".opblock").count() >= 5
        finally:
            browser.close()
    assert outside == [] and blocked == []
