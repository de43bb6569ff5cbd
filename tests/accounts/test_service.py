"""Accounts: sign up, sign in and out, sessions, passwords (on SQLite and PostgreSQL)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import timedelta

import pytest
from argon2.exceptions import VerificationError
from sqlalchemy import func, select

from gammon.accounts import (
    Accounts,
    InvalidNameError,
    NameTakenError,
    NotSignedInError,
    SignInError,
    UnknownAccountError,
    WeakPasswordError,
)
from gammon.accounts.lobby import Invitations, LobbyError, Terms
from gammon.accounts.passwords import Passwords
from gammon.ratings import START_RATING
from gammon.store import Store
from gammon.store.models import AccountSessionRow
from tests.accounts.conftest import CHEAP, Clock, reset_while_checked


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


def test_a_password_that_utf_8_cannot_write(accounts: Accounts) -> None:
    # an unpaired surrogate (what a terminal's undecodable bytes become on standard input) raised
    # UnicodeEncodeError from the hasher: a sign-up's and a reset's were no refusal, and a
    # sign-in's was no "wrong name or password" and not counted against the throttle
    unpaired = "password\udcff"
    with pytest.raises(WeakPasswordError, match="UTF-8"):
        accounts.sign_up("Alice", unpaired)
    accounts.sign_up("Alice", "password1")
    with pytest.raises(WeakPasswordError, match="UTF-8"):
        accounts.reset_password("Alice", unpaired)
    for name in ("Alice", "Nobody"):
        with pytest.raises(SignInError):
            accounts.sign_in(name, unpaired)
    assert accounts.throttle._failures[("name", "alice")]  # counted as a failure
    accounts.sign_in("Alice", "password1")


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


NFC, NFD = "Zażółć gęślą", unicodedata.normalize("NFD", "Zażółć gęślą")


@pytest.mark.parametrize(("typed", "then"), [(NFC, NFD), (NFD, NFC)])
def test_an_accented_password_is_one_password_in_either_unicode_form(
    accounts: Accounts, typed: str, then: str
) -> None:
    assert typed != then
    accounts.sign_up("Alice", typed)
    assert accounts.sign_in("Alice", then).account.name == "Alice"
    token = accounts.sign_in("Alice", typed).token
    accounts.change_password(token, then, "password2")


@pytest.mark.parametrize("typed", [NFC, NFD])
def test_a_hash_made_from_the_raw_form_still_verifies_and_is_renewed_in_nfc(
    accounts: Accounts, typed: str
) -> None:
    """An account made before passwords were normalised has the hash of what its keyboard sent
    (here NFD); either form signs in, and the first sign-in rehashes it from NFC."""
    from gammon.store.models import AccountRow

    accounts.sign_up("Alice", "password1")
    with accounts.sessions.begin() as s:
        s.query(AccountRow).one().password_hash = CHEAP.hash(NFD)  # the raw form, as hashed before
    accounts.sign_in("Alice", typed)
    with accounts.sessions() as s:
        stored = s.query(AccountRow).one().password_hash
    assert CHEAP.verify(stored, NFC)
    with pytest.raises(VerificationError):
        CHEAP.verify(stored, NFD)
    accounts.sign_in("Alice", NFD)
    with pytest.raises(SignInError):
        accounts.sign_in("Alice", "Zazolc gesla")


@pytest.mark.parametrize("change", ["by the player", "by an operator"])
def test_a_sign_in_with_the_old_password_while_it_is_changed(store: Store, clock: Clock, change: str) -> None:
    """Someone who knows alice's old password signs in while she changes it (or an operator resets
    it): the old password was checked before the change, but the session is made after, so it
    is refused. (It was made: a session won with the password just replaced, which the change
    is there to end.)"""

    class ChangedMeanwhile(Passwords):
        """Passwords that change alice's password while a sign-in's password is checked."""

        during: Callable[[], object] | None = None

        def check(self, stored_hash: str, password: str) -> bool | None:
            ok = super().check(stored_hash, password)
            during, self.during = self.during, None
            if during is not None:
                during()
            return ok

    passwords = ChangedMeanwhile(CHEAP)
    accounts = Accounts(store, passwords=passwords, clock=clock)
    accounts.sign_up("alice", "old password")
    hers = accounts.sign_in("alice", "old password").token
    if change == "by the player":
        passwords.during = lambda: accounts.change_password(hers, "old password", "new password")
    else:
        passwords.during = lambda: accounts.reset_password("alice", "new password")
    with pytest.raises(SignInError):
        accounts.sign_in("alice", "old password")
    with accounts.sessions() as s:
        sessions = s.scalar(select(func.count()).select_from(AccountSessionRow))
    assert sessions == (1 if change == "by the player" else 0)
    accounts.sign_in("alice", "new password")


def test_an_operators_reset_made_while_the_player_changes_the_password_stands(
    store: Store, clock: Clock
) -> None:
    """The operator resets alice's password (her account was taken over, say) while a change of
    it, made with her old password, is being checked: the reset stands and the change is refused.
    (The change wrote its new password over the reset, and its session lived on.)"""
    accounts = Accounts(store, passwords=Passwords(CHEAP), clock=clock)
    accounts.sign_up("alice", "old password")
    token = accounts.sign_in("alice", "old password").token
    reset_while_checked(accounts, "alice", "operator's password")
    with pytest.raises((SignInError, NotSignedInError)):
        accounts.change_password(token, "old password", "taker's password")
    assert accounts.account_of(token) is None
    with pytest.raises(SignInError):
        accounts.sign_in("alice", "taker's password")
    accounts.sign_in("alice", "operator's password")


@pytest.mark.parametrize("name", ["al\x00ice", "\u212aate", "x" * 200])
def test_a_name_no_account_can_have_is_looked_up_as_no_ones(accounts: Accounts, name: str) -> None:
    """PostgreSQL refuses text holding NUL: signing in as 'al\\x00ice', a player's ratings page,
    or a lobby invitation to such a name raised DataError (a 500 on the web). The Kelvin sign
    lower-cased to 'k' and found kate."""
    accounts.sign_up("alice", "password1")
    accounts.sign_up("kate", "password1")
    with pytest.raises(SignInError):
        accounts.sign_in(name, "password1")
    assert accounts.by_name(name) is None
    with pytest.raises(UnknownAccountError):
        accounts.reset_password(name, "password2")
    with pytest.raises(LobbyError, match="no player has that name"):
        Invitations(accounts).post(accounts.sign_in("alice", "password1").account.id, Terms(), to=name)
