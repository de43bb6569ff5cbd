"""A database made before accounts existed keeps working: the store adds the accounts' tables."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import create_engine, insert, inspect

from gammon.accounts import Accounts
from gammon.accounts.games import claim_seats
from gammon.accounts.passwords import Passwords
from gammon.store import Store
from gammon.store.models import ActionRow, Base, MatchActionRow, MatchRow
from gammon.store.repository import hash_token
from tests.accounts.conftest import CHEAP

ACCOUNT_TABLES = {"accounts", "account_sessions", "match_seat_accounts", "rating_changes"}


def test_an_older_database_gets_the_accounts_tables(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    # as the server made it before accounts: its tables, one match
    Base.metadata.create_all(
        engine, tables=[MatchRow.__table__, MatchActionRow.__table__, ActionRow.__table__]
    )
    with engine.begin() as conn:
        conn.execute(
            insert(MatchRow).values(
                id="m1",
                created_at=datetime.now(UTC),
                mode="online",
                rules={"match_length": 5},
                seat0_hash=hash_token("seat0"),
                seat1_hash=hash_token("seat1"),
                status="active",
            )
        )
    assert not ACCOUNT_TABLES & set(inspect(engine).get_table_names())
    engine.dispose()

    store = Store(url, check=True)  # the server's start: the check passes, the tables are made
    assert ACCOUNT_TABLES <= set(inspect(store.engine).get_table_names())
    assert store.load_match("m1").mode == "online"
    accounts = Accounts(store, passwords=Passwords(CHEAP))
    accounts.sign_up("Alice", "password1")
    token = accounts.sign_in("Alice", "password1").token
    assert [c.match_id for c in claim_seats(accounts, token, ["seat0"])] == ["m1"]
    store.close()
