"""The database away as a socket opens: the client is told to come back later (close 1013, which the
pages retry), not that its link is wrong (4404, which they do not retry), nor left with an error of
the server (1011 and a traceback in the log); the API answers 503 "try again", not 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from gammon.web.sockets import TRY_AGAIN_LATER
from tests.web.conftest import auth, new_match, seeded_dice


def _away(*_args: object, **_kwargs: object) -> None:
    raise OperationalError("SELECT 1", {}, Exception("connection refused"))


def _told_to_come_back(c: TestClient, path: str, secret: str) -> None:
    with c.websocket_connect(path, subprotocols=["gammon", secret]) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and "try again" in message["error"], message
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == TRY_AGAIN_LATER


def test_a_match_that_cannot_be_read_is_for_later(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    settings = ServerSettings(rate=1000, burst=1000)
    with TestClient(create_app(store, seeded_dice(), settings=settings)) as c:
        m = new_match(c, mode="online")
        key = c.get(f"/api/matches/{m['match_id']}/watch-link", headers=auth(m["token"])).json()["key"]
    with TestClient(create_app(store, seeded_dice(), settings=settings)) as c:  # restarted: not in memory
        with monkeypatch.context() as away:
            away.setattr(store, "load_match", _away)
            r = c.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"]))
            assert r.status_code == 503 and "try again" in r.json()["error"], r.text
            _told_to_come_back(c, f"/ws/matches/{m['match_id']}", "token." + m["token"])
            _told_to_come_back(c, f"/ws/watch/{m['match_id']}", "key." + key)
        assert c.get(f"/api/matches/{m['match_id']}", headers=auth(m["token"])).status_code == 200


def test_a_match_that_cannot_be_read_again_is_for_later(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    m = new_match(client, mode="local", match_length=0)
    url, headers = f"/api/matches/{m['match_id']}", auth(m["token"])
    state = client.get(url, headers=headers).json()
    with monkeypatch.context() as away:
        away.setattr(store, "append_batch", _away)
        away.setattr(store, "load_log", _away)  # the reload after the failed write fails too
        r = client.post(url + "/actions", headers=headers, json={"action": "play", "play": state["plays"][0]})
        assert r.status_code == 503
        _told_to_come_back(client, f"/ws/matches/{m['match_id']}", "token." + m["token"])
    protocols = ["gammon", "token." + m["token"]]
    with client.websocket_connect(f"/ws/matches/{m['match_id']}", subprotocols=protocols) as ws:
        assert ws.receive_json()["state"]["version"] == state["version"]  # back: as stored
