"""The players' home seen as an attacker would: what one client or one account can do to the
server or to other players through the accounts' routes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from gammon.accounts.passwords import Passwords
from gammon.accounts.throttle import SignUpLimit
from gammon.store import Store
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
