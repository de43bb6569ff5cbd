"""Storage fixtures: every storage test runs on SQLite and on PostgreSQL (GAMMON_TEST_PG_URL)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from gammon.store import Store
from gammon.store.models import Base

PG_URL = os.environ.get("GAMMON_TEST_PG_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    if not PG_URL:
        pytest.skip("GAMMON_TEST_PG_URL is not set (start one with tests/web/start_postgres.sh)")
    # A clean schema for each test: the cluster is shared by the whole run.
    store = Store(PG_URL)
    Base.metadata.drop_all(store.engine)
    store.close()
    yield PG_URL


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()
