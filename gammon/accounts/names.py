"""Account names: which are allowed, and the key that makes names differing in case one name.

A name is 3 to 24 characters: ASCII letters, digits and ``_ . ' -``, starting with a letter or a
digit. Names appear in match files (where ``:`` and double spaces break the columns), in
addresses and in logs, so the set is kept small; markup or SQL cannot be written in it, and what
is allowed (``o'neil``) is kept and returned as plain data.
"""

from __future__ import annotations

import re

from gammon.accounts.errors import InvalidNameError
from gammon.errors import cut
from gammon.i18n import tr

MIN_LENGTH = 3
MAX_LENGTH = 24
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.'-]*")
RESERVED = frozenset({"guest", "anonymous"})
"""Names exports give to seats without an account: no account may take them."""


def check_name(name: object) -> str:
    """``name`` if an account may have it, else InvalidNameError saying why."""
    if not isinstance(name, str):
        raise InvalidNameError(tr("a name is text, got {type}", type=type(name).__name__))
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise InvalidNameError(
            tr(
                "a name has {least} to {most} characters, got {n}",
                least=MIN_LENGTH,
                most=MAX_LENGTH,
                n=len(name),
            )
        )
    if not _NAME.fullmatch(name):
        raise InvalidNameError(
            tr(
                "a name has letters (a-z, A-Z), digits and _ . ' - only, starting with a letter or a digit, "
                "got {name}",
                name=cut(repr(name)),
            )
        )
    if name_key(name) in RESERVED:
        raise InvalidNameError(tr("the name {name} is reserved", name=repr(name)))
    return name


def name_key(name: str) -> str:
    """The form names are compared in: two names with the same key are one name."""
    return name.lower()


def lookup_key(name: object) -> str | None:
    """The key to look the account ``name`` up by; None where no account can have the name (its
    length or characters): it is no one's without asking the database, which may refuse it
    (PostgreSQL: text holding NUL)."""
    if not isinstance(name, str) or not MIN_LENGTH <= len(name) <= MAX_LENGTH or not _NAME.fullmatch(name):
        return None
    return name_key(name)
