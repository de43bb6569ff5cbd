"""Rated matches: a finished online match between two accounts changes both ratings (the FIBS
formula, :mod:`gammon.ratings`) and experiences in one transaction, with a history row for each
player; and the recovery of the ratings a server failed to write. (The leaderboard:
gammon.accounts.standings.)"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import exists, func, select, true
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from gammon.accounts.clock import as_utc
from gammon.accounts.errors import RatingError
from gammon.accounts.games import RATED_KEY, UNRATED_KEY
from gammon.accounts.service import Accounts
from gammon.ratings import rating_change
from gammon.store.models import AccountRow, MatchActionRow, MatchRow, RatingChangeRow, SeatAccountRow
from gammon.store.repository import lock_for_writing

RATED_MODE = "online"  # two people at one keyboard, or against the computer, are not rated
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RatedPlayer:
    account_id: int
    rating_before: float
    rating_after: float
    experience_after: int


@dataclass(frozen=True)
class RatedMatch:
    match_id: str
    winner: RatedPlayer
    loser: RatedPlayer


@dataclass(frozen=True)
class HistoryEntry:
    match_id: str
    opponent: str | None  # None: an account since deleted
    match_length: int
    won: bool
    rating_before: float
    rating_after: float
    played_at: datetime


def rate_match(accounts: Accounts, match_id: str) -> RatedMatch:
    """Rate the match ``match_id``, which must be over, online, of a length, and between two
    accounts (RatingError; also when it was rated already)."""
    now = accounts.clock()
    try:
        with accounts.sessions.begin() as s:
            lock_for_writing(s)  # SQLite: the ratings read below stay the ones this changes
            match = s.get(MatchRow, match_id)
            if match is None:
                raise RatingError(f"no match {match_id!r}")
            length, winner_seat = _result(match)
            holders = {
                r.seat: r.account_id
                for r in s.scalars(select(SeatAccountRow).where(SeatAccountRow.match_id == match_id))
            }
            ids = holders.get(winner_seat), holders.get(1 - winner_seat)
            if ids[0] is None or ids[1] is None or ids[0] == ids[1]:
                raise RatingError(f"match {match_id!r} is not between two accounts")
            # Locked in id order (on PostgreSQL): two matches rated at once cannot deadlock, and
            # neither reads a rating the other is changing.
            rows = {
                r.id: r
                for r in s.scalars(
                    select(AccountRow).where(AccountRow.id.in_(ids)).order_by(AccountRow.id).with_for_update()
                )
            }
            if len(rows) != 2:  # one was deleted since its seat was read (PostgreSQL)
                raise RatingError(f"match {match_id!r} is not between two accounts")
            winner, loser = rows[ids[0]], rows[ids[1]]
            change = rating_change(winner.rating, loser.rating, length, winner.experience, loser.experience)
            rated = RatedMatch(
                match_id,
                _update(s, winner, loser, change.winner_change, length, True, now, match_id),
                _update(s, loser, winner, change.loser_change, length, False, now, match_id),
            )
    except IntegrityError:  # the unique (match, account) of the history
        raise RatingError(f"match {match_id!r} is rated already") from None
    return rated


# Actions a server may make on a player's behalf: the rolls of one who cannot double, and the
# abandon of a claim against it. Any other action of a seat of a rated match was its player's own,
# made while an account held the seat (a guest's seat of a rated match cannot act).
_NOT_CHOSEN = ("roll", "abandon")


def _acted(seat: int) -> ColumnElement[bool]:
    """The match's ``seat`` made an action of its own."""
    return exists().where(
        MatchActionRow.match_id == MatchRow.id,
        MatchActionRow.action["player"].as_integer() == seat,
        MatchActionRow.action["kind"].as_string().not_in(_NOT_CHOSEN),
    )


def unrated_matches(accounts: Accounts, limit: int = 100) -> list[str]:
    """Matches owed a rating, oldest first: made to be rated, online, over, both seats held by
    accounts that each made an action of their own (so held before the end: a guest's seat claimed
    once it had won, its opponent having abandoned, is not rated), without a rating row, and not
    judged unrated (:func:`mark_unrated`). The server rates a match as its last action is stored;
    one whose rating write failed (the database away, the server killed between the two) is found
    here."""
    held = (
        select(func.count())
        .where(SeatAccountRow.match_id == MatchRow.id, SeatAccountRow.account_id.is_not(None))
        .scalar_subquery()
    )
    query = (
        select(MatchRow.id)
        .where(
            MatchRow.mode == RATED_MODE,
            MatchRow.status == "over",
            MatchRow.rules[RATED_KEY].as_boolean() == true(),
            MatchRow.rules[UNRATED_KEY].as_string().is_(None),
            held == 2,
            ~exists().where(RatingChangeRow.match_id == MatchRow.id),
            _acted(0),
            _acted(1),
        )
        .order_by(MatchRow.created_at, MatchRow.id)
        .limit(limit)
    )
    with accounts.sessions() as s:
        return list(s.scalars(query))


