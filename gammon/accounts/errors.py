"""The errors of accounts: each a GammonError, the bad-input ones also ValueErrors."""

from __future__ import annotations

import math

from gammon.errors import GammonError
from gammon.i18n import tr


class AccountError(GammonError):
    """Base class of the accounts' errors."""


class InvalidNameError(AccountError, ValueError):
    """A name an account may not have (its length or characters); the message says what is allowed."""


class NameTakenError(AccountError):
    """Another account has this name (names are compared without regard to case)."""


class WeakPasswordError(AccountError, ValueError):
    """A password too short or too long."""


class SignInError(AccountError):
    """A name and password that sign no one in. One message whether or not the name exists, so
    that it does not tell which names do."""

    def __init__(self) -> None:
        super().__init__(tr("wrong name or password"))


def _whole_seconds(wait: float) -> int:
    """A wait told in whole seconds, rounded up: rounded to the nearest, 59.4 s was told as 59,
    and a client that waited as told was refused again."""
    return max(1, math.ceil(wait))


class ThrottledError(AccountError):
    """Too many failed sign-ins for this name or from this address: try again in ``retry_after``
    seconds (whole, rounded up: after them the client is let through)."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = _whole_seconds(retry_after)
        super().__init__(tr("too many failed sign-ins: try again in {seconds} s", seconds=self.retry_after))


class TooManySignUpsError(ThrottledError):
    """Too many accounts made from this address lately: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = _whole_seconds(retry_after)
        AccountError.__init__(
            self,
            tr(
                "too many accounts were made from your address: try again in {seconds} s",
                seconds=self.retry_after,
            ),
        )


class NotSignedInError(AccountError):
    """A session token that is unknown, signed out or expired."""


class UnknownAccountError(AccountError, KeyError):
    """No account has this name (an operator's command; a client's sign-in never says so)."""

    def __str__(self) -> str:  # KeyError would quote the message a second time
        return str(self.args[0]) if self.args else ""


class ClaimError(AccountError):
    """A seat that cannot be claimed: an unknown seat token, or a seat another account holds."""


class RatingError(AccountError):
    """A match that cannot be rated: not over, not two accounts' match, or rated already."""
