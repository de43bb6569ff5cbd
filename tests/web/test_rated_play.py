"""A rated match is played between two accounts: a seat acts only once an account holds it, so a
guest cannot wait to see who wins before it claims its seat (only its wins would be rated)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from gammon.store import Store
from gammon.web import create_app
from gammon.web.settings import ServerSettings
from tests.web.conftest import auth, seeded_dice
from tests.web.test_accounts_web import api_token, bearer, settings, sign_up


@pytest.fixture
def app(store: Store) -> FastAPI:  # noqa: F811
    options = ServerSettings(rate=1000, burst=1000, accounts=settings())
    return create_app(store, seeded_dice(3), settings=options)


@pytest.fixture
def web(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def _rated(web: TestClient, creator: dict[str, str]) -> tuple[str, tuple[str, str]]:
    r = web.post("/api/matches", json={"mode": "online", "match_length": 1, "rated": True}, headers=creator)
    assert r.status_code == 200, r.text
    m = r.json()
    return f"/api/matches/{m['match_id']}", (m["token"], m["invite_url"].split("#token=")[1])


def _ratings(web: TestClient, *names: str) -> list[float]:
    return [web.get(f"/api/players/{n}/ratings").json()["rating"] for n in names]


def test_a_guest_seat_of_a_rated_match_acts_once_it_is_claimed(app: FastAPI, web: TestClient) -> None:
    sign_up(web, "alice")
    sign_up(web, "bob")
    web.cookies.clear()
    alice, bob = bearer(api_token(web, "alice")), bearer(api_token(web, "bob"))
    url, tokens = _rated(web, alice)
    before = web.get(url, headers=auth(tokens[1])).json()
    assert before["rated"] and before["accounts"][1] is None
    # bob, a guest at seat 1, could leave a match he loses unrated, and claim his seat to win one
    mine = {"action": "play", "play": before["plays"][0]} if before["turn"] == 1 else {"action": "abandon"}
    for action in (mine, {"action": "claim"}):
        r = web.post(f"{url}/actions", headers=auth(tokens[1]), json=action)
        assert r.status_code == 403 and "rated" in r.json()["error"]
    assert web.get(url, headers=auth(tokens[1])).json()["version"] == before["version"]
    assert _ratings(web, "alice", "bob") == [1500, 1500]
    # claimed (here through the accounts alone, as another server process would): bob plays, rated
    assert app.state.members.claim(bob["Authorization"].split()[1], [tokens[1]])[0]
    r = web.post(f"{url}/actions", headers={**bob, **auth(tokens[1])}, json={"action": "abandon"})
    assert r.status_code == 200, r.text
    assert r.json()["match_over"] and [a["name"] for a in r.json()["accounts"]] == ["alice", "bob"]
    assert _ratings(web, "alice", "bob")[0] > 1500


def test_a_rated_seat_read_while_the_database_is_away_is_refused_with_a_retry(
    app: FastAPI, web: TestClient
) -> None:
    sign_up(web, "alice")
    web.cookies.clear()
    url, tokens = _rated(web, bearer(api_token(web, "alice")))

    def away(match_id: str) -> object:
        raise OSError("connection refused")

    app.state.hub.seat_accounts = away
    r = web.post(f"{url}/actions", headers=auth(tokens[1]), json={"action": "abandon"})
    assert r.status_code == 503 and "try again" in r.json()["error"]
