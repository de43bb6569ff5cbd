"""Store: the postgres:// URLs hosts hand out, and errors that leave out their statements' parameters."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from gammon.errors import StoreUnavailableError
from gammon.store.repository import Store


def test_a_postgres_url_is_read_as_postgresql() -> None:
    """'postgres://' was refused with SQLAlchemy's "Can't load plugin: sqlalchemy.dialects:postgres";
    now it is PostgreSQL, and here a server that does not answer."""
    with pytest.raises(StoreUnavailableError) as refused:
        Store("postgres://nobody@127.0.0.1:1/gammon")
    assert "plugin" not in str(refused.value) and "127.0.0.1" in str(refused.value)


def test_a_failed_statement_does_not_carry_its_parameters(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        with store.engine.connect() as c, pytest.raises(SQLAlchemyError) as failed:
            c.execute(text("INSERT INTO no_such_table VALUES (:secret)"), {"secret": "hunter2-token"})
        assert "hunter2-token" not in str(failed.value)
    finally:
        store.close()