def mark_unrated(accounts: Accounts, match_id: str, reason: str) -> bool:
    """Record that the finished match ``match_id`` made to be rated is not rated, and why (its
    stored rules), unless it was rated meanwhile; whether it was marked."""
    with accounts.sessions.begin() as s:
        lock_for_writing(s)  # SQLite; PostgreSQL: the row below, so a rating at once is seen
        match = s.scalar(select(MatchRow).where(MatchRow.id == match_id).with_for_update())
        if match is None or s.scalar(select(exists().where(RatingChangeRow.match_id == match_id))):
            return False
        rules = match.rules if isinstance(match.rules, dict) else {}
        match.rules = {**rules, UNRATED_KEY: reason[:200]}  # a new dict: the JSON column is rewritten
        return True


def recover_ratings(accounts: Accounts, limit: int = 100) -> list[RatedMatch]:
    """Rate the matches owed a rating (:func:`unrated_matches`), each exactly once however many
    processes recover at the same time (:func:`rate_match` refuses a second rating); one that
    cannot be rated (an account deleted since) is marked so and not tried again. A database error
    is raised: the next recovery tries again."""
    rated = []
    for match_id in unrated_matches(accounts, limit):
        try:
            rated.append(rate_match(accounts, match_id))
        except RatingError as e:
            if mark_unrated(accounts, match_id, str(e)):
                log.info("match %s not rated: %s", match_id, e)
    return rated


def _result(match: MatchRow) -> tuple[int, int]:
    """The match's length and its winner's seat (RatingError if it is not to be rated)."""
    length = match.rules.get("match_length") if isinstance(match.rules, dict) else None
    if match.mode != RATED_MODE:
        raise RatingError(f"match {match.id!r} is not an online match ({match.mode})")
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        raise RatingError(f"match {match.id!r} is money play: only matches to a length are rated")
    if match.status != "over":
        raise RatingError(f"match {match.id!r} is not over")
    scores = (match.score0, match.score1)
    if max(scores) < length or scores[0] == scores[1]:
        raise RatingError(f"match {match.id!r} has no winner (score {scores[0]}-{scores[1]})")
    return length, 0 if scores[0] > scores[1] else 1


def _update(
    s: Session,
    player: AccountRow,
    opponent: AccountRow,
    delta: float,
    length: int,
    won: bool,
    now: datetime,
    match_id: str,
) -> RatedPlayer:
    before, experience = player.rating, player.experience
    player.rating = before + delta
    player.experience = experience + length
    s.add(
        RatingChangeRow(
            match_id=match_id,
            account_id=player.id,
            opponent_id=opponent.id,
            match_length=length,
            won=won,
            rating_before=before,
            rating_after=player.rating,
            experience_before=experience,
            played_at=now,
        )
    )
    return RatedPlayer(player.id, before, player.rating, player.experience)


def rating_history(
    accounts: Accounts, account_id: int, limit: int | None = None, offset: int = 0
) -> list[HistoryEntry]:
    """The account's rated matches, oldest first; with ``limit``, only the ``limit`` latest after
    the ``offset`` latest (still oldest first), a page of a history that grows without end."""
    opponent = AccountRow.__table__.alias("opponent")
    query = (
        select(RatingChangeRow, opponent.c.name)
        .outerjoin(opponent, opponent.c.id == RatingChangeRow.opponent_id)
        .where(RatingChangeRow.account_id == account_id)
        .order_by(RatingChangeRow.played_at.desc(), RatingChangeRow.id.desc())
        .offset(offset)
    )
    if limit is not None:
        query = query.limit(limit)
    with accounts.sessions() as s:
        rows = list(s.execute(query))
    return [
        HistoryEntry(
            match_id=r.match_id,
            opponent=name,
            match_length=r.match_length,
            won=r.won,
            rating_before=r.rating_before,
            rating_after=r.rating_after,
            played_at=as_utc(r.played_at),
        )
        for r, name in reversed(rows)
    ]


def rated_matches(accounts: Accounts, account_id: int) -> int:
    """How many rated matches the account has played."""
    with accounts.sessions() as s:
        mine = RatingChangeRow.account_id == account_id
        return s.scalar(select(func.count()).select_from(RatingChangeRow).where(mine)) or 0
