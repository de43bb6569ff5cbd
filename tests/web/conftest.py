"""Web fixtures: an app on SQLite and on PostgreSQL, and seeded dice so games are reproducible."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count

import pytest
from fastapi.testclient import TestClient

from gammon.dice import RandomDice
from gammon.store import Store
from gammon.web import create_app
from tests.store.conftest import pg_url, store, store_url  # noqa: F401  (fixtures shared with the storage tests)


def seeded_dice(seed: int = 7) -> Callable[[], RandomDice]:
    numbers = count()
    return lambda: RandomDice(seed * 1000 + next(numbers))


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(store, seeded_dice(), rate=1000, burst=1000)) as c:
        yield c


def new_match(client: TestClient, **body: object) -> dict:
    r = client.post("/api/matches", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def auth(token: str) -> dict[str, str]:
    return {"X-Gammon-Token": token}


class Clock:
    """A clock that stands still until a test moves it (``clock.now += 60``)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now
