"""Accounts and their sessions: sign up, sign in and out, the account of a session, passwords.

A session token is random (256 bits), handed to the client once; the database keeps only its
SHA-256, with the time it expires. A sign-in with a wrong name or a wrong password fails the same
way, in about the same time (an unknown name is verified against a dummy hash), and counts against
the :class:`~gammon.accounts.throttle.SignInThrottle`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from gammon.accounts.clock import Clock, as_utc, utc_now
from gammon.accounts.errors import (
    NameTakenError,
    NotSignedInError,
    SignInError,
    UnknownAccountError,
)
from gammon.accounts.names import check_name, lookup_key, name_key
from gammon.accounts.passwords import Passwords, check_password
from gammon.accounts.throttle import SignInThrottle, SignUpLimit
from gammon.errors import cut
from gammon.i18n import tr
from gammon.ratings import START_RATING
from gammon.store import Store
from gammon.store.models import AccountRow, AccountSessionRow
from gammon.store.repository import hash_token, lock_for_writing

SESSION_LIFETIME = timedelta(days=30)


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    rating: float
    experience: int
    created_at: datetime

    @classmethod
    def of(cls, row: AccountRow) -> Account:
        return cls(
            id=row.id,
            name=row.name,
            rating=row.rating,
            experience=row.experience,
            created_at=as_utc(row.created_at),
        )


@dataclass(frozen=True)
class SignedIn:
    """A new session: ``token`` goes to the client, and is not kept anywhere here."""

    token: str
    account: Account
    expires_at: datetime


class Accounts:
    """The accounts of ``store``'s database. ``passwords`` hashes (Argon2id), ``throttle`` limits
    failed sign-ins, ``clock`` tells the time (all injectable for tests)."""

    def __init__(
        self,
        store: Store,
        *,
        passwords: Passwords | None = None,
        throttle: SignInThrottle | None = None,
        signups: SignUpLimit | None = None,
        clock: Clock = utc_now,
        session_lifetime: timedelta = SESSION_LIFETIME,
    ) -> None:
        self.store = store
        self.passwords = passwords or Passwords()
        self.throttle = throttle or SignInThrottle()
        self.signups = signups or SignUpLimit()
        self.clock = clock
        self.session_lifetime = session_lifetime
        self.sessions = sessionmaker(store.engine, expire_on_commit=False)

    def sign_up(self, name: str, password: str, address: str | None = None) -> Account:
        """A new account (InvalidNameError, WeakPasswordError, NameTakenError); made from
        ``address`` (a client's: TooManySignUpsError past :class:`SignUpLimit`; None: an operator's)."""
        check_name(name)
        check_password(password)
        with self.sessions() as s:  # a taken name costs no hash, and counts against no limit
            if s.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key(name))) is not None:
                raise NameTakenError(tr("the name {name} is taken", name=repr(name)))
        made = None if address is None else self.signups.attempt(address)
        try:
            return self._sign_up(name, password)
        except BaseException:
            if made is not None:
                self.signups.forgive(address or "", made)
            raise

    def _sign_up(self, name: str, password: str) -> Account:
        row = AccountRow(
            name=name,
            name_key=name_key(name),
            password_hash=self.passwords.hash(password),
            created_at=self.clock(),
            rating=START_RATING,
            experience=0,
        )
        try:
            with self.sessions.begin() as s:
                s.add(row)
        except IntegrityError:  # the unique name_key, also against a sign-up racing this one
            raise NameTakenError(tr("the name {name} is taken", name=repr(name))) from None
        return Account.of(row)

    def sign_in(self, name: str, password: str, address: str | None = None) -> SignedIn:
        """A new session for the account ``name`` if ``password`` is its own: else SignInError,
        the same for an unknown name; ThrottledError after too many failures."""
        key = name_key(name) if isinstance(name, str) else ""
        # Counted as a failure from here on, so that sign-ins checked at once count together.
        attempt = self.throttle.attempt(key, address)
        try:
            signed = self._sign_in(lookup_key(name), password)
        except SignInError:
            raise
        except BaseException:  # no password was found wrong: not a failure
            self.throttle.forgive(attempt)
            raise
        self.throttle.succeeded(key)
        self.throttle.forgive(attempt)
        return signed

    def _sign_in(self, key: str | None, password: str) -> SignedIn:
        found = None
        if key is not None:
            with self.sessions() as s:
                found = s.execute(
                    select(AccountRow.id, AccountRow.password_hash).where(AccountRow.name_key == key)
                ).first()
        # The password is checked outside any transaction (it takes a while) ...
        if found is None or not isinstance(password, str):
            self.passwords.verify_nobody(password if isinstance(password, str) else "")
            raise SignInError()
        account_id, checked = found
        renew = self.passwords.check(checked, password)
        if renew is None:
            raise SignInError()
        renewed = self.passwords.hash(password) if renew else None
        with self.sessions.begin() as s:
            lock_for_writing(s)
            row = s.scalar(select(AccountRow).where(AccountRow.id == account_id).with_for_update())
            # ... so the session is made only if it is still the account's password: one changed
            # or reset meanwhile ended the sessions, and the old password signs in no more.
            if row is None or row.password_hash != checked:
                raise SignInError()
            if renewed is not None:
                row.password_hash = renewed
            now = self.clock()
            s.execute(
                delete(AccountSessionRow).where(
                    AccountSessionRow.account_id == row.id, AccountSessionRow.expires_at <= now
                )
            )
            token, expires_at = self._new_session(s, row.id, now)
            return SignedIn(token=token, account=Account.of(row), expires_at=expires_at)

    def sign_out(self, token: str) -> None:
        """End the session (nothing happens for a token that names none)."""
        with self.sessions.begin() as s:
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.token_hash == hash_token(token)))

    def account_of(self, token: str) -> Account | None:
        """The account signed in with ``token``; None for an unknown, signed-out or expired one."""
        with self.sessions() as s:
            row = self._session_account(s, token)
            return None if row is None else Account.of(row)

    def by_name(self, name: str) -> Account | None:
        key = lookup_key(name)
        if key is None:
            return None
        with self.sessions() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.name_key == key))
            return None if row is None else Account.of(row)

    def change_password(self, token: str, old_password: str, new_password: str) -> None:
        """Change the password of the session's account, which must give its present one
        (SignInError if wrong); every other session of the account ends."""
        check_password(new_password)
        with self.sessions() as s:
            row = self._session_account(s, token)
            if row is None:
                raise NotSignedInError(tr("not signed in"))
            account_id, checked = row.id, row.password_hash
        if not self.passwords.verify(checked, old_password):
            raise SignInError()
        new_hash = self.passwords.hash(new_password)
        with self.sessions.begin() as s:
            lock_for_writing(s)
            if self._session_account(s, token) is None:  # ended meanwhile (an operator's reset)
                raise NotSignedInError(tr("not signed in"))
            # Over the password just checked only: a change or reset made meanwhile stands.
            changed = s.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id, AccountRow.password_hash == checked)
                .values(password_hash=new_hash)
            )
            if changed.rowcount != 1:  # type: ignore[attr-defined]
                raise SignInError()
            s.execute(
                delete(AccountSessionRow).where(
                    AccountSessionRow.account_id == account_id,
                    AccountSessionRow.token_hash != hash_token(token),
                )
            )

    def reset_password(self, name: str, new_password: str) -> Account:
        """An operator's reset: set the password of the account ``name`` (UnknownAccountError)
        and end all its sessions."""
        password_hash = self.passwords.hash(check_password(new_password))
        key = lookup_key(name)
        with self.sessions.begin() as s:
            row = None if key is None else s.scalar(select(AccountRow).where(AccountRow.name_key == key))
            if row is None:
                raise UnknownAccountError(tr("no account is named {name}", name=cut(repr(name))))
            s.execute(update(AccountRow).where(AccountRow.id == row.id).values(password_hash=password_hash))
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == row.id))
            return Account.of(row)

    def signed_in(self, token: str, password: str | None = None) -> Account:
        """The session's account (NotSignedInError), checking its ``password`` when given
        (SignInError): what an action as grave as deleting the account asks for."""
        with self.sessions() as s:
            row = self._session_account(s, token)
            if row is None:
                raise NotSignedInError(tr("not signed in"))
            if password is not None and not self.passwords.verify(row.password_hash, password):
                raise SignInError()
            return Account.of(row)

    def _new_session(self, s: Session, account_id: int, now: datetime) -> tuple[str, datetime]:
        token = secrets.token_urlsafe(32)
        expires_at = now + self.session_lifetime
        s.add(
            AccountSessionRow(
                token_hash=hash_token(token), account_id=account_id, created_at=now, expires_at=expires_at
            )
        )
        return token, expires_at

    def _session_account(self, s: Session, token: str) -> AccountRow | None:
        if not isinstance(token, str):
            return None
        return s.scalar(
            select(AccountRow)
            .join(AccountSessionRow)
            .where(
                AccountSessionRow.token_hash == hash_token(token), AccountSessionRow.expires_at > self.clock()
            )
        )
