"""Accounts: sign up, sign in and out, sessions, passwords (on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gammon.accounts import (
    Accounts,
    InvalidNameError,
    NameTakenError,
    NotSignedInError,
    SignInError,
    UnknownAccountError,
    WeakPasswordError,
)
from gammon.accounts.passwords import Passwords
from gammon.ratings import START_RATING
from tests.accounts.conftest import CHEAP, Clock


def test_sign_up_sign_in_and_out(accounts: Accounts) -> None:
    account = accounts.sign_up("Alice", "correct horse")
    assert (account.name, account.rating, account.experience) == ("Alice", START_RATING, 0)
    signed = accounts.sign_in("alice", "correct horse", "10.0.0.1")  # names are one in any case
    assert signed.account == account and len(signed.token) >= 40
    assert accounts.account_of(signed.token) == account
    accounts.sign_out(signed.token)
    assert accounts.account_of(signed.token) is None
    accounts.sign_out(signed.token)  # twice: nothing happens


def test_names_are_unique_without_regard_to_case(accounts: Accounts) -> None:
    accounts.sign_up("Alice", "password1")
    with pytest.raises(NameTakenError, match="taken"):
        accounts.sign_up("ALICE", "password2")


@pytest.mark.parametrize(
    "name", ["ab", "x" * 25, "has space", "_lead", "<script>", "a;b", "ünï", "guest", "Anonymous", "", "a:b"]
)
def test_names_that_are_refused(accounts: Accounts, name: str) -> None:
    with pytest.raises(InvalidNameError):
        accounts.sign_up(name, "password1")


@pytest.mark.parametrize("password", ["short", "x" * 1025])
def test_passwords_that_are_refused(accounts: Accounts, password: str) -> None:
    with pytest.raises(WeakPasswordError):
        accounts.sign_up("Alice", password)
    assert accounts.by_name("Alice") is None


def test_two_sessions_at_once_and_each_ends_alone(accounts: Accounts) -> None:
    accounts.sign_up("Alice", "password1")
    first = accounts.sign_in("Alice", "password1").token
    second = accounts.sign_in("Alice", "password1").token
    assert first != second
    accounts.sign_out(first)
    assert accounts.account_of(first) is None and accounts.account_of(second) is not None


def test_an_expired_session_is_refused(accounts: Accounts, clock: Clock) -> None:
    accounts.sign_up("Alice", "password1")
    token = accounts.sign_in("Alice", "password1").token
    clock.advance(accounts.session_lifetime - timedelta(seconds=1))
    assert accounts.account_of(token) is not None
    clock.advance(timedelta(seconds=1))
    assert accounts.account_of(token) is None
    with pytest.raises(NotSignedInError):
        accounts.change_password(token, "password1", "password2")


def test_change_password_ends_the_other_sessions(accounts: Accounts) -> None:
    accounts.sign_up("Alice", "password1")
    mine, other = accounts.sign_in("Alice", "password1").token, accounts.sign_in("Alice", "password1").token
    with pytest.raises(SignInError):
        accounts.change_password(mine, "wrong password", "password2")
    accounts.change_password(mine, "password1", "password2")
    assert accounts.account_of(mine) is not None and accounts.account_of(other) is None
    with pytest.raises(SignInError):
        accounts.sign_in("Alice", "password1")
    accounts.sign_in("Alice", "password2")


def test_an_operator_resets_a_password_and_ends_every_session(accounts: Accounts) -> None:
    accounts.sign_up("Alice", "password1")
    token = accounts.sign_in("Alice", "password1").token
    assert accounts.reset_password("ALICE", "new password").name == "Alice"
    assert accounts.account_of(token) is None
    accounts.sign_in("Alice", "new password")
    with pytest.raises(UnknownAccountError, match="no account is named 'Bob'"):
        accounts.reset_password("Bob", "new password")


def test_a_hash_of_older_parameters_is_renewed_at_sign_in(accounts: Accounts) -> None:
    from argon2 import PasswordHasher

    from gammon.store.models import AccountRow

    older = Accounts(
        accounts.store, passwords=Passwords(PasswordHasher(time_cost=1, memory_cost=16, parallelism=1))
    )
    older.sign_up("Alice", "password1")
    accounts.sign_in("Alice", "password1")
    with accounts.sessions() as s:
        stored = s.query(AccountRow).one().password_hash
    assert "m=8," in stored and not Passwords(CHEAP).needs_rehash(stored)
