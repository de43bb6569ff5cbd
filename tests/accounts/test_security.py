"""What an attacker must not get: plain passwords or session tokens from a copy of the database,
which names exist from the answers, more than a few guesses, or a way in by markup or SQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from gammon.accounts import Accounts, SignInError, SignInThrottle, ThrottledError
from gammon.accounts.passwords import Passwords
from gammon.store import Store
from gammon.store.models import AccountRow, AccountSessionRow
from gammon.store.repository import hash_token
from tests.accounts.conftest import CHEAP, Clock

PASSWORD = "Plain-Text-Secret-4711"


def _database_bytes(url: str) -> bytes:
    """The database file with its WAL and journal: where SQLite may hold what was written."""
    path = Path(url.removeprefix("sqlite:///"))
    return b"".join(p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")))


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_no_plain_password_or_session_token_is_stored(accounts: Accounts, store_url: str) -> None:
    accounts.sign_up("Alice", PASSWORD)
    token = accounts.sign_in("Alice", PASSWORD).token
    accounts.change_password(token, PASSWORD, PASSWORD + "-new")
    accounts.reset_password("Alice", PASSWORD + "-reset")
    other = accounts.sign_in("Alice", PASSWORD + "-reset").token
    accounts.store.close()
    data = _database_bytes(store_url)
    assert b"Alice" in data  # the scan does see what is stored
    for secret in (PASSWORD, PASSWORD + "-new", PASSWORD + "-reset", token, other):
        assert secret.encode() not in data
        assert secret.encode("utf-16-le") not in data
    assert hash_token(other).encode() in data


def test_passwords_are_argon2id_hashes_and_tokens_sha256(accounts: Accounts) -> None:
    accounts.sign_up("Alice", PASSWORD)
    token = accounts.sign_in("Alice", PASSWORD).token
    with accounts.sessions() as s:
        stored = s.scalar(select(AccountRow.password_hash))
        hashes = list(s.scalars(select(AccountSessionRow.token_hash)))
    assert stored is not None and stored.startswith("$argon2id$") and PASSWORD not in stored
    assert hashes == [hash_token(token)]


def test_unknown_and_known_names_give_the_same_error(accounts: Accounts) -> None:
    accounts.sign_up("Alice", PASSWORD)
    errors = []
    for name, password in [
        ("Alice", "wrong password"),
        ("Nobody", "wrong password"),
        ("Nobody", PASSWORD),
        ("", PASSWORD),
    ]:
        with pytest.raises(SignInError) as e:
            accounts.sign_in(name, password)
        errors.append((type(e.value), str(e.value)))
    assert errors == [(SignInError, "wrong name or password")] * 4


def test_an_unknown_name_is_verified_against_a_dummy_hash(store: Store, clock: Clock) -> None:
    """The same work for a name that does not exist: one Argon2 verification, as for one that does."""

    class Counting(Passwords):
        def __init__(self) -> None:
            super().__init__(CHEAP)
            self.verified: list[str] = []

        def check(self, stored_hash: str, password: str) -> bool | None:
            self.verified.append(stored_hash)
            return super().check(stored_hash, password)

    passwords = Counting()
    accounts = Accounts(store, passwords=passwords, clock=clock)
    accounts.sign_up("Alice", PASSWORD)
    for name in ("Alice", "Nobody"):
        with pytest.raises(SignInError):
            accounts.sign_in(name, "wrong password")
    assert len(passwords.verified) == 2 and passwords.verified[1] == passwords.dummy_hash
    assert passwords.dummy_hash.startswith("$argon2id$")


def test_sign_ins_are_throttled_per_account(accounts: Accounts, clock: Clock) -> None:
    accounts.sign_up("Alice", PASSWORD)
    for i in range(5):
        with pytest.raises(SignInError):
            accounts.sign_in("alice", "wrong password", f"10.0.0.{i}")
    with pytest.raises(ThrottledError) as refused:
        accounts.sign_in("Alice", PASSWORD, "10.0.0.99")  # even the right password, from anywhere
    assert refused.value.retry_after == pytest.approx(900.0)
    clock.seconds += 900
    assert accounts.sign_in("Alice", PASSWORD, "10.0.0.99").account.name == "Alice"


def test_an_unknown_name_is_throttled_as_a_known_one(accounts: Accounts) -> None:
    for _ in range(5):
        with pytest.raises(SignInError):
            accounts.sign_in("Nobody", "wrong password", "10.0.0.1")
    with pytest.raises(ThrottledError):
        accounts.sign_in("Nobody", "wrong password", "10.0.0.2")


def test_sign_ins_are_throttled_per_address(accounts: Accounts) -> None:
    accounts.sign_up("Alice", PASSWORD)
    for i in range(20):  # one guess at each of many names
        with pytest.raises(SignInError):
            accounts.sign_in(f"name{i}", "wrong password", "10.0.0.1")
    with pytest.raises(ThrottledError):
        accounts.sign_in("Alice", PASSWORD, "10.0.0.1")
    accounts.sign_in("Alice", PASSWORD, "10.0.0.2")


class Counted(Passwords):
    """Passwords that count the ones checked."""

    def __init__(self) -> None:
        super().__init__(CHEAP)
        self.tried = 0

    def check(self, stored_hash: str, password: str) -> bool | None:
        self.tried += 1
        return super().check(stored_hash, password)


def test_sign_ins_made_at_once_count_against_the_limit_together(store: Store, clock: Clock) -> None:
    """Eleven guesses at alice's password are under way at once: with a limit of 5 per name, five
    are tried and the rest refused. (Each checked the throttle before any had failed, so all
    eleven were tried: 30 sign-ins sent at once from threads all had their password checked.)"""
    passwords = Counted()
    accounts = Accounts(
        store,
        passwords=passwords,
        clock=clock,
        throttle=SignInThrottle(per_name=5, per_address=20, window=900.0, clock=clock.monotonic),
    )
    accounts.sign_up("alice", PASSWORD)
    outcomes: list[str] = []
    check = passwords.check
    guesses = iter(range(10))

    def another_comes_in(stored_hash: str, password: str) -> bool | None:
        # before this guess is checked, the next one comes in (on a server, in a thread of its own)
        i = next(guesses, None)
        if i is not None:
            try:
                accounts.sign_in("alice", f"guess {i}", f"10.0.0.{i}")
            except (SignInError, ThrottledError) as e:
                outcomes.append(type(e).__name__)
        return check(stored_hash, password)

    passwords.check = another_comes_in  # type: ignore[method-assign]
    with pytest.raises(SignInError):
        accounts.sign_in("alice", "first guess", "10.0.0.99")
    assert passwords.tried == 5
    assert outcomes == ["ThrottledError"] + ["SignInError"] * 4


def test_a_right_password_is_no_failure_of_its_address(accounts: Accounts) -> None:
    accounts.sign_up("Alice", PASSWORD)
    for _ in range(25):
        accounts.sign_in("Alice", PASSWORD, "10.0.0.1")
    accounts.sign_in("Alice", PASSWORD, "10.0.0.1")


def test_markup_and_sql_are_plain_data(accounts: Accounts) -> None:
    """Names with markup or SQL are refused by their rule; what the rule allows (an apostrophe) is
    stored and given back as written; SQL in a sign-in or a token finds nothing."""
    account = accounts.sign_up("o'neil--", PASSWORD)
    assert accounts.by_name("O'NEIL--") == account and account.name == "o'neil--"
    assert accounts.sign_in("o'neil--", PASSWORD).account.name == "o'neil--"
    for name in ("x' OR '1'='1", "Robert'); DROP TABLE accounts;--", "<b>bold</b>"):
        with pytest.raises(SignInError):
            accounts.sign_in(name, PASSWORD)
    assert accounts.account_of("' OR 1=1 --") is None
    assert [a.name for a in [accounts.by_name("o'neil--")] if a] == ["o'neil--"]
