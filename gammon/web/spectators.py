"""Spectators: a read-only link that follows a match live over the server's WebSocket updates.

A match's watch key is derived from its stored seat hashes (no new column in the store, the same key
after a restart); it opens nothing but the view, never a seat. A players' seat token gets the link
(``/api/matches/{id}/watch-link``; the routes are in gammon.web.routes.watch). The spectator's view
is what anyone at the table sees, from player 0's side: board, dice, cube, score and log, with no
actions, no legal plays and nothing of the players' presence. Spectator sockets are one "seat" of
the Hub (:data:`SPECTATOR`), so the per-seat cap bounds them and they never take the players' places
under the per-match cap.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from gammon.errors import NotAuthorizedError
from gammon.i18n import N_, tr
from gammon.store import MatchRecord
from gammon.web.schemas import MatchView
from gammon.web.session import LiveMatch
from gammon.web.views import match_view

SPECTATOR = -1  # the Hub's seat key of spectator sockets
KEY_LENGTH = 24
READ_ONLY = N_("spectators cannot act: this link is read-only")


def watch_key(record: MatchRecord) -> str:
    """The spectators' key of a match: a one-way function of its seat hashes."""
    digest = hashlib.sha256(b"gammon-watch\0" + "\0".join(record.seat_hashes).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:KEY_LENGTH]


def check_watch_key(live: LiveMatch, key: str) -> None:
    if not hmac.compare_digest(watch_key(live.record).encode(), key.encode()):
        raise NotAuthorizedError(tr("this link does not open this match to spectators"))


def spectator_view(live: LiveMatch) -> MatchView:
    """What a spectator sees: the table from player 0's side, and nothing to act on."""
    view = match_view(live, 0)
    return view.model_copy(
        update={
            "seat": None,
            "actions": [],
            "plays": [],
            "sequences": [],
            "opponent_away": None,
            "claim_in": None,
            "opponent_joined": None,
        }
    )


__all__ = ["KEY_LENGTH", "READ_ONLY", "SPECTATOR", "check_watch_key", "spectator_view", "watch_key"]
