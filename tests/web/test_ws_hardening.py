"""WebSocket hardening: socket caps, rate-limit close, binary frames, no undo in online games, and
clients that stop reading."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from gammon.web.spectators import SPECTATOR
from tests.web.conftest import Clock, auth, new_match, seeded_dice, serving


def _app(store: Store, **options: Any) -> TestClient:
    return TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(**{"rate": 1000, "burst": 1000, **options}))
    )


def _url(m: dict, token: str | None = None) -> str:
    return f"/ws/matches/{m['match_id']}?token={token or m['token']}"


def _tokens(m: dict) -> tuple[str, str]:
    return m["token"], m["invite_url"].split("#token=")[1]


def _refused(c: TestClient, url: str) -> WebSocketDisconnect:
    """Open a socket that the server must refuse: an error message, then a policy-violation close."""
    with c.websocket_connect(url) as ws:
        error = ws.receive_json()
        assert error["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1008 and closed.value.reason == error["error"]
    return closed.value


def test_sockets_past_the_cap_of_a_seat_are_refused(store: Store) -> None:
    with _app(store, ws_per_seat=2) as c:
        m = new_match(c, mode="online")
        with c.websocket_connect(_url(m)) as a, c.websocket_connect(_url(m)) as b:
            a.receive_json(), b.receive_json()
            closed = _refused(c, _url(m))
            assert "2 sockets" in closed.reason and "seat" in closed.reason
            with c.websocket_connect(_url(m, _tokens(m)[1])) as other:  # the other seat has its own cap
                assert other.receive_json()["type"] == "state"
        with c.websocket_connect(_url(m)) as again:  # closed sockets free their places
            assert again.receive_json()["type"] == "state"


def test_sockets_past_the_cap_of_a_match_are_refused(store: Store) -> None:
    with _app(store, ws_per_seat=2, ws_per_match=3) as c:
        m = new_match(c, mode="online")
        t0, t1 = _tokens(m)
        with (
            c.websocket_connect(_url(m, t0)),
            c.websocket_connect(_url(m, t0)),
            c.websocket_connect(_url(m, t1)),
        ):
            assert "match" in _refused(c, _url(m, t1)).reason


def test_sockets_past_the_cap_of_an_address_are_refused(store: Store) -> None:
    with _app(store, ws_per_address=2) as c:
        m1, m2, m3 = (new_match(c, mode="local") for _ in range(3))
        with c.websocket_connect(_url(m1)), c.websocket_connect(_url(m2)):
            assert "address" in _refused(c, _url(m3)).reason
        with c.websocket_connect(_url(m3)) as ws:
            assert ws.receive_json()["type"] == "state"


def test_the_caps_must_be_positive(store: Store) -> None:
    with pytest.raises(ValueError, match="ws_per_seat"):
        create_app(store, settings=ServerSettings(ws_per_seat=0))


def test_another_socket_of_a_present_seat_sends_nothing_to_the_others(store: Store) -> None:
    with _app(store) as c:
        m = new_match(c, mode="online")
        t0, t1 = _tokens(m)
        with c.websocket_connect(_url(m, t0)) as a, c.websocket_connect(_url(m, t1)) as b:
            a.receive_json(), b.receive_json()
            assert a.receive_json()["type"] == "state"  # seat 1 came: seat 0 is told
            with c.websocket_connect(_url(m, t0)) as a2, c.websocket_connect(_url(m, t1)) as b2:
                version = a2.receive_json()["state"]["version"]
                b2.receive_json()
            # seat 0 and seat 1 stayed present throughout: the next message anyone gets is the next action
            s = c.get(f"/api/matches/{m['match_id']}", headers=auth(t0)).json()
            mover = (t0, t1)[s["turn"]]
            action = {"action": "play", "play": s["plays"][0]} if s["phase"] == "move" else {"action": "roll"}
            r = c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(mover), json=action)
            assert r.status_code == 200, r.text
            assert a.receive_json()["state"]["version"] == b.receive_json()["state"]["version"] > version


def test_a_socket_that_keeps_sending_past_its_rate_limit_is_closed(store: Store) -> None:
    with _app(store, rate=0.01, burst=3) as c:
        m = new_match(c, mode="local")
        with c.websocket_connect(_url(m)) as ws:
            ws.receive_json()
            for _ in range(3):
                ws.send_json({"action": "take"})  # refused by the rules, but counted all the same
                assert "slow down" not in ws.receive_json()["error"]
            ws.send_json({"action": "take"})
            assert ws.receive_json()["error"] == "too many messages; slow down"
            ws.send_json({"action": "take"})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 1008 and "too many messages" in closed.value.reason


def test_the_message_limit_is_shared_by_all_sockets_of_an_address(store: Store) -> None:
    with _app(store, rate=0.01, burst=4) as c:
        m = new_match(c, mode="local")
        with c.websocket_connect(_url(m)) as a, c.websocket_connect(_url(m)) as b:
            a.receive_json(), b.receive_json()
            for ws in (a, a, b, b):  # four messages from the address, two on each socket
                ws.send_json({"action": "take"})
                assert "slow down" not in ws.receive_json()["error"]
            b.send_json({"action": "take"})
            assert b.receive_json()["error"] == "too many messages; slow down"


def test_reconnecting_does_not_refill_the_message_limit(store: Store) -> None:
    """One address reconnected to get a fresh limit each time: a thousand stored changes a second."""
    with _app(store, rate=0.01, burst=4) as c:
        m = new_match(c, mode="local")
        with c.websocket_connect(_url(m)) as ws:
            ws.receive_json()
            for _ in range(4):
                ws.send_json({"action": "take"})
                assert "slow down" not in ws.receive_json()["error"]
        with c.websocket_connect(_url(m)) as ws:
            ws.receive_json()
            ws.send_json({"action": "take"})
            assert ws.receive_json()["error"] == "too many messages; slow down"


def test_handshakes_count_against_the_address_request_limit(store: Store) -> None:
    with _app(store, rate=0.01, burst=3) as c:
        m = new_match(c, mode="local")  # one request
        with c.websocket_connect(_url(m)), c.websocket_connect(_url(m)):  # two more
            with pytest.raises(WebSocketDenialResponse) as refused, c.websocket_connect(_url(m)):
                pass
            assert refused.value.status_code == 429
            assert refused.value.json() == {"error": "too many requests; slow down"}
            assert c.get("/api/levels").status_code == 429  # the same bucket as the address's requests


def test_oversized_messages_count_against_the_rate_limit(store: Store) -> None:
    with _app(store, rate=0.01, burst=2) as c:
        m = new_match(c, mode="local")
        with c.websocket_connect(_url(m)) as ws:
            ws.receive_json()
            for _ in range(2):
                ws.send_text("x" * 5000)
                assert "over the limit" in ws.receive_json()["error"]
            ws.send_text("x" * 5000)
            assert ws.receive_json()["error"] == "too many messages; slow down"
            ws.send_text("x" * 5000)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 1008


def test_a_binary_frame_closes_the_socket_with_a_reason(store: Store) -> None:
    with _app(store) as c:
        m = new_match(c, mode="local")
        with c.websocket_connect(_url(m)) as ws:
            ws.receive_json()
            ws.send_bytes(b'{"action": "roll"}')
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 1003 and "binary" in closed.value.reason
        with c.websocket_connect(_url(m)) as ws:  # the socket's place was given back
            assert ws.receive_json()["type"] == "state"
        assert not c.app.state.hub.sockets.get(m["match_id"])  # type: ignore[attr-defined]


def _play_first_move(c: TestClient, m: dict, tokens: tuple[str, ...]) -> tuple[str, dict]:
    """Play the first legal play of the opening; returns the mover's token and the state after."""
    s = c.get(f"/api/matches/{m['match_id']}", headers=auth(tokens[0])).json()
    assert s["phase"] == "move", s
    mover = tokens[s["turn"] if len(tokens) > 1 else 0]
    r = c.post(
        f"/api/matches/{m['match_id']}/actions",
        headers=auth(mover),
        json={"action": "play", "play": s["plays"][0]},
    )
    assert r.status_code == 200, r.text
    return mover, r.json()


