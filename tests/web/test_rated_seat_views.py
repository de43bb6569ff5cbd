"""A rated match's seat that no account holds here is offered nothing, so it cannot act to have its
account read again: a claim made in another server process (told to that process's sockets only)
must reach this process's view of the seat when it is shown, over HTTP and to a new socket."""

from __future__ import annotations

import json

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.conftest import auth
from tests.web.test_accounts_web import api_token, bearer, sign_up
from tests.web.test_rated_play import app, web  # noqa: F401  (fixtures)


def _rated_match_with_a_guest_seat(web: TestClient) -> tuple[str, tuple[str, str], str]:  # noqa: F811
    sign_up(web, "alice")
    sign_up(web, "bob")
    web.cookies.clear()
    alice, bob = bearer(api_token(web, "alice")), bearer(api_token(web, "bob"))
    r = web.post("/api/matches", json={"mode": "online", "match_length": 1, "rated": True}, headers=alice)
    assert r.status_code == 200, r.text
    m = r.json()
    tokens = (m["token"], m["invite_url"].split("#token=")[1])
    before = web.get(f"/api/matches/{m['match_id']}", headers=auth(tokens[1])).json()
    assert before["accounts"][1] is None and before["actions"] == []  # unheld: offered nothing
    return m["match_id"], tokens, bob["Authorization"].split()[1]


def test_a_seat_claimed_in_another_process_is_offered_its_actions_here(app: FastAPI, web: TestClient) -> None:  # noqa: F811
    match_id, tokens, bob = _rated_match_with_a_guest_seat(web)
    # claimed through the accounts alone, as another server process does: this one is not told
    assert app.state.members.claim(bob, [tokens[1]])[0] == [match_id]
    view = web.get(f"/api/matches/{match_id}", headers=auth(tokens[1])).json()
    assert view["accounts"][1]["name"] == "bob"
    assert "abandon" in view["actions"]


def test_a_new_socket_of_a_seat_claimed_elsewhere_is_offered_its_actions(
    app: FastAPI, web: TestClient  # noqa: F811
) -> None:
    match_id, tokens, bob = _rated_match_with_a_guest_seat(web)
    assert app.state.members.claim(bob, [tokens[1]])[0] == [match_id]
    # signed in to bob's account: a rated seat an account holds opens for that account only
    with web.websocket_connect(f"/ws/matches/{match_id}?token={tokens[1]}", headers=bearer(bob)) as ws:
        message = json.loads(ws.receive_text())
    assert message["type"] == "state"
    assert message["state"]["accounts"][1]["name"] == "bob" and "abandon" in message["state"]["actions"]


def test_a_held_seat_is_not_read_again(app: FastAPI, web: TestClient) -> None:  # noqa: F811
    """Only an unheld rated seat pays for a read of the accounts when it is shown."""
    match_id, tokens, _ = _rated_match_with_a_guest_seat(web)
    hub = app.state.hub
    reads: list[str] = []
    read = hub.seat_accounts

    def counted(match: str):  # noqa: ANN202
        reads.append(match)
        return read(match)

    hub.seat_accounts = counted
    web.get(f"/api/matches/{match_id}", headers=auth(tokens[0]))  # alice's seat: held
    assert reads == []
    web.get(f"/api/matches/{match_id}", headers=auth(tokens[1]))  # the guest's: read again
    assert reads == [match_id]


def test_a_rated_match_ended_with_a_guest_seat_is_shown_unrated(app: FastAPI, web: TestClient) -> None:  # noqa: F811
    """A rated match that ends with a seat no account holds is judged unrated: its view said
    ``"rated": true`` still, as it read only the flag it was made with, live and once reloaded."""
    match_id, tokens, _ = _rated_match_with_a_guest_seat(web)
    alice = {**bearer(api_token(web, "alice")), **auth(tokens[0])}
    r = web.post(f"/api/matches/{match_id}/actions", headers=alice, json={"action": "abandon"})
    assert r.status_code == 200, r.text
    assert r.json()["match_over"] and r.json()["rated"] is False
    assert web.get(f"/api/matches/{match_id}", headers=alice).json()["rated"] is False
    app.state.hub.live.clear()  # read again from the store, as another process or a restart does
    assert web.get(f"/api/matches/{match_id}", headers=alice).json()["rated"] is False
