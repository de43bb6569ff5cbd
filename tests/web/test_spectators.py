"""Spectators: a read-only link that follows a match live, cannot act and sees no more than the table."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from gammon.web.spectators import READ_ONLY
from tests.web.conftest import auth, new_match, seeded_dice


def _app(store: Store, **options: Any) -> TestClient:
    return TestClient(
        create_app(store, seeded_dice(), settings=ServerSettings(**{"rate": 1000, "burst": 1000, **options}))
    )


def _tokens(m: dict) -> tuple[str, str]:
    return m["token"], m["invite_url"].split("#token=")[1]


def _link(c: TestClient, m: dict, token: str) -> dict:
    r = c.get(f"/api/matches/{m['match_id']}/watch-link", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def _act(c: TestClient, m: dict, token: str, **body: Any) -> dict:
    r = c.post(f"/api/matches/{m['match_id']}/actions", headers=auth(token), json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_players_get_the_same_link_and_nobody_else_does(store: Store) -> None:  # noqa: F811
    with _app(store) as c:
        m = new_match(c, mode="online")
        t0, t1 = _tokens(m)
        link = _link(c, m, t0)
        assert link == _link(c, m, t1)
        assert link["url"] == f"http://testserver/watch/{m['match_id']}#key={link['key']}"
        assert t0 not in link["url"] and t1 not in link["url"]
        r = c.get(f"/api/matches/{m['match_id']}/watch-link")
        assert r.status_code == 403 and r.json()["error"].startswith("this token does not open a seat")
        # the key opens the view only, never a seat
        r = c.get(f"/api/matches/{m['match_id']}", headers=auth(link["key"]))
        assert r.status_code == 403
        r = c.post(
            f"/api/matches/{m['match_id']}/actions", headers=auth(link["key"]), json={"action": "roll"}
        )
        assert r.status_code == 403
        other = new_match(c, mode="online")
        r = c.get(f"/api/watch/{other['match_id']}", params={"key": link["key"]})
        assert r.status_code == 403
        assert r.json() == {"error": "this link does not open this match to spectators"}
        assert c.get(f"/watch/{m['match_id']}").status_code == 200


def test_the_spectator_sees_the_table_and_nothing_to_act_on(store: Store) -> None:  # noqa: F811
    with _app(store) as c:
        m = new_match(c, mode="online", match_length=3)
        t0, _ = _tokens(m)
        key = _link(c, m, t0)["key"]
        seen = c.get(f"/api/watch/{m['match_id']}", params={"key": key}).json()
        player = c.get(f"/api/matches/{m['match_id']}", headers=auth(t0)).json()
        assert player["actions"]  # the player on roll has something to do
        assert (seen["seat"], seen["actions"], seen["plays"], seen["sequences"]) == (None, [], [], [])
        assert seen["opponent_away"] is None and seen["claim_in"] is None and seen["opponent_joined"] is None
        hidden = {"seat", "actions", "plays", "sequences", "opponent_away", "claim_in", "opponent_joined"}
        assert {k: v for k, v in seen.items() if k not in hidden} == {
            k: v for k, v in player.items() if k not in hidden
        }


def test_the_spectators_socket_follows_the_game_and_refuses_to_act(store: Store) -> None:  # noqa: F811
    with _app(store) as c:
        m = new_match(c, mode="online", match_length=3)
        t0, t1 = _tokens(m)
        key = _link(c, m, t0)["key"]
        with c.websocket_connect(f"/ws/watch/{m['match_id']}?key={key}") as ws:
            first = ws.receive_json()
            assert first["type"] == "state" and first["state"]["actions"] == []
            on_roll = t0 if first["state"]["turn"] == 0 else t1
            if first["state"]["phase"] == "roll":
                _act(c, m, on_roll, action="roll")
                assert ws.receive_json()["state"]["phase"] == "move"
            state = c.get(f"/api/matches/{m['match_id']}", headers=auth(on_roll)).json()
            after = _act(c, m, on_roll, action="play", play=state["plays"][0])
            pushed = ws.receive_json()["state"]
            white = c.get(f"/api/matches/{m['match_id']}", headers=auth(t0)).json()
            assert pushed["version"] == after["version"] and pushed["board"] == white["board"]
            assert pushed["log"][-1].endswith(state["plays"][0]) and pushed["actions"] == []
            ws.send_json({"action": "roll", "version": pushed["version"]})
            assert ws.receive_json() == {"type": "error", "error": READ_ONLY}
        now = c.get(f"/api/watch/{m['match_id']}", params={"key": key}).json()
        assert now["version"] == pushed["version"]  # the refused message changed nothing
        with c.websocket_connect(f"/ws/matches/{m['match_id']}?token={key}") as ws:  # not a seat's socket
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
        with c.websocket_connect(f"/ws/watch/{m['match_id']}?key=wrong") as ws:
            assert ws.receive_json()["error"] == "this link does not open this match to spectators"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403


def test_spectators_are_capped_apart_from_the_players(store: Store) -> None:  # noqa: F811
    with _app(store, ws_per_seat=2, ws_per_match=6) as c:
        m = new_match(c, mode="online")
        t0, t1 = _tokens(m)
        url = f"/ws/watch/{m['match_id']}?key={_link(c, m, t0)['key']}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            a.receive_json(), b.receive_json()
            with c.websocket_connect(url) as refused:
                assert refused.receive_json() == {
                    "type": "error",
                    "error": "this match has 2 spectators already (the limit)",
                }
                with pytest.raises(WebSocketDisconnect) as closed:
                    refused.receive_json()
                assert closed.value.code == 1008
            # both players still get in, with all their places
            players = f"/ws/matches/{m['match_id']}?token="
            with (
                c.websocket_connect(players + t0) as p0,
                c.websocket_connect(players + t0) as q0,
                c.websocket_connect(players + t1) as p1,
                c.websocket_connect(players + t1) as q1,
            ):
                for ws in (p0, q0, p1, q1):
                    assert ws.receive_json()["type"] == "state"
