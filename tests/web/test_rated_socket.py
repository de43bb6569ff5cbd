"""A seat of a rated match that an account holds, over the WebSocket: the seat's token is no proof
of who plays (the maker of a rated match was given both seats' tokens), so a socket acts for the
seat, or takes it over, only signed in to the account that holds it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, seeded_dice
from tests.web.test_players_review import api_session, make_app


@pytest.fixture
def app(store: Store) -> FastAPI:  # noqa: F811
    return make_app(store)


@pytest.fixture
def web(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def rated_match(web: TestClient) -> tuple[str, dict[str, str], dict[str, str], str]:
    """alice makes a rated match and keeps its invitation's token; bob signs up with that seat.
    The match's id, alice's and bob's sessions, and seat 1's token."""
    alice = api_session(web, "alice")
    r = web.post("/api/matches", json={"mode": "online", "match_length": 3, "rated": True}, headers=alice)
    assert r.status_code == 200, r.text
    made = r.json()
    invite = made["invite_url"].split("#token=")[1]
    bob = api_session(web, "bob", invite)
    web.cookies.clear()
    return made["match_id"], alice, bob, invite


def refused(ws: Any) -> tuple[str, int]:
    """The error a refused socket is told, and its close code."""
    message = ws.receive_json()
    assert message["type"] == "error", message
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return message["error"], closed.value.code


def until_over(ws: Any) -> dict:
    """The socket's states until one says the match is over; an error fails the test."""
    for _ in range(20):
        message = ws.receive_json()
        assert message["type"] == "state", message
        if message["state"]["match_over"]:
            return message["state"]
    raise AssertionError("the match did not end")


def ratings(web: TestClient) -> list[float]:
    return [web.get(f"/api/players/{n}/ratings").json()["rating"] for n in ("alice", "bob")]


def test_a_socket_without_the_seats_account_is_refused_and_cannot_abandon(web: TestClient) -> None:
    match_id, alice, _bob, invite = rated_match(web)
    path = f"/ws/matches/{match_id}"
    version = web.get(f"/api/matches/{match_id}", headers=auth(invite)).json()["version"]
    # alice kept seat 1's token: no session, or her own, is not bob's
    for headers in (auth(invite), {**alice, **auth(invite)}):
        with web.websocket_connect(path, headers=headers) as ws:
            error, code = refused(ws)
        assert code == 4403 and "bob" in error and "signed in" in error
    view = web.get(f"/api/matches/{match_id}", headers=auth(invite)).json()
    assert not view["match_over"] and view["version"] == version
    assert ratings(web) == [1500, 1500]


def test_a_socket_opened_before_the_seat_was_claimed_acts_no_more_once_it_is(
    app: FastAPI, web: TestClient
) -> None:
    alice = api_session(web, "alice")
    r = web.post("/api/matches", json={"mode": "online", "match_length": 3, "rated": True}, headers=alice)
    made = r.json()
    match_id, invite = made["match_id"], made["invite_url"].split("#token=")[1]
    bob = api_session(web, "bob")
    web.cookies.clear()
    path = f"/ws/matches/{match_id}"
    # alice opens seat 1 while no account holds it (as bob does, before he signs in)
    with web.websocket_connect(path, headers=auth(invite)) as early:
        assert early.receive_json()["type"] == "state"
        for _ in range(2):  # a guest's seat of a rated match is told to sign in, and stays open
            early.send_json({"action": "abandon"})
            assert "sign in and claim" in early.receive_json()["error"]
        assert app.state.members.claim(bob["Authorization"].split()[1], [invite])[0]  # bob's now
        early.send_json({"action": "abandon"})
        error, code = refused(early)
    assert "bob" in error and code == 1008  # closed: a browser signed in since comes back as bob
    assert not web.get(f"/api/matches/{match_id}", headers=auth(invite)).json()["match_over"]
    assert ratings(web) == [1500, 1500]
    with web.websocket_connect(path, headers={**bob, **auth(invite)}) as mine:
        assert mine.receive_json()["type"] == "state"
        mine.send_json({"action": "abandon"})
        assert until_over(mine)["match_over"]
    assert ratings(web)[0] > 1500


