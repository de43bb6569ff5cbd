"""The lobby's records: invitations to a match posted by signed-in players, and who each server
process has in the lobby, kept in the database so that several server processes share one lobby
(the web's side, its sockets and the messages between processes: gammon.web.lobby).

An invitation is open to anyone or to one named account (only the poster and that player see it).
Accepting it is a claim: one guarded UPDATE moves it from "open" to "starting", so of two accepts
at once (in two processes) one wins and one match is made. The accepting process then stores the
match, its seats bound to the two accounts, and marks the invitation "accepted" with the match and
the poster's seat token, in one transaction (an account deleted meanwhile leaves no match
behind); the poster's browser takes the token once (:meth:`Invitations.take_seat`).
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import aliased

from gammon.accounts.errors import AccountError
from gammon.accounts.names import lookup_key
from gammon.accounts.service import Accounts
from gammon.i18n import tr
from gammon.store import MatchRecord
from gammon.store.models import AccountRow, LobbyInvitationRow, LobbyProcessRow, SeatAccountRow
from gammon.store.repository import lock_for_writing

MAX_OPEN_PER_ACCOUNT = 3
"""Invitations one account may have open at once."""
MAX_OPEN = 1000
"""Invitations open in the whole lobby: past it, new ones wait (the memory of each process's
lobby, and what each socket is sent, stay bounded)."""
POSTER_GRACE = timedelta(seconds=60)
"""An open invitation goes once its poster has had no lobby open for this long (a reload, a
phone's network changing, do not lose it; a poster who left does not leave it behind)."""
ACCEPTED_KEEP = timedelta(minutes=10)
"""An accepted invitation waits this long for its poster's browser to take the seat token (the
poster's seat is bound to its account either way); one stuck "starting" (its process died) goes too."""
PROCESS_STALE = timedelta(seconds=30)
"""A process whose lobby row was not rewritten for this long is gone: its players are not online."""


class LobbyError(AccountError):
    """An invitation that cannot be posted, accepted, cancelled or declined (the message says why)."""


@dataclass(frozen=True)
class Terms:
    """The match an invitation offers: a money game (``match_length`` 0) or a match to a length;
    ``rated`` only for a match to a length (gammon.accounts.rated rates nothing else)."""

    match_length: int = 1
    crawford: bool = True
    jacoby: bool = True
    beavers: bool = False
    rated: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.match_length <= 99:
            raise LobbyError(tr("a match length is 0 (money) to 99, got {length}", length=self.match_length))
        if self.rated and self.match_length < 1:
            raise LobbyError(tr("only a match to a length may be rated"))

    @classmethod
    def of(cls, data: dict[str, Any]) -> Terms:
        """The terms stored as a dict (their fields' names; others ignored)."""
        return cls(
            **{k: data[k] for k in ("match_length", "crawford", "jacoby", "beavers", "rated") if k in data}
        )


@dataclass(frozen=True)
class Invitation:
    """An invitation as the lobby shows it (``to``: the named player, None: open to anyone)."""

    id: str
    poster_id: int
    poster: str
    poster_rating: float
    to_id: int | None
    to: str | None
    terms: Terms
    status: str
    match_id: str | None
    created_at: datetime


@dataclass(frozen=True)
class Claimed:
    """An invitation just claimed by its acceptor: what the match is made of."""

    id: str
    poster_id: int
    poster: str
    acceptor_id: int
    acceptor: str
    terms: Terms


@dataclass(frozen=True)
class OnlinePlayer:
    name: str
    rating: float
    in_lobby: bool
    playing: bool


@dataclass(frozen=True)
class LobbyPresence:
    """Who one process has in the lobby: accounts with the lobby open, the name keys of accounts
    at an online game's seat, and guests with the lobby open."""

    lobby: frozenset[int] = frozenset()
    playing: frozenset[str] = frozenset()
    guests: int = 0


class Invitations:
    """The lobby's rows in the database of ``accounts`` (its clock tells the time)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.sessions = accounts.sessions

    def post(self, poster_id: int, terms: Terms, to: str | None = None) -> str:
        """A new invitation of ``poster_id`` (open to anyone, or to the account named ``to``);
        its id. LobbyError: no such player, oneself, or past the limits."""
        now = self.accounts.clock()
        with self.sessions.begin() as s:
            # The poster's row locked (PostgreSQL), the database for writing (SQLite): two posts at
            # once count each other's invitation.
            lock_for_writing(s)
            poster = s.scalar(select(AccountRow).where(AccountRow.id == poster_id).with_for_update())
            if poster is None:
                raise LobbyError(tr("no such account"))
            to_id = None
            if to is not None:
                to_key = lookup_key(to)
                named = select(AccountRow).where(AccountRow.name_key == to_key)
                to_row = None if to_key is None else s.scalar(named)
                if to_row is None:
                    raise LobbyError(tr("no player has that name"))
                if to_row.id == poster_id:
                    raise LobbyError(tr("you cannot invite yourself"))
                to_id = to_row.id
            mine = s.scalar(
                select(func.count())
                .select_from(LobbyInvitationRow)
                .where(LobbyInvitationRow.poster_id == poster_id, LobbyInvitationRow.status == "open")
            )
            if (mine or 0) >= MAX_OPEN_PER_ACCOUNT:
                raise LobbyError(
                    tr("you have {n} invitations open (the limit): cancel one first", n=MAX_OPEN_PER_ACCOUNT)
                )
            total = s.scalar(
                select(func.count())
                .select_from(LobbyInvitationRow)
                .where(LobbyInvitationRow.status == "open")
            )
            if (total or 0) >= MAX_OPEN:
                raise LobbyError(tr("the lobby is full of invitations; accept one, or try again later"))
            invitation_id = secrets.token_urlsafe(9)
            s.add(
                LobbyInvitationRow(
                    id=invitation_id,
                    poster_id=poster_id,
                    to_id=to_id,
                    terms=asdict(terms),
                    status="open",
                    created_at=now,
                    seen=now,
                )
            )
        return invitation_id

    def withdraw(self, invitation_id: str, account_id: int) -> None:
        """Cancel (the poster) or decline (the named player) an open invitation (LobbyError if it
        is not open, or neither of theirs)."""
        if _never_made(invitation_id):
            raise LobbyError(tr("no open invitation of yours, or to you, has this id"))
        with self.sessions.begin() as s:
            gone = s.execute(
                delete(LobbyInvitationRow).where(
                    LobbyInvitationRow.id == invitation_id,
                    LobbyInvitationRow.status == "open",
                    (LobbyInvitationRow.poster_id == account_id) | (LobbyInvitationRow.to_id == account_id),
                )
            )
            if gone.rowcount != 1:  # type: ignore[attr-defined]
                raise LobbyError(tr("no open invitation of yours, or to you, has this id"))

    def claim(self, invitation_id: str, account_id: int) -> Claimed:
        """Accept for ``account_id``: the invitation becomes "starting" if it is open and this
        account may take it (not its poster; the named player, if one is named). Of two claims at
        once one wins; the other gets LobbyError, as for an invitation that is not open."""
        poster, acceptor = aliased(AccountRow), aliased(AccountRow)
        if _never_made(invitation_id):
            raise LobbyError(
                tr("this invitation is not open to you (accepted, cancelled, or not yours to take)")
            )
        with self.sessions.begin() as s:
            claimed = s.execute(
                update(LobbyInvitationRow)
                .where(
                    LobbyInvitationRow.id == invitation_id,
                    LobbyInvitationRow.status == "open",
                    LobbyInvitationRow.poster_id != account_id,
                    (LobbyInvitationRow.to_id.is_(None)) | (LobbyInvitationRow.to_id == account_id),
                )
                .values(status="starting", acceptor_id=account_id, accepted_at=self.accounts.clock())
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                raise LobbyError(
                    tr("this invitation is not open to you (accepted, cancelled, or not yours to take)")
                )
            row, poster_name, acceptor_name = s.execute(
                select(LobbyInvitationRow, poster.name, acceptor.name)
                .join(poster, poster.id == LobbyInvitationRow.poster_id)
                .join(acceptor, acceptor.id == LobbyInvitationRow.acceptor_id)
                .where(LobbyInvitationRow.id == invitation_id)
            ).one()
            return Claimed(row.id, row.poster_id, poster_name, account_id, acceptor_name, Terms.of(row.terms))

    def started(self, claimed: Claimed, record: MatchRecord, poster_token: str) -> None:
        """Store the match of a claimed invitation, ``record``, with its seats bound to the two
        accounts (the poster at seat 0), and keep the poster's seat token for its browser: all in
        one transaction. LobbyError, and nothing stored, when the invitation went meanwhile: its
        poster or acceptor deleted the account, and it with it."""
        match_id = record.id
        with self.sessions.begin() as s:
            lock_for_writing(s)  # SQLite; PostgreSQL: the row below, which a deletion waits for
            row = s.scalar(
                select(LobbyInvitationRow)
                .where(LobbyInvitationRow.id == claimed.id, LobbyInvitationRow.status == "starting")
                .with_for_update()
            )
            if row is None:  # binding a seat to a deleted account raised IntegrityError
                raise LobbyError(
                    tr("this invitation is not open to you (accepted, cancelled, or not yours to take)")
                )
            self.accounts.store.create_match(record, s)
            s.flush()  # the match's row before its seats' rows, which refer to it
            s.add(SeatAccountRow(match_id=match_id, seat=0, account_id=claimed.poster_id))
            s.add(SeatAccountRow(match_id=match_id, seat=1, account_id=claimed.acceptor_id))
            s.execute(
                update(LobbyInvitationRow)
                .where(LobbyInvitationRow.id == claimed.id)
                .values(status="accepted", match_id=match_id, poster_token=poster_token)
            )

    def release(self, claimed: Claimed) -> None:
        """The match could not be made: the invitation is open again."""
        with self.sessions.begin() as s:
            s.execute(
                update(LobbyInvitationRow)
                .where(LobbyInvitationRow.id == claimed.id, LobbyInvitationRow.status == "starting")
                .values(status="open", acceptor_id=None, accepted_at=None)
            )

    def take_seat(self, invitation_id: str, account_id: int) -> tuple[str, str]:
        """The poster's browser takes its seat of an accepted invitation, once: (match id, seat
        token); the invitation is gone then. LobbyError if there is none to take."""
        if _never_made(invitation_id):
            raise LobbyError(tr("no accepted invitation of yours has this id (its seat was taken already?)"))
        with self.sessions.begin() as s:
            lock_for_writing(s)  # SQLite: a second take at once reads the row after this one's delete
            row = s.scalar(
                select(LobbyInvitationRow)
                .where(
                    LobbyInvitationRow.id == invitation_id,
                    LobbyInvitationRow.poster_id == account_id,
                    LobbyInvitationRow.status == "accepted",
                )
                .with_for_update()
            )
            if row is None or row.match_id is None or row.poster_token is None:
                raise LobbyError(
                    tr("no accepted invitation of yours has this id (its seat was taken already?)")
                )
            taken = row.match_id, row.poster_token
            s.delete(row)
            return taken

    def invitations(self) -> list[Invitation]:
        """Every invitation open, or accepted and waiting for its poster, oldest first."""
        poster, to = aliased(AccountRow), aliased(AccountRow)
        query = (
            select(LobbyInvitationRow, poster.name, poster.rating, to.name)
            .join(poster, poster.id == LobbyInvitationRow.poster_id)
            .outerjoin(to, to.id == LobbyInvitationRow.to_id)
            .where(LobbyInvitationRow.status.in_(("open", "accepted")))
            .order_by(LobbyInvitationRow.created_at, LobbyInvitationRow.id)
        )
        with self.sessions() as s:
            return [
                Invitation(
                    id=r.id,
                    poster_id=r.poster_id,
                    poster=poster_name,
                    poster_rating=rating,
                    to_id=r.to_id,
                    to=to_name,
                    terms=Terms.of(r.terms),
                    status=r.status,
                    match_id=r.match_id,
                    created_at=r.created_at,
                )
                for r, poster_name, rating, to_name in s.execute(query)
            ]

    # ---- who is online, per process ------------------------------------------------------------

    def write_presence(self, process: str, presence: LobbyPresence) -> None:
        """Replace what ``process`` has in the lobby (and say it is alive)."""
        players = {
            "lobby": sorted(presence.lobby),
            "playing": sorted(presence.playing),
            "guests": presence.guests,
        }
        now = self.accounts.clock()
        with self.sessions.begin() as s:
            row = s.get(LobbyProcessRow, process)
            if row is None:
                s.add(LobbyProcessRow(process=process, players=players, seen=now))
            else:
                row.players, row.seen = players, now

    def drop_presence(self, process: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(LobbyProcessRow).where(LobbyProcessRow.process == process))

    def online(self) -> tuple[list[OnlinePlayer], int]:
        """The accounts online in any live process (by name), and the guests in the lobby."""
        since = self.accounts.clock() - PROCESS_STALE
        lobby: set[int] = set()
        playing: set[str] = set()
        guests = 0
        with self.sessions() as s:
            for players in s.scalars(select(LobbyProcessRow.players).where(LobbyProcessRow.seen >= since)):
                lobby.update(int(i) for i in players.get("lobby", []))
                playing.update(str(k) for k in players.get("playing", []))
                guests += int(players.get("guests", 0))
            rows = s.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.rating, AccountRow.name_key)
                .where(AccountRow.id.in_(lobby) | AccountRow.name_key.in_(playing))
                .order_by(AccountRow.name_key)
            ).all()
        return [
            OnlinePlayer(name, rating, i in lobby, key in playing) for i, name, rating, key in rows
        ], guests

    def sweep(self, posters_here: frozenset[int]) -> int:
        """The lobby's upkeep, done by every process now and then: the open invitations of the
        posters with the lobby open here are seen now; those of posters gone for
        :data:`POSTER_GRACE` go, as do accepted ones waiting past :data:`ACCEPTED_KEEP` and the rows
        of processes gone. Returns how many invitations went."""
        now = self.accounts.clock()
        with self.sessions.begin() as s:
            if posters_here:
                s.execute(
                    update(LobbyInvitationRow)
                    .where(
                        LobbyInvitationRow.status == "open", LobbyInvitationRow.poster_id.in_(posters_here)
                    )
                    .values(seen=now)
                )
            stale = s.execute(
                delete(LobbyInvitationRow).where(
                    ((LobbyInvitationRow.status == "open") & (LobbyInvitationRow.seen < now - POSTER_GRACE))
                    | (
                        (LobbyInvitationRow.status != "open")
                        & (LobbyInvitationRow.accepted_at < now - ACCEPTED_KEEP)
                    )
                )
            )
            s.execute(delete(LobbyProcessRow).where(LobbyProcessRow.seen < now - 10 * PROCESS_STALE))
            return int(stale.rowcount or 0)  # type: ignore[attr-defined]


def _never_made(invitation_id: str) -> bool:
    """Whether no invitation can have the id ``invitation_id`` (one from a client's URL):
    PostgreSQL refuses text holding NUL, and the lobby makes none."""
    return not isinstance(invitation_id, str) or "\x00" in invitation_id


__all__ = [
    "ACCEPTED_KEEP",
    "MAX_OPEN",
    "MAX_OPEN_PER_ACCOUNT",
    "POSTER_GRACE",
    "Claimed",
    "Invitation",
    "Invitations",
    "LobbyError",
    "OnlinePlayer",
    "LobbyPresence",
    "Terms",
]
