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

MIN_LENGTH = 3
MAX_LENGTH = 24
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.'-]*")
RESERVED = frozenset({"guest", "anonymous"})
"""Names exports give to seats without an account: no account may take them."""


def check_name(name: object) -> str:
    """``name`` if an account may have it, else InvalidNameError saying why."""
    if not isinstance(name, str):
        raise InvalidNameError(f"a name is text, got {type(name).__name__}")
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise InvalidNameError(f"a name has {MIN_LENGTH} to {MAX_LENGTH} characters, got {len(name)}")
    if not _NAME.fullmatch(name):
        raise InvalidNameError(
            f"a name has letters (a-z, A-Z), digits and _ . ' - only, starting with a "
            f"letter or a digit, got {cut(repr(name))}"
        )
    if name_key(name) in RESERVED:
        raise InvalidNameError(f"the name {name!r} is reserved")
    return name


def name_key(name: str) -> str:
    """The form names are compared in: two names with the same key are one name."""
    return name.lower()
