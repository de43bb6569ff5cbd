"""Storage fixtures: every storage test runs on SQLite and on PostgreSQL (GAMMON_TEST_PG_URL)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine, text

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


# gammon's tables as a fresh Store made them, per database (see _emptied)
_made: dict[str, tuple[object, ...]] = {}
_engines: dict[str, Engine] = {}

_SHAPE = text("""
    SELECT 'column', c.table_name, c.column_name,
           concat_ws(' ', c.ordinal_position, c.data_type, c.udt_name, c.character_maximum_length,
                     c.numeric_precision, c.numeric_scale, c.is_nullable, c.column_default)
      FROM information_schema.columns c
     WHERE c.table_schema = current_schema() AND c.table_name = ANY(:names)
    UNION ALL
    SELECT 'constraint', t.relname, k.conname, pg_get_constraintdef(k.oid)
      FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY(:names)
    UNION ALL
    SELECT 'index', i.tablename, i.indexname, i.indexdef
      FROM pg_indexes i WHERE i.schemaname = current_schema() AND i.tablename = ANY(:names)
    UNION ALL
    SELECT 'trigger', t.relname, g.tgname, pg_get_triggerdef(g.oid)
      FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid
     WHERE NOT g.tgisinternal AND t.relnamespace = current_schema()::regnamespace
       AND t.relname = ANY(:names)
    ORDER BY 1, 2, 3, 4
""")


def _engine(url: str) -> Engine:
    """One engine per database for the session's look at its tables (a connection each time cost more)."""
    if url not in _engines:
        pg = url.replace("postgresql://", "postgresql+psycopg://", 1)
        _engines[url] = create_engine(pg, pool_pre_ping=True)
    return _engines[url]


def _shape(url: str) -> tuple[object, ...]:
    """gammon's tables in the database: their columns, constraints, indexes and triggers."""
    with _engine(url).connect() as conn:
        return tuple(tuple(row) for row in conn.execute(_SHAPE, {"names": list(Base.metadata.tables)}))


def _emptied(url: str) -> None:
    """gammon's tables in the database at ``url`` as a fresh Store makes them, with no rows.

    Dropping and making them again costs half a second a test; when they have the shape a fresh
    Store gave them (no test altered them), emptying them (TRUNCATE, sequences restarted) leaves
    the same thing, as a store opening the database finds it. Other tables are left as they are,
    as drop_all leaves them."""
    if url in _made and _shape(url) == _made[url]:
        tables = ", ".join(f'"{name}"' for name in Base.metadata.tables)
        with _engine(url).begin() as conn:
            conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        return
    store = Store(url)
    Base.metadata.drop_all(store.engine)
    store.close()
    Store(url).close()  # gammon's tables made afresh: the shape the next tests' are compared with
    _made[url] = _shape(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    url = request.getfixturevalue("pg_url")
    if "store" in request.fixturenames:
        # the test's Store (the fixture below) opens the database next, which makes any missing
        # table: gammon's tables empty are what it would find after a drop
        _emptied(url)
    else:  # every test starts from empty tables; a test given only the URL, from none at all
        store = Store(url)
        Base.metadata.drop_all(store.engine)
        store.close()
    yield url


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()
