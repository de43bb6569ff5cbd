"""A database that exists is checked before a server takes it on (``Store(url, check=True)``):
gammon's tables must have their columns; an SQLite file must be an intact database of gammon's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from gammon.errors import StoreUnavailableError
from gammon.store import Store
from tests.store.test_repository import _record


def _execute(url: str, *statements: str) -> None:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        for statement in statements:
            conn.execute(text(statement))
    engine.dispose()


def test_gammons_tables_without_their_columns_are_refused(store_url: str) -> None:
    _execute(store_url, "CREATE TABLE matches (id VARCHAR(32) PRIMARY KEY, note VARCHAR(10))")
    with pytest.raises(StoreUnavailableError) as e:
        Store(store_url, check=True)
    message = str(e.value)
    assert "has gammon's tables without columns gammon needs (matches.created_at, matches.mode" in message
    assert "\n" not in message and len(message) < 500
    _execute(store_url, "DROP TABLE matches")


def test_a_database_of_gammons_passes_and_keeps_its_matches(store_url: str) -> None:
    store = Store(store_url)
    store.create_match(_record("kept"))
    store.close()
    store = Store(store_url, check=True)
    try:
        assert store.match_ids() == ["kept"]
    finally:
        store.close()


def test_an_sqlite_file_of_another_programs_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.close()
    with pytest.raises(StoreUnavailableError, match=r"^the database file '.*other\.db' is another "
                       r"program's database: it has no table 'matches' \(its tables: 'contacts'\)$"):
        Store(f"sqlite:///{path}", check=True)
    with sqlite3.connect(path) as conn:  # left as it was: no table of gammon's made in it
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("contacts",)]
    conn.close()


def test_an_sqlite_database_with_no_table_yet_is_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "blank.db"
    sqlite3.connect(path).execute("VACUUM").connection.close()  # a valid database of no table
    assert path.stat().st_size > 0
    Store(f"sqlite:///{path}", check=True).close()
