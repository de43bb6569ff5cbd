"""WebSocket hardening: socket caps, rate-limit close, binary frames, no undo in online games."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gammon.store import Store
from gammon.web import create_app
from tests.web.conftest import auth, new_match, seeded_dice


def _app(store: Store, **options: Any) -> TestClient:
    return TestClient(create_app(store, seeded_dice(), **{"rate": 1000, "burst": 1000, **options}))


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
        with c.websocket_connect(_url(m, t0)), c.websocket_connect(_url(m, t0)), \
                c.websocket_connect(_url(m, t1)):
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
        create_app(store, ws_per_seat=0)


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
    r = c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(mover),
               json={"action": "play", "play": s["plays"][0]})
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
