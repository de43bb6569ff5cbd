"""An account's matches: claiming the seats a guest played, and deleting the account.

A guest holds a seat by its token; claiming links the seat to an account (the seat token keeps
working). Deleting an account takes its personal data (name, password hash, sessions, its own
rating history, its invitations in the lobby, its name in its opponents' profiles); its matches
stay, the seats it held without an account, so its opponents see an anonymous player.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from gammon.accounts.errors import ClaimError, NotSignedInError
from gammon.accounts.service import Accounts
from gammon.i18n import tr
from gammon.rules import Rules
from gammon.store.models import (
    AccountRow,
    AccountSessionRow,
    LobbyInvitationRow,
    MatchRow,
    ProfileMatchRow,
    RatingChangeRow,
    SeatAccountRow,
)
from gammon.store.repository import hash_token, lock_for_writing

NAMES_KEY = "names"  # the stored rules also hold the names the players gave when the match was made
ANONYMOUS = "Anonymous"  # how a deleted account's seat is named
RATED_KEY = "rated"  # and whether it was made to be rated (when two accounts hold its seats at its end)
# and, once it is over, why a match made to be rated was not (a guest's seat at its end): final, so
# that the recovery of ratings (gammon.accounts.rated) never rates a seat claimed after the end
UNRATED_KEY = "unrated"
_RULES_FIELDS = frozenset(f.name for f in fields(Rules))


def stored_rules(data: dict[str, Any]) -> Rules:
    """The Rules of a match's stored rules dict (without what else it holds: the names, rated)."""
    return Rules(**{k: v for k, v in data.items() if k in _RULES_FIELDS})


@dataclass(frozen=True)
class ClaimedSeat:
    match_id: str
    seat: int


def claim_seats(accounts: Accounts, token: str, seat_tokens: Iterable[str]) -> list[ClaimedSeat]:
    """Link the seats of ``seat_tokens`` to the account of the session ``token``, all or none
    (NotSignedInError, ClaimError: an unknown seat token, a seat another account holds, or both
    seats of one match). A seat the account holds already is claimed again without harm."""
    account = accounts.signed_in(token)
    claimed: list[ClaimedSeat] = []
    with accounts.sessions.begin() as s:
        for seat_token in seat_tokens:
            seat = _claim(s, account.id, hash_token(seat_token) if isinstance(seat_token, str) else "")
            claimed.append(seat)
    return claimed


def _claim(s: Session, account_id: int, seat_hash: str) -> ClaimedSeat:
    # The match's row locked (PostgreSQL): a claim of its other seat, or of the same one, made at
    # once waits for this one and then sees its holder.
    row = s.scalar(
        select(MatchRow)
        .where(or_(MatchRow.seat0_hash == seat_hash, MatchRow.seat1_hash == seat_hash))
        .with_for_update()
    )
    if row is None:
        raise ClaimError(tr("no match has this seat token"))
    # SQLite: the holders are read with the database locked for writing, so two claims at once
    # take turns; only once a match is found (a client's unknown tokens do not take the lock).
    lock_for_writing(s)
    seat = 0 if row.seat0_hash == seat_hash else 1
    holders = {
        r.seat: r.account_id
        for r in s.scalars(select(SeatAccountRow).where(SeatAccountRow.match_id == row.id))
    }
    if holders.get(1 - seat) == account_id:
        # One person at both seats (two at one keyboard, or a match against oneself) is no
        # match between two accounts: it could rate itself.
        raise ClaimError(tr("match {id}: this account holds the other seat", id=repr(row.id)))
    if seat in holders:
        if holders[seat] != account_id:
            raise ClaimError(tr("match {id}: the seat belongs to another player", id=repr(row.id)))
        return ClaimedSeat(row.id, seat)
    s.add(SeatAccountRow(match_id=row.id, seat=seat, account_id=account_id))
    s.flush()  # a second token of the same seat in this claim sees it
    return ClaimedSeat(row.id, seat)


def seat_holders(accounts: Accounts, match_id: str) -> dict[int, int | None]:
    """The seats of the match linked to accounts: seat -> account id (None: a deleted account)."""
    with accounts.sessions() as s:
        return {
            r.seat: r.account_id
            for r in s.scalars(select(SeatAccountRow).where(SeatAccountRow.match_id == match_id))
        }


def delete_account(accounts: Accounts, token: str, password: str) -> list[str]:
    """Delete the account of the session ``token``, which must give its password (SignInError);
    the matches it held a seat of."""
    account = accounts.signed_in(token, password)
    return erase_account(accounts, account.id, session=token)


def erase_account(accounts: Accounts, account_id: int, session: str | None = None) -> list[str]:
    """Delete the account ``account_id`` and its personal data, keeping its matches, in one
    transaction; with ``session``, only while that session is still the account's
    (NotSignedInError). (The foreign keys say the same; this does not rely on SQLite enforcing
    them.) The matches it held a seat of (their views show it no more)."""
    with accounts.sessions.begin() as s:
        # The matches' rows locked (PostgreSQL; SQLite: the database for writing): its opponent
        # deleting their account at once rewrites the same stored names after this one does.
        lock_for_writing(s)
        # The password was checked before this transaction: a reset or a change of it made since
        # ended the session, and the account stays.
        if session is not None:
            holder = s.scalar(
                select(AccountSessionRow.account_id).where(
                    AccountSessionRow.token_hash == hash_token(session),
                    AccountSessionRow.expires_at > accounts.clock(),
                )
            )
            if holder != account_id:
                raise NotSignedInError(tr("not signed in"))
        # The invitations first (PostgreSQL): the match of one being accepted now is stored, with
        # its seats, while its invitation's row is locked, so this waits for it and then reads it
        # below with the others (its name forgotten); or takes the invitation, and no match is made.
        invitation = LobbyInvitationRow
        s.execute(
            delete(invitation).where(
                (invitation.poster_id == account_id)
                | (invitation.to_id == account_id)
                | (invitation.acceptor_id == account_id)
            )
        )
        held = s.execute(
            select(MatchRow, SeatAccountRow.seat)
            .join(SeatAccountRow, SeatAccountRow.match_id == MatchRow.id)
            .where(SeatAccountRow.account_id == account_id)
            .with_for_update(of=MatchRow)
        ).all()
        for match, seat in held:
            _forget_name(match, seat)
            # the opponent's analysis of the match named this account as it was then
            s.execute(
                update(ProfileMatchRow)
                .where(
                    ProfileMatchRow.source == "here",
                    ProfileMatchRow.source_name == match.id,
                    ProfileMatchRow.seat == 1 - seat,
                    ProfileMatchRow.account_id != account_id,
                )
                .values(opponent_name=ANONYMOUS)
            )
        s.execute(
            update(SeatAccountRow).where(SeatAccountRow.account_id == account_id).values(account_id=None)
        )
        s.execute(
            update(RatingChangeRow).where(RatingChangeRow.opponent_id == account_id).values(opponent_id=None)
        )
        s.execute(delete(RatingChangeRow).where(RatingChangeRow.account_id == account_id))
        s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id))
        s.execute(delete(AccountRow).where(AccountRow.id == account_id))
        match_ids = [match.id for match, _ in held]
    return match_ids


def _forget_name(match: MatchRow, seat: int) -> None:
    """Take the name given for ``seat`` out of the match's stored rules (a new dict: the JSON
    column is written back only when replaced)."""
    names = match.rules.get(NAMES_KEY) if isinstance(match.rules, dict) else None
    if isinstance(names, list) and len(names) == 2 and names[seat] is not None:
        names = list(names)
        names[seat] = None
        match.rules = {**match.rules, NAMES_KEY: names}
