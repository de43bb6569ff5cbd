"""One account signed in on two devices sees one game: both devices' sockets of the account's own
seat stay open side by side (no "in use in another browser", no takeover), see the same states and
may both act; a socket of the seat that is not signed in to its account is still another browser."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.web.test_accounts_web import api_token, bearer, sign_up, web  # noqa: F401  (the app with accounts)


def _state(ws: WebSocketTestSession) -> dict:
    message = ws.receive_json()
    assert message["type"] == "state", message
    return dict(message["state"])


def test_an_account_on_two_devices_sees_one_game(web: TestClient) -> None:  # noqa: F811
    sign_up(web, "alice")
    web.cookies.clear()
    phone, laptop = api_token(web, "alice"), api_token(web, "alice")  # two sessions of one account
    r = web.post("/api/matches", json={"mode": "online", "match_length": 3}, headers=bearer(phone))
    assert r.status_code == 200, r.text
    m = r.json()  # alice's seat 0 is linked to her account (a signed-in creator)
    url = f"/ws/matches/{m['match_id']}?token={m['token']}&tab="
    with web.websocket_connect(url + "phone", headers=bearer(phone)) as on_phone:
        first = _state(on_phone)
        with web.websocket_connect(url + "laptop", headers=bearer(laptop)) as on_laptop:
            assert _state(on_laptop) == first  # not refused, and the phone is not closed
            # A move on the laptop is seen on the phone, and the phone may make the next one.
            assert "play" in first["actions"]
            on_laptop.send_json({"action": "play", "play": first["plays"][0], "version": first["version"]})
            moved = _state(on_laptop)
            assert _state(on_phone) == moved and moved["version"] == first["version"] + 1
            # The seat's link without the account's session is still another browser.
            with web.websocket_connect(url + "stranger") as stranger:
                assert stranger.receive_json()["error"] == "this seat is in use in another browser"
                with pytest.raises(WebSocketDisconnect) as closed:
                    stranger.receive_json()
                assert closed.value.code == 4409


def test_another_account_with_the_seat_link_is_another_browser(web: TestClient) -> None:  # noqa: F811
    sign_up(web, "alice")
    sign_up(web, "bob")
    web.cookies.clear()
    alice, bob = api_token(web, "alice"), api_token(web, "bob")
    m = web.post("/api/matches", json={"mode": "online", "match_length": 3}, headers=bearer(alice)).json()
    url = f"/ws/matches/{m['match_id']}?token={m['token']}&tab="
    with web.websocket_connect(url + "a", headers=bearer(alice)) as mine:
        _state(mine)
        with web.websocket_connect(url + "b", headers=bearer(bob)) as other:
            assert other.receive_json()["error"] == "this seat is in use in another browser"
            with pytest.raises(WebSocketDisconnect) as closed:
                other.receive_json()
            assert closed.value.code == 4409
