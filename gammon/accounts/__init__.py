"""Player accounts: sign up and in, sessions, passwords, claimed games, ratings and export.

The service layer over the store's tables (:mod:`gammon.store.models`); the web's routes and the
terminal's commands call it. See docs/accounts.md.
"""

from gammon.accounts.errors import (
    AccountError,
    ClaimError,
    InvalidNameError,
    NameTakenError,
    NotSignedInError,
    RatingError,
    SignInError,
    ThrottledError,
    UnknownAccountError,
    WeakPasswordError,
)
from gammon.accounts.service import Account, Accounts, SignedIn
from gammon.accounts.throttle import SignInThrottle

__all__ = [
    "Account",
    "AccountError",
    "Accounts",
    "ClaimError",
    "InvalidNameError",
    "NameTakenError",
    "NotSignedInError",
    "RatingError",
    "SignInError",
    "SignInThrottle",
    "SignedIn",
    "ThrottledError",
    "UnknownAccountError",
    "WeakPasswordError",
]