def test_an_online_play_cannot_be_taken_back(store: Store) -> None:
    with _app(store) as c:
        m = new_match(c, mode="online", match_length=3)
        tokens = _tokens(m)
        mover, after = _play_first_move(c, m, tokens)
        assert after["phase"] == "roll" and "undo" not in after["actions"]
        r = c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(mover), json={"action": "undo"})
        assert r.status_code == 409 and "online" in r.json()["error"], r.text
        with c.websocket_connect(_url(m, mover)) as ws:
            ws.receive_json()
            ws.send_json({"action": "undo"})
            assert "online" in ws.receive_json()["error"]
        other = tokens[1 - tokens.index(mover)]
        now = c.get(f"/api/matches/{m['match_id']}", headers=auth(other)).json()
        assert now["version"] == after["version"] and "double" in now["actions"]  # nothing taken back
        assert store.load_log(m["match_id"]).retracted_at == 0  # nothing was taken back


def test_a_local_play_can_still_be_taken_back(store: Store) -> None:
    with _app(store) as c:
        m = new_match(c, mode="local", match_length=3)
        _, after = _play_first_move(c, m, (m["token"],))
        r = c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(m["token"]), json={"action": "undo"})
        assert r.status_code == 200, r.text
        assert r.json()["phase"] == "move" and r.json()["version"] == after["version"] + 1


