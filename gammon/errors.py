"""Every public exception of gammon.

The value errors also subclass :class:`ValueError`, so callers that only know
the standard library can still catch bad input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.refusal import Refused

QUOTE_LIMIT = 80
"""The most characters of bad input an error message quotes."""


PATH_QUOTE_LIMIT = 300
"""The most characters of a file's path an error message quotes: enough for any real one, which
the user must recognise whole."""


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an error quotes it: at most ``limit`` characters, the last three ``...`` when
    it is longer (a pasted page or a whole file must not fill the message)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def shown_path(path: object) -> str:
    """A file's path as an error names it, cut to :data:`PATH_QUOTE_LIMIT`, its control characters
    escaped as ``repr`` writes them (``\\x1b``): a file name is the user's, or an archive's, and
    must not reach the terminal as an escape sequence that recolours or clears it."""
    shown = "".join(c if c.isprintable() else _escaped(c) for c in str(path))
    return cut(shown, PATH_QUOTE_LIMIT)


def _escaped(c: str) -> str:
    if "\udc80" <= c <= "\udcff":  # surrogateescape's form of a name's byte >= 0x80: the byte
        return f"\\x{ord(c) - 0xDC00:02x}"
    return repr(c)[1:-1]


def quoted_path(path: object) -> str:
    """A file's path as an error quotes it (``repr``), cut to :data:`PATH_QUOTE_LIMIT`."""
    return cut(repr(str(path)), PATH_QUOTE_LIMIT)


class GammonError(Exception):
    """Base class of every error gammon raises on purpose."""


class InvalidPositionError(GammonError, ValueError):
    """A position breaks an invariant (15 checkers a side, one colour a point, ...)."""


class InvalidNotationError(GammonError, ValueError):
    """Text (an ID, a move, a file) could not be read; the message quotes it."""


class InvalidArgumentError(GammonError, ValueError):
    """A value a function or class cannot take (a Rules option, a name a file cannot hold); the
    message quotes it."""


class IllegalMoveError(GammonError, ValueError):
    """A play that is well formed but not legal for the position and dice."""


class AmbiguousMoveError(IllegalMoveError):
    """A play whose text fits more than one legal play."""


class IllegalActionError(GammonError, ValueError):
    """A game action (roll, play, double, take, ...) that the game state does not allow.

    ``refused`` is the reason as a value (:mod:`gammon.refusal`), for a front end to word; None
    where the error is about a record that does not replay rather than a player's request."""

    def __init__(self, message: str = "", refused: Refused | None = None) -> None:
        super().__init__(message)
        self.refused = refused


class UnknownMatchError(GammonError, KeyError):
    """No match is stored under this id."""

    def __str__(self) -> str:  # KeyError would quote the message a second time
        return str(self.args[0]) if self.args else ""


class StoreConflictError(GammonError):
    """An action was appended out of order (another writer took that place in the log)."""


class StoreUnavailableError(GammonError):
    """The database cannot be opened: a URL it cannot use, a server it cannot reach, or (checked
    at a server's start) a database that is empty, damaged or not gammon's."""


class StaleActionError(GammonError):
    """An action sent for a game state that has since changed."""


class NotAuthorizedError(GammonError):
    """A request without the seat token that the action needs (not an OSError, unlike the
    built-in PermissionError)."""
