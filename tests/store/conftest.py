"""Storage fixtures: every storage test runs on SQLite and on PostgreSQL (GAMMON_TEST_PG_URL)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from gammon.store import Store
from gammon.store.models import Base

PG_URL = os.environ.get("GAMMON_TEST_PG_URL")


@pytest.fixture(scope="session")
def pg_url() -> str:
    """A database of this test process's own on the server of GAMMON_TEST_PG_URL (pytest-xdist runs
    several processes at once, and each test empties its database)."""
    if not PG_URL:
        pytest.skip("GAMMON_TEST_PG_URL is not set (start one with tests/web/start_postgres.sh)")
    name = "gammon_test_" + os.environ.get("PYTEST_XDIST_WORKER", "main")
    engine = create_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1),
                           isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        if not conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}):
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return PG_URL.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    url = request.getfixturevalue("pg_url")
    store = Store(url)
    Base.metadata.drop_all(store.engine)  # every test starts from empty tables
    store.close()
    yield url


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()
