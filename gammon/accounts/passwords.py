"""Password hashes: Argon2id (argon2-cffi), and the checks a new password passes.

A password is hashed in Unicode NFC, the normalisation of PRECIS OpaqueString (RFC 8265): one
accented password typed as composed (NFC) or decomposed (NFD) characters, as keyboards and systems
differ, is one password. Not NFKC: it would also fold compatibility characters (ligatures, full
width forms, superscripts) into others, making different passwords one for no one's benefit. A
hash made before normalising, from the raw form, still verifies: the forms are tried in turn (only
a non-ASCII password has more than one), and the first sign-in renews it in NFC. Those forms are
the typed one, NFC and NFD: a raw form that mixed composed and decomposed characters verifies only
typed so again (its mixes cannot all be tried).
"""

from __future__ import annotations

import secrets
import unicodedata
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
    if len(password) > MAX_LENGTH:  # bounded before normalising it
        raise WeakPasswordError(tr("a password has at most {n} characters", n=MAX_LENGTH))
    if len(normal_form(password)) < MIN_LENGTH:
        raise WeakPasswordError(tr("a password has at least {n} characters", n=MIN_LENGTH))
    if not _writable(password):
        raise WeakPasswordError(
            tr("a password holds an unpaired surrogate, which UTF-8 cannot write (bytes that were not text?)")
        )
    return password


def _writable(password: str) -> bool:
    """Whether ``password`` can be hashed: the hasher writes it in UTF-8, which has no unpaired
    surrogates (what undecodable bytes on a terminal's standard input become)."""
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def normal_form(password: str) -> str:
    """The form a password is hashed in: NFC."""
    return unicodedata.normalize("NFC", password)


def _forms(password: str) -> list[str]:
    """The forms a stored hash may have been made from: NFC (every hash made now), then the raw
    form and NFD (hashes made before normalising, from what the sign-up's keyboard sent)."""
    forms = [normal_form(password)]
    for form in (password, unicodedata.normalize("NFD", password)):
        if form not in forms:
            forms.append(form)
    return forms


class Passwords:
    """Hashes and verifies passwords with ``hasher`` (argon2-cffi's defaults, Argon2id, unless
    given: tests pass a cheap one)."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()

    def hash(self, password: str) -> str:
        return self.hasher.hash(normal_form(password))

    def verify(self, stored_hash: str, password: str) -> bool:
        return self.check(stored_hash, password) is not None

    def check(self, stored_hash: str, password: str) -> bool | None:
        """None if ``password`` is not the stored hash's; else whether the hash is to be renewed
        (made from another form than NFC, or with other parameters than the hasher's)."""
        if not _writable(password):  # no hash was made from it: a wrong password, not an error
            return None
        for i, form in enumerate(_forms(password)):
            try:
                if self.hasher.verify(stored_hash, form):
                    return i > 0 or self.needs_rehash(stored_hash)
            except (VerificationError, InvalidHashError):
                pass
        return None

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
