"""Password hashes: Argon2id (argon2-cffi), and the checks a new password passes."""

from __future__ import annotations

import secrets
from functools import cached_property

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from gammon.accounts.errors import WeakPasswordError
from gammon.i18n import tr

MIN_LENGTH = 8
MAX_LENGTH = 1024  # hashing a megabyte for every attempt would be a cheap way to load the server


def check_password(password: object) -> str:
    if not isinstance(password, str):
        raise WeakPasswordError(tr("a password is text, got {type}", type=type(password).__name__))
    if len(password) < MIN_LENGTH:
        raise WeakPasswordError(tr("a password has at least {n} characters", n=MIN_LENGTH))
    if len(password) > MAX_LENGTH:
        raise WeakPasswordError(tr("a password has at most {n} characters", n=MAX_LENGTH))
    return password


class Passwords:
    """Hashes and verifies passwords with ``hasher`` (argon2-cffi's defaults, Argon2id, unless
    given: tests pass a cheap one)."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored_hash: str) -> bool:
        """Whether a hash was made with other parameters than the hasher's (rehash on sign-in)."""
        try:
            return self.hasher.check_needs_rehash(stored_hash)
        except InvalidHashError:
            return True

    @cached_property
    def dummy_hash(self) -> str:
        """A hash of no one's password: verified against when a name is unknown, so that the
        answer takes as long as for a known name."""
        return self.hasher.hash(secrets.token_urlsafe(16))

    def verify_nobody(self, password: str) -> None:
        self.verify(self.dummy_hash, password)