def test_a_takeover_without_the_seats_account_leaves_its_socket_alone(web: TestClient) -> None:
    match_id, alice, bob, invite = rated_match(web)
    path = f"/ws/matches/{match_id}"
    with web.websocket_connect(f"{path}?tab=bobs", headers={**bob, **auth(invite)}) as mine:
        assert mine.receive_json()["state"]["seat"] == 1
        for headers in (auth(invite), {**alice, **auth(invite)}):
            with web.websocket_connect(f"{path}?tab=alices&takeover=true", headers=headers) as ws:
                error, code = refused(ws)
            assert code == 4403 and "bob" in error
        # bob's socket was not closed (4410): he still plays, and the match is his to leave
        mine.send_json({"action": "abandon"})
        over = until_over(mine)
    assert over["seat"] == 1 and ratings(web)[0] > 1500


def test_the_seats_account_plays_and_comes_back_on_any_of_its_devices(web: TestClient) -> None:
    match_id, _alice, bob, invite = rated_match(web)
    path = f"/ws/matches/{match_id}"
    with web.websocket_connect(f"{path}?tab=one", headers={**bob, **auth(invite)}) as first:
        assert first.receive_json()["state"]["seat"] == 1
        # his other device joins without a takeover and without closing the first
        with web.websocket_connect(f"{path}?tab=two", headers={**bob, **auth(invite)}) as second:
            assert second.receive_json()["state"]["seat"] == 1
    with web.websocket_connect(f"{path}?tab=one", headers={**bob, **auth(invite)}) as back:
        assert back.receive_json()["state"]["seat"] == 1
        back.send_json({"action": "abandon"})
        assert until_over(back)["match_over"]
    assert ratings(web)[1] < 1500


def test_an_unrated_online_seat_still_opens_with_its_token_alone(store: Store) -> None:  # noqa: F811
    app = create_app(store, seeded_dice(3), settings=ServerSettings(rate=1000, burst=1000))
    with TestClient(app) as c:
        made = c.post("/api/matches", json={"mode": "online", "match_length": 3}).json()
        invite = made["invite_url"].split("#token=")[1]
        with c.websocket_connect(f"/ws/matches/{made['match_id']}", headers=auth(invite)) as ws:
            assert ws.receive_json()["state"]["seat"] == 1


def test_a_stranger_at_an_accounts_seat_does_not_show_it_playing(app: FastAPI, web: TestClient) -> None:
    alice = api_session(web, "alice")
    r = web.post("/api/matches", json={"mode": "online", "match_length": 3, "rated": True}, headers=alice)
    made = r.json()
    match_id, invite = made["match_id"], made["invite_url"].split("#token=")[1]
    bob = api_session(web, "bob")
    web.cookies.clear()
    path, lobby = f"/ws/matches/{match_id}", app.state.lobby
    # alice at seat 1 before bob claims it: it stays open once the seat is bob's
    with web.websocket_connect(path, headers=auth(invite)) as early:
        assert early.receive_json()["type"] == "state"
        r = web.post("/api/account/claim", json={"seat_tokens": [invite]}, headers=bob)
        assert r.status_code == 200 and r.json()["claimed"] == [match_id], r.text
        assert lobby.players_at_tables() == frozenset()
        for headers in (auth(invite), {**alice, **auth(invite)}):  # after the claim: refused
            with web.websocket_connect(f"{path}?takeover=true", headers=headers) as ws:
                assert refused(ws)[1] == 4403
            assert lobby.players_at_tables() == frozenset()
    with web.websocket_connect(path, headers={**bob, **auth(invite)}) as mine:
        assert mine.receive_json()["type"] == "state"
        assert lobby.players_at_tables() == {"bob"}


def test_an_action_whose_seat_cannot_be_checked_is_not_made(app: FastAPI, web: TestClient) -> None:
    match_id, _alice, _bob, invite = rated_match(web)
    members = app.state.members
    check = members.check_rated_actor
    members.check_rated_actor = lambda *args: None  # the socket opens (as before the seat was claimed)
    with web.websocket_connect(f"/ws/matches/{match_id}", headers=auth(invite)) as ws:
        assert ws.receive_json()["type"] == "state"

        def away(*args: object) -> None:
            raise OSError("connection refused")

        members.check_rated_actor = away
        ws.send_json({"action": "abandon"})
        assert "try again" in ws.receive_json()["error"]
        members.check_rated_actor = check
        ws.send_json({"action": "abandon"})  # the database back: the seat is bob's, not this socket's
        error, code = refused(ws)
    assert "bob" in error and code == 1008
    assert not web.get(f"/api/matches/{match_id}", headers=auth(invite)).json()["match_over"]