# A client that stops reading: the server's sends to it would block. It is dropped, and nobody waits.


def _silent_socket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand on 127.0.0.1 that, after the handshake, never reads again (its
    kernel's receive buffer as small as it goes, so it fills after a few states)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    s.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 4096:
        head += s.recv(1)  # one byte at a time: nothing after the handshake's reply is read
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def _act_for_whoever_must(
    http: httpx.Client, m: dict, tokens: tuple[str, ...], unless: Callable[[int], bool] = lambda seat: False
) -> int | None:
    """One action of the seat that must act (rolling, the first legal play, the next game); returns
    that seat, or None without acting where ``unless(seat)``."""
    for seat, token in enumerate(tokens):
        s = http.get(f"/api/matches/{m['match_id']}", headers=auth(token)).json()
        acts = s["actions"]
        if not any(a in acts for a in ("roll", "play", "new_game")):
            continue
        if unless(seat):
            return None
        action = (
            {"action": "play", "play": s["plays"][0]}
            if "play" in acts
            else {"action": "roll" if "roll" in acts else "new_game"}
        )
        r = http.post(f"/api/matches/{m['match_id']}/actions", headers=auth(token), json=action)
        assert r.status_code == 200, r.text
        return seat
    raise AssertionError("nobody may act")


def _slow_app(store: Store, clock: Clock | None = None, **options: Any) -> Any:
    slow = {"rate": 1000, "burst": 1000, "ws_queue": 4, "ws_send_timeout": 0.2}
    settings = ServerSettings(**{**slow, **options})
    return create_app(store, seeded_dice(), settings, **({} if clock is None else {"clock": clock}))


def test_a_sockets_handler_ends_when_its_client_closes(store: Store) -> None:
    """Each socket's sender is a task of its own: it must end with the socket, or the server
    cannot stop (``serving`` checks that it does)."""
    app = _slow_app(store, ws_send_timeout=5)
    with serving(app) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
        m = http.post("/api/matches", json={"mode": "local"}).json()
        url = f"ws://127.0.0.1:{port}/ws/matches/{m['match_id']}"
        for _ in range(10):  # a sender that missed its end did so one time in two or three
            with connect(
                url,
                subprotocols=[Subprotocol("gammon"), Subprotocol(f"token.{m['token']}")],
                open_timeout=10,
                close_timeout=10,
            ) as ws:
                state = json.loads(ws.recv(timeout=10))["state"]
                for _ in range(3):
                    acts = state["actions"]
                    action = (
                        {"action": "play", "play": state["plays"][0]}
                        if "play" in acts
                        else {"action": "roll" if "roll" in acts else "new_game"}
                    )
                    ws.send(json.dumps({**action, "version": state["version"]}))
                    state = json.loads(ws.recv(timeout=10))["state"]
        assert not app.state.hub.sockets


def test_a_spectator_who_stops_reading_does_not_hold_up_the_game(store: Store) -> None:
    """A watch link's socket that never read froze the game: the mover's actions were stored but
    answered nobody until that socket closed."""
    app = _slow_app(store)
    hub = app.state.hub
    with (
        serving(app, send_buffer=4096) as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http,
    ):
        m = http.post("/api/matches", json={"mode": "local"}).json()
        key = http.get(f"/api/matches/{m['match_id']}/watch-link", headers=auth(m["token"])).json()["key"]
        spectator = _silent_socket(port, f"/ws/watch/{m['match_id']}?key={key}")
        try:
            watching = lambda: any(s == SPECTATOR for _, s, _ in hub.sockets.get(m["match_id"], ()))  # noqa: E731
            assert watching()
            for _ in range(400):  # each answered (10 s at most), though the spectator reads nothing
                _act_for_whoever_must(http, m, (m["token"],))
                if not watching():
                    break
            assert not watching(), "the silent spectator was never dropped"
            for _ in range(5):
                _act_for_whoever_must(http, m, (m["token"],))
        finally:
            spectator.close()


def test_a_player_whose_socket_stops_reading_is_away_and_the_game_can_be_claimed(store: Store) -> None:
    """A player's silent socket kept it present: its opponent could never claim the game."""
    clock = Clock()
    app = _slow_app(store, clock=clock, away_after=60)
    hub = app.state.hub
    with (
        serving(app, send_buffer=4096) as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http,
    ):
        m = http.post("/api/matches", json={"mode": "online"}).json()
        tokens = _tokens(m)
        silent = _silent_socket(port, _url(m, tokens[1]))
        try:
            present = lambda: hub.seat_open(m["match_id"], 1)  # noqa: E731
            assert present()
            for _ in range(400):  # seat 1 acts over HTTP; its socket reads nothing
                _act_for_whoever_must(http, m, tokens)
                if not present():
                    break
            assert not present(), "the silent socket was never dropped"
            while _act_for_whoever_must(http, m, tokens, unless=lambda seat: seat == 1) is not None:
                pass  # until the game waits on seat 1
            clock.now += 61
            r = http.post(
                f"/api/matches/{m['match_id']}/actions", headers=auth(tokens[0]), json={"action": "claim"}
            )
            assert r.status_code == 200, r.text
            assert r.json()["result"]["winner"] == 0
        finally:
            silent.close()


def test_an_unknown_match_is_not_quoted_whole(store: Store) -> None:
    """Its id, as long as the URL allows, came back whole in the error (7,000 characters and more)."""
    c = _app(store)
    long_id = "Q" * 7000
    for method, path in (
        ("GET", f"/api/matches/{long_id}"),
        ("GET", f"/api/matches/{long_id}/games/1/frames"),
        ("GET", f"/api/matches/{long_id}/match.mat"),
        ("GET", f"/api/watch/{long_id}"),
        ("POST", f"/api/matches/{long_id}/actions"),
    ):
        r = c.request(method, path, headers={"X-Gammon-Token": "abc"}, json={"action": "roll"})
        assert r.status_code == 404 and len(r.text) < 200 and "no match 'QQQ" in r.text, (path, r.text[:200])
    with c.websocket_connect(f"/ws/matches/{long_id}", subprotocols=["gammon", "token.abc"]) as ws:
        error = ws.receive_json()
    assert error["type"] == "error" and error["error"].startswith("no match 'QQQ")
    assert len(error["error"]) < 100


def test_an_invalid_message_gets_a_short_answer(store: Store) -> None:
    """Every validation error came back, field names whole: 15,459 characters for 3,891 sent."""
    c = _app(store)
    m = new_match(c, mode="local")
    with c.websocket_connect(_url(m)) as ws:
        ws.receive_json()
        for message in (
            "{" + ",".join(f'"{i}":0' for i in range(500)) + "}",  # 500 unknown fields
            '{"' + "k" * 3900 + '":1}',  # one long field name
            '{"action": "roll", "version": ' + "9" * 3900 + "}",  # a version no game reaches
        ):
            ws.send_text(message)
            error = ws.receive_json()
            assert error["type"] == "error" and error["error"].startswith("invalid message"), error
            said = error["error"]
            assert len(said) < 600 and "k" * 41 not in said and "9" * 41 not in said
    body = '{"action": "roll", "version": ' + "9" * 3900 + "}"
    headers = {**auth(m["token"]), "Content-Type": "application/json"}
    r = c.post(f"/api/matches/{m['match_id']}/actions", headers=headers, content=body)
    assert "version" in r.json()["error"]
    assert r.status_code == 422 and len(r.text) < 400 and "9" * 41 not in r.text, r.text[:300]
