"""The players' home seen as an attacker would: what one client or one account can do to the
server or to other players through the accounts' routes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from gammon.accounts.passwords import Passwords
from gammon.accounts.throttle import SignUpLimit
from gammon.store import Store
from gammon.store.models import AccountRow, MatchRow, RatingChangeRow
from gammon.web import create_app
from gammon.web.members import AccountSettings
from gammon.web.settings import ServerSettings
from tests.web.conftest import Clock, seeded_dice

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "correct horse battery"


def make_app(store: Store, **accounts: object) -> FastAPI:
    settings = AccountSettings(plies=0, worker=False, passwords=Passwords(CHEAP), **accounts)  # type: ignore[arg-type]
    server = ServerSettings(rate=1000, burst=1000, accounts=settings)
    return create_app(store, seeded_dice(3), settings=server)


@pytest.fixture
def app(store: Store) -> FastAPI:  # noqa: F811
    return make_app(store)


@pytest.fixture
def web(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def sign_up(c: TestClient, name: str) -> int:
    c.cookies.clear()
    body = {"name": name, "password": PASSWORD, "client": "api"}
    return c.post("/api/account/sign-up", json=body).status_code


def test_one_address_makes_a_bounded_number_of_accounts(web: TestClient) -> None:
    made = [sign_up(web, f"puppet{i}") for i in range(SignUpLimit.per_address + 1)]
    assert made == [200] * SignUpLimit.per_address + [429]


def test_the_sign_up_limit_says_when_and_forgets_with_time(store: Store) -> None:  # noqa: F811
    clock = Clock()
    app = make_app(store, signups=SignUpLimit(per_address=2, window=3600, clock=clock))
    with TestClient(app) as c, TestClient(app, client=("10.9.8.7", 5000)) as other:
        assert sign_up(c, "alice") == 200
        assert sign_up(c, "alice") == 409  # a taken name made no account: it does not count
        assert sign_up(c, "bob") == 200
        clock.now += 600
        r = c.post("/api/account/sign-up", json={"name": "carol", "password": PASSWORD})
        assert r.status_code == 429 and r.headers["retry-after"] == "3000"
        assert "your address" in r.json()["error"] and "3000 s" in r.json()["error"]
        assert sign_up(other, "carol") == 200  # another address has its own count
        assert c.post("/api/account/sign-in", json={"name": "alice", "password": PASSWORD}).status_code == 200
        clock.now += 3000
        assert sign_up(c, "dave") == 200


def api_session(c: TestClient, name: str, *seat_tokens: str) -> dict[str, str]:
    c.cookies.clear()
    body = {"name": name, "password": PASSWORD, "client": "api", "seat_tokens": list(seat_tokens)}
    r = c.post("/api/account/sign-up", json=body)
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_the_maker_of_a_rated_match_cannot_act_for_its_opponent(web: TestClient) -> None:
    alice = api_session(web, "alice")
    r = web.post("/api/matches", json={"mode": "online", "match_length": 3, "rated": True}, headers=alice)
    made = r.json()
    url, invite = f"/api/matches/{made['match_id']}", made["invite_url"].split("#token=")[1]
    bob = api_session(web, "bob", invite)  # bob signs up with the invitation's seat: his now
    before = web.get(url, headers={"X-Gammon-Token": invite}).json()["version"]
    # alice kept the invitation's token: with it she abandoned the match for bob, and won it rated
    for as_bob in ({"X-Gammon-Token": invite}, {**alice, "X-Gammon-Token": invite}):
        r = web.post(f"{url}/actions", headers=as_bob, json={"action": "abandon"})
        assert r.status_code == 403 and "bob" in r.json()["error"], r.text
    view = web.get(url, headers={"X-Gammon-Token": invite}).json()
    assert not view["match_over"] and view["version"] == before
    assert web.get("/api/players/alice/ratings").json()["rating"] == 1500
    # bob himself, signed in, acts with his seat's token
    r = web.post(f"{url}/actions", headers={**bob, "X-Gammon-Token": invite}, json={"action": "abandon"})
    assert r.status_code == 200 and r.json()["match_over"], r.text
    assert web.get("/api/players/alice/ratings").json()["rating"] > 1500


def test_a_players_rating_history_comes_a_page_at_a_time(web: TestClient, store: Store) -> None:  # noqa: F811
    alice = api_session(web, "alice")
    api_session(web, "bob")
    with sessionmaker(store.engine).begin() as s:
        ids = {name: i for name, i in s.execute(select(AccountRow.name, AccountRow.id))}
        for i in range(150):
            s.add(MatchRow(id=f"m{i:03}", mode="online", status="over", created_at=datetime(2026, 1, 1),
                           rules={"match_length": 1},
                           seat0_hash=f"a{i}", seat1_hash=f"b{i}"))
            s.add(RatingChangeRow(match_id=f"m{i:03}", account_id=ids["alice"], opponent_id=ids["bob"],
                                  match_length=1, won=True, rating_before=1500 + i, rating_after=1501 + i,
                                  experience_before=i, played_at=datetime(2026, 1, 1) + timedelta(hours=i)))
    # a public request answered all 150 at once: a player of thousands of matches, megabytes
    page = web.get("/api/players/alice/ratings").json()
    assert page["matches"] == 150 and len(page["history"]) == 100
    assert [h["match_id"] for h in page["history"]] == [f"m{i:03}" for i in range(50, 150)]  # oldest first
    rest = web.get("/api/account/ratings?offset=100&limit=100", headers=alice).json()["history"]
    assert [h["match_id"] for h in rest] == [f"m{i:03}" for i in range(50)]
    assert web.get("/api/players/alice/ratings?limit=101").status_code == 422
